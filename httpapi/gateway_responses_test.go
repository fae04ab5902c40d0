package httpapi_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/fakeresponses"
	"kompact/internal/testing/testserver"
	"kompact/openai"
)

// responsesServer is a gateway with one agent, "cx", whose upstream is
// fake (its key from KOMPACT_TEST_CX_KEY, "sk-agent").
func responsesServer(t *testing.T, fake *fakeresponses.Server, gateway string) *httptest.Server {
	t.Helper()
	yaml := fmt.Sprintf(`default_agent: cx
agents:
  cx:
    llm: {base_url: %s/v1, model: fake-model, max_context_size: 20000, api_key_env: KOMPACT_TEST_CX_KEY}
    gateway: {enabled: true%s}
`, fake.URL, gateway)
	cfg, err := config.Parse([]byte(yaml), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "KOMPACT_TEST_CX_KEY" {
			return "sk-agent"
		}
		return ""
	}
	s := httpapi.New(httpapi.Config{Store: testserver.SQLite(t), Agents: cfg,
		LLM: &openai.Client{Getenv: getenv, MaxRetries: -1}, Upstream: &openai.Upstream{Getenv: getenv},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv := httptest.NewServer(httpapi.CheckedHandler(t, s.Handler()))
	t.Cleanup(srv.Close)
	return srv
}

// codexTurnBody is a Codex-shaped turn (synthetic texts), ending with a
// compaction item kompact answered (its handle carrying the summary)
// when withHandle.
func codexTurnBody(withHandle bool) string {
	items := []string{
		`{"type":"message","id":"msg_1","role":"developer","content":[{"type":"input_text","text":"You are a test agent."}]}`,
		`{"type":"message","id":"msg_2","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}`,
		`{"type":"message","id":"msg_3","role":"user","content":[{"type":"input_text","text":"Hello there."}]}`,
	}
	if withHandle {
		h := openai.CompactionHandle{Session: "th-1", Revision: 1, Summary: "KOMPACT SUMMARY TEXT"}
		items = append(items, string(openai.CompactionItem("cmp_kompact_1", h)), `{"type":"message","role":"user","content":[{"type":"input_text","text":"Next."}]}`)
	}
	return `{"model":"fake-model",  "stream":true,"input":[` + strings.Join(items, ", ") + `],"tools":[{"type":"function","name":"exec_command"}],"store":false,"prompt_cache_key":"th-1"}`
}

func postResponses(t *testing.T, base, query, body string, h http.Header) (*http.Response, string, error) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/gateway/cx/v1/responses"+query, strings.NewReader(body))
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

func codexHeaders() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("Authorization", "Bearer sk-client")
	h.Set("Originator", "codex_exec")
	h.Set("Thread-Id", "th-1")
	h.Set("Session-Id", "th-1")
	h.Set("X-Codex-Turn-Metadata", `{"thread_id":"th-1","request_kind":"turn"}`)
	h.Set("X-Codex-Beta-Features", "remote_compaction_v2")
	h.Set("OpenAI-Beta", "responses=v1")
	return h
}

// TestResponsesFacePassesThrough (issue 42 §1): the body, the query and
// Codex's headers reach the upstream as sent (the agent's key in place of
// the client's, as on the chat face); the stream comes back byte for
// byte; the session is named by the thread id.
func TestResponsesFacePassesThrough(t *testing.T) {
	c := &fakeresponses.Codex{Text: "hi", Full: true}
	fake := fakeresponses.New(t, c.Answer)
	srv := responsesServer(t, fake, "")
	body := codexTurnBody(false)
	resp, got, err := postResponses(t, srv.URL, "?x=1", body, codexHeaders())
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v %s", err, resp, got)
	}
	want := strings.Join(fakeresponses.TextStream("msg_fake_0", "hi", fakeresponses.Usage{Input: 100, Output: 5}), "")
	if got != want {
		t.Errorf("the stream:\n%q\nwant\n%q", got, want)
	}
	if resp.Header.Get("X-Kompact-Session") != "th-1" || resp.Header.Get("X-Kompact-Forwarded") != "as-sent" {
		t.Errorf("the gateway's headers: %v", resp.Header)
	}
	q := fake.Requests()[0]
	if string(q.Body) != body || q.Path != "/v1/responses" || q.RawQuery != "x=1" {
		t.Errorf("upstream got %s ?%s %s", q.Path, q.RawQuery, q.Body)
	}
	for _, k := range []string{"Originator", "Thread-Id", "Session-Id", "X-Codex-Turn-Metadata", "X-Codex-Beta-Features", "OpenAI-Beta", "Accept"} {
		if q.Header.Get(k) != codexHeaders().Get(k) {
			t.Errorf("header %s: %q, want %q", k, q.Header.Get(k), codexHeaders().Get(k))
		}
	}
	if q.Header.Get("Authorization") != "Bearer sk-agent" {
		t.Errorf("Authorization upstream: %q, want the agent's key", q.Header.Get("Authorization"))
	}
}

// TestResponsesFaceExpandsKompactItem (issue 42 §3): a compaction item
// holding kompact's handle goes upstream as the summary it carries, as a
// user message; every other byte as sent.
func TestResponsesFaceExpandsKompactItem(t *testing.T) {
	c := &fakeresponses.Codex{Text: "hi"}
	fake := fakeresponses.New(t, c.Answer)
	srv := responsesServer(t, fake, "")
	body := codexTurnBody(true)
	if resp, got, err := postResponses(t, srv.URL, "", body, codexHeaders()); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %s", err, got)
	}
	h := openai.CompactionHandle{Session: "th-1", Revision: 1, Summary: "KOMPACT SUMMARY TEXT"}
	want := strings.Replace(body, string(openai.CompactionItem("cmp_kompact_1", h)), `{"type":"message","role":"user","content":[{"type":"input_text","text":"KOMPACT SUMMARY TEXT"}]}`, 1)
	if got := string(fake.Requests()[0].Body); got != want {
		t.Errorf("forwarded:\n%s\nwant\n%s", got, want)
	}
}

// TestResponsesFaceFailures (issue 42 §1): an upstream error reaches the
// client verbatim; a stream that ends without response.completed, or
// breaks off, reaches it as a failure (the connection cut), never as a
// clean answer.
func TestResponsesFaceFailures(t *testing.T) {
	answers := []fakeresponses.Answer{
		fakeresponses.Error(429, "rate_limit_error", "slow down"),
		{Events: fakeresponses.Cut(fakeresponses.TextStream("m", "partial", fakeresponses.Usage{Input: 1}))},
		{Events: fakeresponses.TextStream("m", "partial", fakeresponses.Usage{Input: 1})[:3], Abort: true},
	}
	n := 0
	fake := fakeresponses.New(t, func(fakeresponses.Request) fakeresponses.Answer { n++; return answers[n-1] })
	srv := responsesServer(t, fake, "")
	resp, got, err := postResponses(t, srv.URL, "", codexTurnBody(false), codexHeaders())
	if err != nil || resp.StatusCode != 429 || got != answers[0].Body {
		t.Errorf("the error: %v %d %q", err, resp.StatusCode, got)
	}
	for _, what := range []string{"a stream without response.completed", "a stream that breaks off"} {
		_, got, err := postResponses(t, srv.URL, "", codexTurnBody(false), codexHeaders())
		if err == nil || strings.Contains(got, "response.completed") {
			t.Errorf("%s read to a clean end: %q", what, got)
		}
	}
}
