package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/apitest"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/golden"
	"kompact/internal/testing/testserver"
	"kompact/kimicli"
	"kompact/kimicode"
	"kompact/openai"
)

// apiAgents is the test configuration (testserver.Agents): "fake" compacts
// with the fake LLM, "off" has compaction disabled.
const apiAgents = testserver.Agents

// apiEnv is a real server on a loopback port, with a real SQLite store and
// the fake LLM behind an openai.Client.
type apiEnv struct {
	t     testing.TB
	llm   *fakellm.Server
	store kompact.Store
	srv   *httpapi.Server
	base  string
	http  *http.Client
	token string
	logs  *testserver.Buffer
}

type apiOptions struct {
	token   string
	maxBody int64
	// maxImport is Config.MaxImportBody (0: its default).
	maxImport int64
	store     func(kompact.Store) kompact.Store
	limits    httpapi.Limits
	// previews bound the previews (zero: the defaults).
	previews kompact.PreviewLimits
	// jsonLogs logs JSON lines rather than text.
	jsonLogs bool
	// agents, when not empty, replaces apiAgents (two %s: the fake LLM's URL).
	agents string
}

func newAPIEnv(t testing.TB, opt apiOptions) *apiEnv {
	t.Helper()
	llm := fakellm.New(t)
	store := testserver.SQLite(t)
	var st kompact.Store = store
	if opt.store != nil {
		st = opt.store(st)
	}
	e := &apiEnv{t: t, llm: llm, store: st, token: opt.token, logs: &testserver.Buffer{}}
	var logger *slog.Logger
	if opt.jsonLogs {
		logger = slog.New(slog.NewJSONHandler(e.logs, nil))
	} else {
		logger = slog.New(slog.NewTextHandler(e.logs, nil))
	}
	e.srv = httpapi.New(httpapi.Config{
		Store:         st,
		Agents:        apiConfigOf(t, opt.agents, llm.URL()),
		LLM:           apiClient(),
		Token:         opt.token,
		MaxBody:       opt.maxBody,
		MaxImportBody: opt.maxImport,
		Logger:        logger,
		Version:       "test-1",
		Limits:        opt.limits,
		Previews:      opt.previews,
		// kimi-cli files, as cmd/kompact wires them in.
		KimiContext:  kimicli.ImportContext,
		KimiCodeWire: kimicode.ReadSession,
	})
	ts := httptest.NewServer(e.srv.Handler())
	t.Cleanup(ts.Close)
	e.base, e.http = ts.URL, httpapi.CheckedClient(t, ts.Client())
	return e
}

// serveLoopback runs srv.Serve, as kompact serve does, on a listener at
// 127.0.0.1 and returns its address and a stop that ends Serve and waits
// for it to return; an error it returns fails the test.
func serveLoopback(t testing.TB, srv *httpapi.Server) (addr string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	return ln.Addr().String(), func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}
}

func apiConfig(t testing.TB, url string) *config.Config {
	t.Helper()
	return apiConfigOf(t, "", url)
}

