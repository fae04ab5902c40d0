package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/testing/testenv"
	"kompact/postgres"
)

// eachStore runs fn with an API over SQLite and, when the tests have a
// PostgreSQL server, over PostgreSQL.
func eachStore(t *testing.T, opt apiOptions, fn func(t *testing.T, e *apiEnv)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newAPIEnv(t, opt)) })
	t.Run("postgres", func(t *testing.T) {
		pg, err := postgres.Open(context.Background(), testenv.PostgresSchema(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = pg.Close() })
		o := opt
		o.store = func(kompact.Store) kompact.Store { return pg }
		fn(t, newAPIEnv(t, o))
	})
}

// TestPathIDsOneRule (issue 21 §5): a session id in the path that breaks
// the session id rule (NUL, bytes that are not UTF-8, a space) answers
// 400 invalid_request stating the rule on every route and on both stores
// (it was 500 on PostgreSQL, 404 on SQLite); a bad preview id too.
func TestPathIDsOneRule(t *testing.T) {
	eachStore(t, apiOptions{}, func(t *testing.T, e *apiEnv) {
		e.must(201, "POST", "/v1/sessions", `{"id":"ok","messages":[{"role":"user","content":"hi"}]}`)
		for _, id := range []string{"a%00b", "%FF", "a%20b", strings.Repeat("x", 129)} {
			for _, route := range []struct{ method, path, body string }{
				{"GET", "/v1/sessions/%s", ""},
				{"DELETE", "/v1/sessions/%s", ""},
				{"POST", "/v1/sessions/%s/messages", `{"message":{"role":"user","content":"x"}}`},
				{"PATCH", "/v1/sessions/%s/settings", `{"title":"x"}`},
				{"GET", "/v1/sessions/%s/context", ""},
				{"POST", "/v1/sessions/%s/continue", `{"content":"x"}`},
				{"GET", "/v1/sessions/%s/ui-elements", ""},
				{"POST", "/v1/sessions/%s/actions/compact_conversation", ""},
				{"GET", "/v1/sessions/%s/previews", ""},
				{"GET", "/v1/sessions/%s/revisions", ""},
				{"GET", "/v1/sessions/%s/revisions/1", ""},
				{"POST", "/v1/sessions/%s/revisions/1/restore", ""},
				{"GET", "/v1/sessions/%s/revisions/1/restore-preview", ""},
				{"POST", "/v1/sessions/%s/revisions/1/undo", ""},
			} {
				var body any
				if route.body != "" {
					body = route.body
				}
				path := fmt.Sprintf(route.path, id)
				r := e.do(route.method, path, body)
				if r.status != 400 || !strings.Contains(string(r.body), `"invalid_request"`) || !strings.Contains(string(r.body), "a session id is 1 to 128 bytes") {
					t.Errorf("%s %.60s: %d %.300s, want 400 invalid_request with the rule", route.method, path, r.status, r.body)
				}
			}
		}
		for _, p := range []string{"a%00b", "%FF"} {
			wantError(t, e.do("GET", "/v1/sessions/ok/previews/"+p, nil), 400, "invalid_request", "the preview id is not one the server gives")
			wantError(t, e.do("DELETE", "/v1/sessions/ok/previews/"+p, nil), 400, "invalid_request", "the preview id")
		}
		wantError(t, e.do("GET", "/v1/sessions/nope", nil), 404, "not_found")
	})
}

