package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/golden"
	"kompact/internal/testing/testserver"
	"kompact/openai"
)

// The request limits on the gateway's chat requests: --max-request-messages,
// --max-body and the session id rule on X-Kompact-Session, each refused
// in OpenAI's error form before the store or the upstream does any work;
// and the gateway's errors as the OpenAPI document's examples show them.

// limitedGateway serves the fake's agent "gw" (no automatic compaction)
// over a new SQLite store with cfg's limits (and token), its requests and
// answers held to the OpenAPI document.
func limitedGateway(t *testing.T, up *apitest.FakeUpstream, cfg httpapi.Config) *httptest.Server {
	t.Helper()
	agents, err := config.Parse([]byte(testserver.GatewayAgents(up.Srv.URL+"/v1", testserver.Gateway{})), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store, cfg.Agents = testserver.SQLite(t), agents
	cfg.Upstream = &openai.Upstream{Getenv: func(string) string { return "" }}
	srv := httptest.NewServer(httpapi.CheckedHandler(t, httpapi.New(cfg).Handler()))
	t.Cleanup(srv.Close)
	return srv
}

// gatewayRefusal is a gateway answer: its status, its OpenAI-form error,
// its raw body and its headers.
type gatewayRefusal struct {
	status int
	err    struct {
		Message string   `json:"message"`
		Type    string   `json:"type"`
		Code    string   `json:"code"`
		Fixes   []string `json:"fixes"`
	}
	body   string
	header http.Header
}

// sendChat posts body to agent gw's chat completions, the request first
// changed by edits, and reads the answer.
func sendChat(t *testing.T, base, body string, edits ...func(*http.Request)) gatewayRefusal {
	t.Helper()
	return sendGateway(t, "POST", base+"/gateway/gw/v1/chat/completions", body, edits...)
}

// sendGateway sends a gateway request (a JSON body when body is not ""),
// changed by edits, and reads the answer, which must be in OpenAI's error
// form unless it is 200.
func sendGateway(t *testing.T, method, url, body string, edits ...func(*http.Request)) gatewayRefusal {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, edit := range edits {
		edit(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := gatewayRefusal{status: resp.StatusCode, body: string(b), header: resp.Header}
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if resp.StatusCode != 200 && (json.Unmarshal(b, &e) != nil || json.Unmarshal(e.Error, &out.err) != nil) {
		t.Fatalf("%d: the answer is not in OpenAI's error form: %s", resp.StatusCode, b)
	}
	return out
}

// withHeader sets a request's header key to value.
func withHeader(key, value string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set(key, value) }
}

// chunked sends a request's body without Content-Length.
func chunked(r *http.Request) { r.Body, r.ContentLength = io.NopCloser(io.MultiReader(r.Body)), -1 }

// chatBody is a chat request of n user messages.
func chatBody(n int) string {
	msgs := make([]string, n)
	for i := range msgs {
		msgs[i] = fmt.Sprintf(`{"role":"user","content":"message %d"}`, i)
	}
	return `{"model":"chat-model","messages":[` + strings.Join(msgs, ",") + `]}`
}

// wantRefused fails unless r is the gateway's own error with status and
// code, in OpenAI's form, whose message says every one of says.
func wantRefused(t *testing.T, what string, r gatewayRefusal, status int, code string, says ...string) {
	t.Helper()
	if r.status != status || r.err.Type != "kompact_error" || r.err.Code != code || len(r.err.Fixes) == 0 {
		t.Errorf("%s: %d %s; want %d %s in OpenAI's error form, with fixes", what, r.status, r.body, status, code)
		return
	}
	for _, s := range says {
		if !strings.Contains(r.err.Message, s) {
			t.Errorf("%s: the message %q does not say %q", what, r.err.Message, s)
		}
	}
}

// wantUntouched fails if the upstream had a chat call or the store has a
// session.
func wantUntouched(t *testing.T, up *apitest.FakeUpstream, base string) {
	t.Helper()
	if chats, _ := up.Chats(); len(chats) != 0 {
		t.Errorf("the upstream had %d chat requests, want none", len(chats))
	}
	var list struct {
		Sessions []json.RawMessage `json:"sessions"`
	}
	apitest.GetJSON(t, base, "/v1/sessions", &list)
	if len(list.Sessions) != 0 {
		t.Errorf("the store has %d sessions, want none", len(list.Sessions))
	}
}

// TestGatewayMaxRequestMessages: a chat request with more messages than
// --max-request-messages is refused with 413 too_large naming the limit,
// in OpenAI's error form, before the store or the upstream sees it; one
// at the limit goes through.
func TestGatewayMaxRequestMessages(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := limitedGateway(t, up, httpapi.Config{Limits: httpapi.Limits{MaxRequestMessages: 3}})
	r := sendChat(t, srv.URL, chatBody(4), withHeader("X-Kompact-Session", "too-many"))
	wantRefused(t, "4 messages", r, 413, "too_large", "4 messages", "at most 3", "--max-request-messages")
	wantUntouched(t, up, srv.URL)
	if r := sendChat(t, srv.URL, chatBody(3)); r.status != 200 {
		t.Fatalf("3 messages: %d %s", r.status, r.body)
	}
	if chats, _ := up.Chats(); len(chats) != 1 {
		t.Fatalf("the upstream had %d chat requests, want 1", len(chats))
	}
}

// TestGatewayMaxBody: a chat request over --max-body is 413 too_large in
// OpenAI's error form, whether its Content-Length says so (refused before
// any of it is read) or it comes chunked; neither reaches the store or
// the upstream.
func TestGatewayMaxBody(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := limitedGateway(t, up, httpapi.Config{MaxBody: 512})
	body := chatBody(20) // over 512 bytes
	wantRefused(t, "Content-Length", sendChat(t, srv.URL, body), 413, "too_large", "512 bytes")
	wantRefused(t, "chunked", sendChat(t, srv.URL, body, chunked), 413, "too_large", "512 bytes")
	wantUntouched(t, up, srv.URL)
}

// TestGatewaySessionHeaderRule: an X-Kompact-Session that breaks the
// session id rule is 400 invalid_request naming the header, in OpenAI's
// error form, before the store or the upstream sees the request, as an id
// outside the rule is on every /v1 route.
func TestGatewaySessionHeaderRule(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := limitedGateway(t, up, httpapi.Config{})
	for _, id := range []string{"a/b", strings.Repeat("x", 129), ".", "..", "caf\xc3\xa9", "a b", "a%00b"} {
		r := sendChat(t, srv.URL, chatBody(1), withHeader("X-Kompact-Session", id))
		wantRefused(t, fmt.Sprintf("X-Kompact-Session %q", id), r, 400, "invalid_request", "X-Kompact-Session", "session id")
	}
	wantUntouched(t, up, srv.URL)
	if r := sendChat(t, srv.URL, chatBody(1), withHeader("X-Kompact-Session", "A-z_0.9:ok")); r.status != 200 {
		t.Fatalf("a valid id: %d %s", r.status, r.body)
	}
}

// TestGatewayGuardErrors: the server's own guards (a Host it does not
// answer, another site's page, a body that is not JSON) refuse gateway
// requests in OpenAI's error form too, with the statuses of the /v1 routes.
func TestGatewayGuardErrors(t *testing.T) {
	up := apitest.NewFakeUpstream(t)
	srv := limitedGateway(t, up, httpapi.Config{})
	cases := []struct {
		name   string
		edit   func(*http.Request)
		status int
		code   string
	}{
		{"another host", func(r *http.Request) { r.Host = "evil.example" }, 403, "forbidden"},
		{"another site's page", withHeader("Origin", "https://evil.example"), 403, "forbidden"},
		{"not JSON", withHeader("Content-Type", "text/plain"), 415, "unsupported_media_type"},
	}
	for _, c := range cases {
		wantRefused(t, c.name, sendChat(t, srv.URL, chatBody(1), c.edit), c.status, c.code)
	}
	wantUntouched(t, up, srv.URL)
}

// TestGatewayErrorBodies pins the gateway's own errors, in OpenAI's form
// (testdata/gateway_errors.golden, whose entries are the document's
// examples).
func TestGatewayErrorBodies(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	srv := limitedGateway(t, apitest.NewFakeUpstream(t), httpapi.Config{Token: token, Limits: httpapi.Limits{MaxRequestMessages: 3}})
	auth := withHeader("Authorization", "Bearer "+token)
	var out strings.Builder
	for _, c := range []struct {
		method, path, body string
		edits              []func(*http.Request)
	}{
		{"POST", "/gateway/nobody/v1/chat/completions", chatBody(1), []func(*http.Request){auth}},
		{"POST", "/gateway/gw/v1/chat/completions", chatBody(1), nil},
		{"POST", "/gateway/gw/v1/chat/completions", chatBody(1), []func(*http.Request){auth, withHeader("X-Kompact-Session", "a/b")}},
		{"POST", "/gateway/gw/v1/chat/completions", `{"model":"m"}`, []func(*http.Request){auth}},
		{"POST", "/gateway/gw/v1/chat/completions", chatBody(4), []func(*http.Request){auth}},
		{"GET", "/gateway/gw/v1/embeddings", "", []func(*http.Request){auth}},
	} {
		r := sendGateway(t, c.method, srv.URL+c.path, c.body, c.edits...)
		fmt.Fprintf(&out, "%s %s -> %d\n%s\n", c.method, c.path, r.status, r.body)
	}
	golden.Check(t, "gateway_errors", []byte(out.String()))
}