// apiConfigOf parses agents (apiAgents when empty) for the fake LLM at url.
func apiConfigOf(t testing.TB, agents, url string) *config.Config {
	t.Helper()
	if agents == "" {
		agents = apiAgents
	}
	cfg, err := config.Parse(fmt.Appendf(nil, agents, url, url), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// apiClient retries once, without waiting.
func apiClient() *openai.Client {
	return &openai.Client{MaxRetries: 1, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
}

type apiResponse struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body as a JSON object.
func (r apiResponse) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// do sends a request with the env's token (when it has one).
func (e *apiEnv) do(method, path string, body any, header ...string) apiResponse {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		rd = strings.NewReader(apitest.JSONText(e.t, b))
	}
	req, err := http.NewRequest(method, e.base+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if e.token != "" {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return apiResponse{status: resp.StatusCode, header: resp.Header, body: data}
}

// must sends a request and fails the test unless the status is want.
func (e *apiEnv) must(want int, method, path string, body any, header ...string) map[string]any {
	e.t.Helper()
	r := e.do(method, path, body, header...)
	if r.status != want {
		e.t.Fatalf("%s %s: status %d, want %d\n%s", method, path, r.status, want, r.body)
	}
	if want == http.StatusNoContent {
		return nil
	}
	return r.json(e.t)
}

// wantError checks an error response: status, code, and that the message
// contains each of msgs.
func wantError(t testing.TB, r apiResponse, status int, code string, msgs ...string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d\n%s", r.status, status, r.body)
	}
	m := r.json(t)
	e := m
	if inner, ok := m["error"].(map[string]any); ok && m["status"] == "error" {
		e = inner // an outcome
	}
	if e["code"] != code {
		t.Fatalf("code %v, want %s\n%s", e["code"], code, r.body)
	}
	msg, _ := e["message"].(string)
	for _, s := range msgs {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q lacks %q", msg, s)
		}
	}
	if _, ok := e["fixes"].([]any); !ok {
		t.Errorf("no fixes list in %s", r.body)
	}
	return m
}

// apiSession is a session document of n user/assistant pairs after a
// system message: sys, u1, a1, u2, a2, ... (testserver.Session).
var apiSession = testserver.Session

// ids returns the ids of a JSON message list, joined by commas.
func ids(v any) string {
	list, _ := v.([]any)
	out := make([]string, len(list))
	for i, m := range list {
		out[i], _ = m.(map[string]any)["id"].(string)
	}
	return strings.Join(out, ",")
}

// texts returns the text of a JSON message's text parts.
func texts(m any) string {
	var b strings.Builder
	parts, _ := m.(map[string]any)["content"].([]any)
	for _, p := range parts {
		if pm := p.(map[string]any); pm["type"] == "text" {
			b.WriteString(pm["text"].(string))
		}
	}
	return b.String()
}

func TestHealthAgentsAndPage(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	h := e.must(200, "GET", "/v1/health", nil)
	if h["status"] != "ok" || h["version"] != "test-1" {
		t.Errorf("health %v", h)
	}
	agents := e.must(200, "GET", "/v1/agents", nil)["agents"].([]any)
	want := `[{"compaction_enabled":true,"default":true,"model":"chat-model","name":"fake"},{"compaction_enabled":false,"default":false,"model":"off-model","name":"off"}]`
	if got := apitest.JSONText(t, agents); got != want {
		t.Errorf("agents %s\nwant %s", got, want)
	}
	format := e.must(200, "GET", "/v1/compaction", nil)
	if format["summary_prefix"] != kompact.SummaryPrefix || apitest.JSONText(t, format["sections"]) != apitest.JSONText(t, kompact.SectionNames) {
		t.Errorf("compaction format %v", format)
	}
	ui := e.must(200, "GET", "/v1/ui-elements", nil)["ui_elements"].([]any)
	if len(ui) != 3 || ui[0].(map[string]any)["id"] != kompact.ActionCompactConversation || ui[1].(map[string]any)["id"] != kompact.ActionCompactUpToHere ||
		ui[2].(map[string]any)["id"] != kompact.ActionPruneToolResults {
		t.Errorf("global ui elements %v", ui)
	}
	page := e.do("GET", "/", nil)
	if page.status != 200 || !strings.Contains(page.header.Get("Content-Type"), "text/html") || !bytes.Contains(page.body, []byte("<html")) {
		t.Errorf("GET /: %d %s", page.status, page.header.Get("Content-Type"))
	}
	wantError(t, e.do("PUT", "/v1/sessions", nil), 404, "not_found")
	// One log line per request, without bodies.
	logs := e.logs.String()
	if !strings.Contains(logs, "method=GET path=/v1/health status=200 duration=") {
		t.Errorf("no request log line:\n%s", logs)
	}
}

func TestSessionLifecycle(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	// Create: the default agent, ids assigned to messages without one.
	created := e.must(201, "POST", "/v1/sessions", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "hello"}, map[string]any{"id": "x", "role": "assistant", "content": "hi"}}})
	id, _ := created["id"].(string)
	if id == "" || created["agent"] != "fake" || created["version"] != 1.0 || created["created_at"] == nil || created["updated_at"] == nil {
		t.Fatalf("created %v", created)
	}
	msgs := created["messages"].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["id"] == "" || msgs[1].(map[string]any)["id"] != "x" || texts(msgs[0]) != "hello" {
		t.Fatalf("created messages %v", msgs)
	}
	// An empty body creates an empty session.
	empty := e.must(201, "POST", "/v1/sessions", "")
	if len(empty["messages"].([]any)) != 0 || empty["agent"] != "fake" {
		t.Errorf("empty session %v", empty)
	}
	// Import a session document, with its own id and agent.
	doc := apiSession("imp", 2)
	doc["agent"] = "off"
	doc["compaction_model"] = "m2"
	imp := e.must(201, "POST", "/v1/sessions/import", doc)
	if imp["id"] != "imp" || imp["agent"] != "off" || imp["compaction_model"] != "m2" || ids(imp["messages"]) != "sys,u1,a1,u2,a2" {
		t.Fatalf("imported %v", imp)
	}
	wantError(t, e.do("POST", "/v1/sessions/import", doc), 409, "conflict")
	wantError(t, e.do("POST", "/v1/sessions/import", `{"messages":[{"role":"robot"}]}`), 400, "invalid_request", "messages[0].role")

	got := e.must(200, "GET", "/v1/sessions/imp", nil)
	if apitest.JSONText(t, got) != apitest.JSONText(t, imp) {
		t.Errorf("GET differs from the created session:\n%v\n%v", got, imp)
	}

	// Append one, then several.
	app := e.must(201, "POST", "/v1/sessions/imp/messages", map[string]any{"message": map[string]any{"role": "user", "content": "more"}})
	if app["version"] != 2.0 || len(app["messages"].([]any)) != 1 || texts(app["messages"].([]any)[0]) != "more" || ids(app["messages"]) == "" {
		t.Fatalf("append one: %v", app)
	}
	app = e.must(201, "POST", "/v1/sessions/imp/messages", map[string]any{"messages": []any{
		map[string]any{"id": "n1", "role": "assistant", "content": "x"}, map[string]any{"id": "n2", "role": "user", "content": "y"}}})
	if app["version"] != 3.0 || ids(app["messages"]) != "n1,n2" {
		t.Fatalf("append two: %v", app)
	}
	wantError(t, e.do("POST", "/v1/sessions/imp/messages", `{"messages":[]}`), 400, "invalid_request", "no message")
	wantError(t, e.do("POST", "/v1/sessions/imp/messages", `{"message":{"role":"user"},"messages":[{"role":"user"}]}`), 400, "invalid_request", "both")
	wantError(t, e.do("POST", "/v1/sessions/imp/messages", `{"messages":[{"role":"user"},{"role":"user","content":7}]}`), 400, "invalid_request", "messages[1].content")
	wantError(t, e.do("POST", "/v1/sessions/imp/messages", `{"message":{"role":"user","colour":"red"}}`), 400, "invalid_request", "message.colour")
	wantError(t, e.do("POST", "/v1/sessions/nope/messages", `{"message":{"role":"user"}}`), 404, "not_found")

	// Settings.
	set := e.must(200, "PATCH", "/v1/sessions/imp/settings", map[string]any{"compaction_model": "m3"})
	if set["compaction_model"] != "m3" || set["version"].(float64) <= 3 {
		t.Errorf("settings %v", set)
	}
	set = e.must(200, "PATCH", "/v1/sessions/imp/settings", map[string]any{"compaction_model": ""})
	if _, ok := set["compaction_model"]; ok {
		t.Errorf("compaction_model not cleared: %v", set)
	}
	wantError(t, e.do("PATCH", "/v1/sessions/imp/settings", `{}`), 400, "invalid_request", "compaction_model")
	wantError(t, e.do("PATCH", "/v1/sessions/imp/settings", `{"compaction_model":5}`), 400, "invalid_request", `"compaction_model" must be a string`)

	// List: newest first.
	list := e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)
	if len(list) != 3 {
		t.Fatalf("list %v", list)
	}
	first := list[0].(map[string]any)
	if first["id"] != "imp" || first["messages"] != 8.0 || first["agent"] != "off" {
		t.Errorf("list[0] %v", first)
	}

	// Delete.
	e.must(204, "DELETE", "/v1/sessions/imp", nil)
	wantError(t, e.do("GET", "/v1/sessions/imp", nil), 404, "not_found")
	wantError(t, e.do("DELETE", "/v1/sessions/imp", nil), 404, "not_found")
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 2 {
		t.Errorf("%d sessions after the delete", n)
	}
}