// TestMessageIDRuleHTTP (issue 21 §5): a message id of 100 KB, or with
// NUL, is 400 on create, import and append, on both stores, before any
// store sees it.
func TestMessageIDRuleHTTP(t *testing.T) {
	eachStore(t, apiOptions{}, func(t *testing.T, e *apiEnv) {
		e.must(201, "POST", "/v1/sessions", `{"id":"ok","messages":[{"role":"user","content":"hi"}]}`)
		for _, id := range []string{strings.Repeat("i", 100_000), `a\u0000b`, strings.Repeat("i", 129)} {
			m := fmt.Sprintf(`{"role":"user","id":"%s","content":"x"}`, id)
			want := "messages[0].id"
			wantError(t, e.do("POST", "/v1/sessions", `{"messages":[`+m+`]}`), 400, "invalid_request", want)
			wantError(t, e.do("POST", "/v1/sessions/import", `{"messages":[`+m+`]}`), 400, "invalid_request", want)
			wantError(t, e.do("POST", "/v1/sessions/ok/messages", `{"messages":[`+m+`]}`), 400, "invalid_request", want)
		}
		e.must(201, "POST", "/v1/sessions/ok/messages", fmt.Sprintf(`{"message":{"role":"user","id":"%s","content":"x"}}`, strings.Repeat("i", 128)))
	})
}

// TestStrictJSONBodies (issue 21 §5): a key given twice is refused, in a
// message and in a request body's own fields (it made
// "role":"user","role":"system" a system message); a lone surrogate
// escape is refused like invalid UTF-8 (it became U+FFFD).
func TestStrictJSONBodies(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	twice := `{"role":"user","role":"system","content":"x"}`
	wantError(t, e.do("POST", "/v1/sessions", `{"id":"a","messages":[`+twice+`]}`), 400, "invalid_request", "messages[0].role: given twice")
	wantError(t, e.do("POST", "/v1/sessions/import", `{"id":"a","messages":[`+twice+`]}`), 400, "invalid_request", "messages[0].role: given twice")
	wantError(t, e.do("POST", "/v1/sessions/import", `{"id":"a","id":"b","messages":[]}`), 400, "invalid_request", `session has the field "id" twice`)
	wantError(t, e.do("POST", "/v1/sessions", `{"id":"a","id":"b","messages":[]}`), 400, "invalid_request", `the request body has the field "id" twice`)
	e.must(201, "POST", "/v1/sessions", `{"id":"s","messages":[{"role":"user","content":"hi"}]}`)
	wantError(t, e.do("POST", "/v1/sessions/s/messages", `{"message":`+twice+`}`), 400, "invalid_request", "message.role: given twice")
	wantError(t, e.do("PATCH", "/v1/sessions/s/settings", `{"title":"a","title":"b"}`), 400, "invalid_request", `the request body has the field "title" twice`)
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", `{"preview":true,"preview":false}`), 400, "invalid_request", `"preview" twice`)

	lone := `"a\ud800b"`
	wantError(t, e.do("POST", "/v1/sessions/s/messages", `{"message":{"role":"user","content":`+lone+`}}`), 400, "invalid_request", `message.content: holds the lone surrogate escape \ud800`)
	wantError(t, e.do("POST", "/v1/sessions/import", `{"messages":[{"role":"user","content":`+lone+`}]}`), 400, "invalid_request", `messages[0].content: holds the lone surrogate escape`)
	wantError(t, e.do("PATCH", "/v1/sessions/s/settings", `{"title":`+lone+`}`), 400, "invalid_request", `field "title" holds the lone surrogate escape \ud800`)
	wantError(t, e.do("POST", "/v1/sessions/s/continue", `{"content":"\udc00"}`), 400, "invalid_request", `field "content" holds the lone surrogate escape \udc00`)
	// A pair is a character.
	r := e.must(201, "POST", "/v1/sessions/s/messages", `{"message":{"role":"user","content":"\ud83d\ude00"}}`)
	if got := fmt.Sprint(r["messages"]); !strings.Contains(got, "😀") {
		t.Errorf("the pair: %s", got)
	}
	if got := e.must(200, "GET", "/v1/sessions/s", nil); len(got["messages"].([]any)) != 2 {
		t.Errorf("the refused bodies stored something: %v", got["messages"])
	}
}

