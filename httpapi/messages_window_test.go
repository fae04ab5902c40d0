package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"kompact/internal/testing/apitest"
	"kompact/internal/testing/golden"
)

// TestMessagesWindow (issue 34 §1): GET /v1/sessions/{id}/messages answers
// a window of the session's messages, each as GET /v1/sessions/{id} shows
// it with its 1-based number, by offset or around a message id, with the
// session's version and message count; an offset past the end answers no
// message; limit is 100 by default, and an unknown message is 404.
func TestMessagesWindow(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 60)) // 121 messages: sys, u1, a1, …
	whole := e.must(200, "GET", "/v1/sessions/s", nil)
	msgs := whole["messages"].([]any)
	check := func(query string, offset int, ids ...string) {
		t.Helper()
		got := e.must(200, "GET", "/v1/sessions/s/messages"+query, nil)
		if got["version"] != whole["version"] || got["total"] != float64(len(msgs)) || got["offset"] != float64(offset) {
			t.Fatalf("%s: version %v, total %v, offset %v; want %v, %d, %d", query, got["version"], got["total"], got["offset"], whole["version"], len(msgs), offset)
		}
		window := got["messages"].([]any)
		if len(window) != len(ids) {
			t.Fatalf("%s: %d messages, want %d", query, len(window), len(ids))
		}
		for i, w := range window {
			entry := w.(map[string]any)
			k := offset + i
			if entry["number"] != float64(k+1) || apitest.JSONText(t, entry["message"]) != apitest.JSONText(t, msgs[k]) || msgs[k].(map[string]any)["id"] != ids[i] {
				t.Fatalf("%s: entry %d is %s, want number %d and %s (%s)", query, i, apitest.JSONText(t, entry), k+1, apitest.JSONText(t, msgs[k]), ids[i])
			}
		}
	}
	first100 := make([]string, 100)
	for i := range first100 {
		first100[i] = msgs[i].(map[string]any)["id"].(string)
	}
	check("", 0, first100...)
	check("?limit=3", 0, "sys", "u1", "a1")
	check("?offset=2&limit=2", 2, "a1", "u2")
	check("?offset=119&limit=5", 119, "u60", "a60")
	check("?offset=121", 121)
	check("?offset=5000&limit=1", 5000)
	check("?around=u2&limit=3", 2, "a1", "u2", "a2")
	check("?around=sys&limit=2", 0, "sys", "u1")
	check("?around=a60&limit=4", 117, "u59", "a59", "u60", "a60")
	check("?around=u30&offset=0&limit=1", 59, "u30")
	wantError(t, e.do("GET", "/v1/sessions/s/messages?around=nope", nil), 404, "not_found", `no message with the id "nope"`)
	wantError(t, e.do("GET", "/v1/sessions/nobody/messages", nil), 404, "not_found")
}

// TestMessagesWindowBounded (issue 34 §1): a window's limit is 1 to 500,
// refused past it (400, with a fix), not cut; a negative or broken offset,
// an offset with around, and an around that is no message id are 400 too.
func TestMessagesWindowBounded(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 2))
	e.must(200, "GET", "/v1/sessions/s/messages?limit=500", nil)
	for _, c := range []struct {
		query, want string
	}{
		{"?limit=501", "limit 501 is out of bounds: a window holds 1 to 500 messages"},
		{"?limit=0", "limit 0 is out of bounds"},
		{"?limit=many", `limit "many" is not a whole number`},
		{"?offset=-1", "offset -1 is negative"},
		{"?offset=1.5", `offset "1.5" is not a whole number`},
		{"?offset=3&around=u1", "both an offset and around"},
		{"?around=" + strings.Repeat("x", 129), "around is not a message id"},
		{"?around=%FF", "around is not a message id"},
	} {
		m := wantError(t, e.do("GET", "/v1/sessions/s/messages"+c.query, nil), 400, "invalid_request", c.want)
		if len(m["fixes"].([]any)) == 0 {
			t.Errorf("%s: no fix", c.query)
		}
	}
}

// TestMessagesWindowJSON pins the JSON form of a window (GET
// /v1/sessions/{id}/messages) byte for byte: the document's example.
func TestMessagesWindowJSON(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	r := e.do("GET", "/v1/sessions/s/messages?offset=2&limit=2", nil)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" || !json.Valid(r.body) {
		t.Fatalf("status %d, %s\n%s", r.status, r.header.Get("Content-Type"), r.body)
	}
	golden.Check(t, "message_window", r.body)
}