// TestUnknownFieldSuggests: an unknown body field names the field it
// probably meant and the fields the route takes; a message posted where a
// body of messages belongs says where it goes.
func TestUnknownFieldSuggests(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	for _, c := range []struct {
		path, body, message, fix string
	}{
		{"/v1/sessions", `{"id": "x", "agnet": "kimi"}`, `unknown field "agnet"; did you mean "agent"?`,
			"This route's body takes the fields id, agent, compaction_model and messages."},
		{"/v1/sessions/s/actions/compact_conversation", `{"instruction": "keep the API"}`, `did you mean "instructions"?`, "instructions"},
		{"/v1/sessions/s/continue", `{"text": "hi"}`, `unknown field "text"`, "This route's body takes the fields content and retry."},
		{"/v1/sessions/s/messages", `{"role": "user", "content": "hi"}`, `unknown field "role"`,
			`The body is not a message: put one under "message"`},
		{"/v1/sessions", `{"role": "user", "content": "hi"}`, `unknown field "role"`,
			`The body is not a message: put the messages in a list under "messages"`},
	} {
		m := wantError(t, e.do("POST", c.path, c.body), 400, "invalid_request", c.message)
		fixes, _ := json.Marshal(m["fixes"])
		if !strings.Contains(string(fixes), strings.ReplaceAll(c.fix, `"`, `\"`)) {
			t.Errorf("POST %s %s: fixes %s lack %q", c.path, c.body, fixes, c.fix)
		}
	}
	// No close field: no guess.
	m := wantError(t, e.do("POST", "/v1/sessions", `{"id": "x", "colour": "red"}`), 400, "invalid_request")
	if msg := m["message"].(string); strings.Contains(msg, "did you mean") {
		t.Errorf("a guess for colour: %s", msg)
	}
	if n := len(e.llm.Requests()); n != 0 {
		t.Errorf("%d LLM requests", n)
	}
}