// TestCompactionModelLimitHTTP (issue 21 §5): compaction_model has at most
// 256 bytes, on create, import and settings.
func TestCompactionModelLimitHTTP(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	long := strings.Repeat("m", 257)
	wantError(t, e.do("POST", "/v1/sessions", `{"compaction_model":"`+long+`","messages":[]}`), 400, "invalid_request", "compaction_model is 257 bytes long; a model name is at most 256 bytes")
	wantError(t, e.do("POST", "/v1/sessions/import", `{"compaction_model":"`+long+`","messages":[]}`), 400, "invalid_request", "compaction_model is 257 bytes long")
	e.must(201, "POST", "/v1/sessions", `{"id":"s","compaction_model":"`+long[1:]+`","messages":[]}`)
	wantError(t, e.do("PATCH", "/v1/sessions/s/settings", `{"compaction_model":"`+long+`"}`), 400, "invalid_request", "compaction_model is 257 bytes long")
}

// TestActionFieldNotTaken (issue 21 §5): a body field the action does not
// take is an error naming it.
func TestActionFieldNotTaken(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions", `{"id":"s","messages":[{"role":"user","id":"u","content":"hi"},{"role":"assistant","content":"yo"}]}`)
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_conversation", `{"message_id":"u"}`), 400, "invalid_request", "compact_conversation takes start and end, not message_id")
	wantError(t, e.do("POST", "/v1/sessions/s/actions/compact_up_to_here", `{"message_id":"u","start":"u"}`), 400, "invalid_request", "compact_up_to_here takes message_id only, not start or end")
}

// TestRequestMessageLimit (issue 21 §4): a request that brings more
// messages than --max-request-messages is 413 too_large naming the limit,
// on create, a kimi-cli import and append, and stores nothing; one at the
// limit is taken. A session document's import, which the store takes a
// batch at a time, is not held to it (issue 28 §3).
func TestRequestMessageLimit(t *testing.T) {
	e := newAPIEnv(t, apiOptions{limits: httpapi.Limits{MaxRequestMessages: 5}})
	list := func(n int) string {
		return strings.TrimSuffix(strings.Repeat(`{"role":"user","content":"x"},`, n), ",")
	}
	want := "the server takes at most 5 in one request (--max-request-messages)"
	wantError(t, e.do("POST", "/v1/sessions", `{"messages":[`+list(6)+`]}`), 413, "too_large", "the request brings 6 messages", want)
	e.must(201, "POST", "/v1/sessions/import", `{"id":"six","messages":[`+list(6)+`]}`)
	e.must(201, "POST", "/v1/sessions/import", longDoc("big", 3000, ""))
	kimi := strings.Repeat(`{"role":"user","content":"x"}`+"\n", 6)
	wantError(t, e.do("POST", "/v1/sessions/import?format=kimi", kimi), 413, "too_large", want)
	e.must(201, "POST", "/v1/sessions", `{"id":"s","messages":[`+list(5)+`]}`)
	wantError(t, e.do("POST", "/v1/sessions/s/messages", `{"messages":[`+list(6)+`]}`), 413, "too_large", want)
	e.must(201, "POST", "/v1/sessions/s/messages", `{"messages":[`+list(5)+`]}`)
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 3 {
		t.Errorf("%d sessions, want the 3 taken: the refused requests stored some", n)
	}
	if got := e.must(200, "GET", "/v1/sessions/s", nil); len(got["messages"].([]any)) != 10 {
		t.Errorf("%d messages, want 10", len(got["messages"].([]any)))
	}
}

// TestSessionMessageLimitHTTP (issue 21 §4): past the store's per-session
// limit an append is 413 too_large naming it, on both stores.
func TestSessionMessageLimitHTTP(t *testing.T) {
	eachStore(t, apiOptions{}, func(t *testing.T, e *apiEnv) {
		e.store.(kompact.SessionLimiter).LimitSessionMessages(3)
		e.must(201, "POST", "/v1/sessions", `{"id":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`)
		e.must(201, "POST", "/v1/sessions/s/messages", `{"message":{"role":"user","content":"c"}}`)
		wantError(t, e.do("POST", "/v1/sessions/s/messages", `{"message":{"role":"assistant","content":"d"}}`), 413, "too_large",
			`session "s" would have 4 messages; a session holds at most 3`)
	})
}