// TestWrongMethodNamesTheMethods: a path the API has, asked with another
// method, is still 404 not_found, and its fix names the methods it
// answers; a path it does not have names none.
func TestWrongMethodNamesTheMethods(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	for _, c := range []struct{ method, path, fix string }{
		{"PUT", "/v1/sessions/s1", "This path answers GET and DELETE, not PUT."},
		{"DELETE", "/v1/agents", "This path answers GET, not DELETE."},
		{"PUT", "/v1/sessions/s1/messages", "This path answers GET and POST, not PUT."},
		{"PUT", "/v1/sessions", "This path answers GET and POST, not PUT."},
		{"GET", "/v1/nothing-here", ""},
	} {
		m := wantError(t, e.do(c.method, c.path, nil), 404, "not_found", "no route "+c.method+" "+c.path)
		fixes := m["fixes"].([]any)
		if c.fix == "" {
			if len(fixes) != 1 {
				t.Errorf("%s %s: fixes %v", c.method, c.path, fixes)
			}
			continue
		}
		if len(fixes) != 2 || fixes[0] != c.fix {
			t.Errorf("%s %s: fixes %v, want first %q", c.method, c.path, fixes, c.fix)
		}
	}
}

func TestMalformedBodies(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	for _, c := range []struct {
		method, path, body, want string
	}{
		{"POST", "/v1/sessions", `{"id": "x",`, "not valid JSON"},
		{"POST", "/v1/sessions", `{"id": "x"} {"id": "y"}`, "more data after"},
		{"POST", "/v1/sessions", `[1, 2]`, "must be a JSON object"},
		{"POST", "/v1/sessions", `{"id": "x", "colour": "red"}`, `unknown field "colour"`},
		{"POST", "/v1/sessions/import", `{"messages": [], "colour": 1}`, `unknown field "colour"`},
		{"POST", "/v1/sessions/import", `{"messages": `, "not valid JSON"},
		{"POST", "/v1/sessions/s/messages", ``, "empty"},
		{"POST", "/v1/sessions/s/actions/compact_conversation", `{"start": 5}`, `"start" must be a string`},
		{"POST", "/v1/sessions/s/actions/compact_conversation", `{"preview": true, "force": true}`, `unknown field "force"`},
		{"POST", "/v1/sessions/s/continue", `{"content": ""}`, `no "content"`},
		{"POST", "/v1/sessions/s/continue", `{"text": "hi"}`, `unknown field "text"`},
		{"POST", "/v1/sessions/s/previews/pv_x/apply", `{"summary": "  "}`, "empty"},
		{"GET", "/v1/sessions/s/revisions/abc", ``, "not a revision number"},
		{"POST", "/v1/sessions/s/revisions/0/restore", ``, "not a revision number"},
	} {
		r := e.do(c.method, c.path, c.body)
		wantError(t, r, 400, "invalid_request", c.want)
	}
	// Bad action parameters: the outcome, with the error's status.
	for _, c := range []struct {
		path, body, code string
		status           int
		want             string
	}{
		{"/v1/sessions/s/actions/compact_up_to_here", `{}`, "invalid_request", 400, "needs message_id"},
		{"/v1/sessions/s/actions/compact_up_to_here", `{"message_id": "u2", "start": "u1"}`, "invalid_request", 400, "message_id only"},
		{"/v1/sessions/s/actions/compact_everything", ``, "invalid_request", 400, `unknown action "compact_everything"`},
		{"/v1/sessions/s/actions/compact_conversation", `{"start": "zz"}`, "not_found", 404, `"zz"`},
		{"/v1/sessions/s/actions/compact_conversation", `{"start": "a2", "end": "u1"}`, "invalid_request", 400, ""},
	} {
		r := e.do("POST", c.path, c.body)
		m := wantError(t, r, c.status, c.code, c.want)
		if m["status"] != "error" {
			t.Errorf("%s %s: not an outcome: %s", c.path, c.body, r.body)
		}
	}
	if n := len(e.llm.Requests()); n != 0 {
		t.Errorf("%d LLM requests for invalid actions", n)
	}
	if v := e.must(200, "GET", "/v1/sessions/s", nil)["version"]; v != 1.0 {
		t.Errorf("version %v after failed actions", v)
	}
}

func TestAuthorization(t *testing.T) {
	e := newAPIEnv(t, apiOptions{token: "s3cret-token"})
	e.must(200, "GET", "/v1/sessions", nil)
	e.token = ""
	for _, h := range [][]string{
		nil,
		{"Authorization", "Bearer wrong"},
		{"Authorization", "Bearer s3cret-token-and-more"},
		{"Authorization", "Basic s3cret-token"},
		{"Authorization", "s3cret-token"},
	} {
		for _, path := range []string{"/v1/sessions", "/v1/health", "/v1/sessions/x/actions/compact_conversation"} {
			method := "GET"
			if strings.Contains(path, "actions") {
				method = "POST"
			}
			r := e.do(method, path, nil, h...)
			// A missing token is told apart from another one (issue 40 §3).
			want := "the bearer token sent is not this server's"
			if h == nil {
				want = "this server needs a bearer token"
			}
			wantError(t, r, 401, "unauthorized", want)
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("no WWW-Authenticate header")
			}
		}
	}
	e.must(200, "GET", "/v1/health", nil, "Authorization", "bearer s3cret-token")
	// The page is served without the token.
	if r := e.do("GET", "/", nil); r.status != 200 {
		t.Errorf("GET / without a token: %d", r.status)
	}
	if r := e.do("GET", "/?token=s3cret-token", nil); r.status != 200 {
		t.Errorf("GET /?token=: %d", r.status)
	}
	if logs := e.logs.String(); strings.Contains(logs, "s3cret") {
		t.Errorf("the token was logged:\n%s", logs)
	}
}

func TestTooLarge(t *testing.T) {
	e := newAPIEnv(t, apiOptions{maxBody: 4096, maxImport: 4096})
	big := apiSession("big", 1)
	big["messages"] = append(big["messages"].([]map[string]any), map[string]any{"role": "user", "content": strings.Repeat("x", 5000)})
	wantError(t, e.do("POST", "/v1/sessions/import", big), 413, "too_large", "4 KiB (--max-import-body)")
	wantError(t, e.do("POST", "/v1/sessions", big), 413, "too_large")
	e.must(201, "POST", "/v1/sessions/import", apiSession("small", 1))
	wantError(t, e.do("POST", "/v1/sessions/small/messages", map[string]any{"message": map[string]any{"role": "user", "content": strings.Repeat("é", 3000)}}), 413, "too_large")
	if n := len(e.must(200, "GET", "/v1/sessions", nil)["sessions"].([]any)); n != 1 {
		t.Errorf("%d sessions", n)
	}
}

// failingStore fails every call with an error that must not reach clients.
type failingStore struct{ kompact.Store }

var errDisk = fmt.Errorf("disk on fire at /var/secret/kompact.db")

func (failingStore) GetSession(context.Context, string) (*kompact.StoredSession, error) {
	return nil, errDisk
}

func (failingStore) ListSessions(context.Context, kompact.SessionFilter) ([]kompact.SessionInfo, error) {
	return nil, errDisk
}

func (failingStore) StreamSession(context.Context, string, func(*kompact.StoredSession) error, func([]byte) error) error {
	return errDisk
}

func (failingStore) CommitCompaction(context.Context, string, kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	return nil, nil, errDisk
}

func TestInternalErrorsStayInTheLog(t *testing.T) {
	e := newAPIEnv(t, apiOptions{store: func(s kompact.Store) kompact.Store { return failingStore{s} }})
	for _, path := range []string{"/v1/sessions", "/v1/sessions/x"} {
		r := e.do("GET", path, nil)
		m := wantError(t, r, 500, "internal")
		if m["message"] != "internal error" || len(m["fixes"].([]any)) != 0 || bytes.Contains(r.body, []byte("fire")) {
			t.Errorf("%s: the client saw %s", path, r.body)
		}
	}
	if logs := e.logs.String(); !strings.Contains(logs, "disk on fire at /var/secret/kompact.db") || !strings.Contains(logs, "level=ERROR") {
		t.Errorf("the error was not logged:\n%s", logs)
	}
}

// commitFailingStore fails only the commit.
type commitFailingStore struct{ kompact.Store }

func (commitFailingStore) CommitCompaction(context.Context, string, kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	return nil, nil, errDisk
}

func TestInternalCommitErrorIsAnOutcome(t *testing.T) {
	e := newAPIEnv(t, apiOptions{store: func(s kompact.Store) kompact.Store { return commitFailingStore{s} }})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 3))
	r := e.do("POST", "/v1/sessions/s/actions/compact_conversation", acceptWarnings)
	m := wantError(t, r, 500, "internal")
	if m["status"] != "error" || m["error"].(map[string]any)["message"] != "internal error" || bytes.Contains(r.body, []byte("fire")) {
		t.Errorf("outcome %s", r.body)
	}
	if !strings.Contains(e.logs.String(), "disk on fire") {
		t.Error("the commit error was not logged")
	}
}

// TestStoredSessionJSON pins the JSON form of a stored session (GET
// /v1/sessions/{id}) byte for byte, times normalised.
func TestStoredSessionJSON(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	doc := apiSession("imp", 2)
	doc["agent"] = "off"
	doc["compaction_model"] = "m2"
	e.must(201, "POST", "/v1/sessions/import", doc)
	e.must(201, "POST", "/v1/sessions/imp/messages", map[string]any{"message": map[string]any{"id": "u3", "role": "user", "content": []any{
		map[string]any{"type": "text", "text": "look"}, map[string]any{"type": "image_url", "image_url": map[string]any{"url": "https://example.com/a.png"}}}}})
	r := e.do("GET", "/v1/sessions/imp", nil)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, %s", r.status, r.header.Get("Content-Type"))
	}
	golden.Check(t, "stored_session", normalise(r.body))
}

// TestErrorBodies pins the error body of each kind of failure byte for
// byte: its status, code, message and fixes.
func TestErrorBodies(t *testing.T) {
	e := newAPIEnv(t, apiOptions{token: "tok", maxBody: 256, maxImport: 256})
	e.must(201, "POST", "/v1/sessions/import", apiSession("s", 1))
	failing := newAPIEnv(t, apiOptions{store: func(s kompact.Store) kompact.Store { return failingStore{s} }})
	var out bytes.Buffer
	for _, c := range []struct {
		env          *apiEnv
		method, path string
		body         any
		header       []string
	}{
		{e, "POST", "/v1/sessions", `{"id": "x", "colour": "red"}`, nil},
		{e, "POST", "/v1/sessions", `{"messages":[{"id":"d","role":"user"},{"id":"d","role":"user"}]}`, nil},
		{e, "POST", "/v1/sessions", `{"agent": "nobody"}`, nil},
		{e, "GET", "/v1/sessions", nil, []string{"Authorization", "Bearer wrong"}},
		{e, "GET", "/v1/sessions/nope", nil, nil},
		{e, "GET", "/v1/nothing-here", nil, nil},
		{e, "POST", "/v1/sessions/import", `{"id": "s", "messages": []}`, nil},
		{e, "POST", "/v1/sessions/import", map[string]any{"messages": []any{map[string]any{"role": "user", "content": strings.Repeat("x", 300)}}}, nil},
		{failing, "GET", "/v1/sessions/x", nil, nil},
	} {
		r := c.env.do(c.method, c.path, c.body, c.header...)
		fmt.Fprintf(&out, "%s %s -> %d\n%s\n", c.method, c.path, r.status, r.body)
	}
	golden.Check(t, "error_bodies", out.Bytes())
}

// TestSessionTitlesAndSearch: a session is listed with its title (the first
// user message by default), can be renamed with PATCH settings, and the list
// can be searched by title and id.
func TestSessionTitlesAndSearch(t *testing.T) {
	e := newAPIEnv(t, apiOptions{})
	e.must(201, "POST", "/v1/sessions/import", apiSession("alpha", 2))
	e.must(201, "POST", "/v1/sessions/import", apiSession("beta", 1))
	titles := func(q string) string {
		list := e.must(200, "GET", "/v1/sessions?q="+url.QueryEscape(q), nil)["sessions"].([]any)
		var out []string
		for _, s := range list {
			m := s.(map[string]any)
			out = append(out, m["id"].(string)+"="+m["title"].(string))
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	if got := titles(""); got != "alpha=question 1,beta=question 1" {
		t.Fatalf("titles %q", got)
	}
	before := e.must(200, "GET", "/v1/sessions/alpha", nil)
	after := e.must(200, "PATCH", "/v1/sessions/alpha/settings", map[string]any{"title": " Flaky  test\nhunt "})
	if after["version"] != before["version"] {
		t.Errorf("a rename changed the version: %v -> %v", before["version"], after["version"])
	}
	if got := titles(""); got != "alpha=Flaky test hunt,beta=question 1" {
		t.Fatalf("titles after the rename %q", got)
	}
	for q, want := range map[string]string{"FLAKY": "alpha=Flaky test hunt", "bet": "beta=question 1", "hunt alp": "alpha=Flaky test hunt", "question": "beta=question 1", "zzz": ""} {
		if got := titles(q); got != want {
			t.Errorf("q=%q: %q, want %q", q, got, want)
		}
	}
	wantError(t, e.do("PATCH", "/v1/sessions/alpha/settings", map[string]any{"title": strings.Repeat("x", 201)}), 400, "invalid_request", "at most 200")
	wantError(t, e.do("PATCH", "/v1/sessions/alpha/settings", map[string]any{}), 400, "invalid_request", `"title"`)
	wantError(t, e.do("PATCH", "/v1/sessions/nope/settings", map[string]any{"title": "x"}), 404, "not_found")
	e.must(200, "PATCH", "/v1/sessions/alpha/settings", map[string]any{"title": ""})
	if got := titles("alpha"); got != "alpha=question 1" {
		t.Errorf("default title back: %q", got)
	}
}
