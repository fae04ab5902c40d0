package httpapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/openapicheck"
	"kompact/internal/testing/testserver"
)

// gatedLLM answers with a fixed summary once gate is closed.
type gatedLLM struct{ gate chan struct{} }

func (l gatedLLM) Complete(ctx context.Context, _ kompact.RequestConfig, _ []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	select {
	case <-l.gate:
	case <-ctx.Done():
		return kompact.Answer{}, kompact.Errorf(kompact.ELLM, "cancelled: %w", ctx.Err())
	}
	progress(kompact.Progress{Chars: 7})
	return kompact.Answer{Parts: []kompact.Part{kompact.TextPart("summary")}}, nil
}

// newGatedServer is a server on a fresh store holding session "s", with
// an LLM that answers once its gate closes.
func newGatedServer(t *testing.T, limits Limits) (*Server, *httptest.Server, gatedLLM) {
	t.Helper()
	llm := gatedLLM{gate: make(chan struct{})}
	s, ts, _ := newServerOnS(t, llm, limits)
	return s, ts, llm
}

// newServerOnS is a server with llm and limits on a fresh store holding
// session "s" of 4 messages; its test client's answers are held to the
// OpenAPI document (openapicheck.Server).
func newServerOnS(t *testing.T, llm kompact.LLM, limits Limits) (*Server, *httptest.Server, kompact.Store) {
	t.Helper()
	store := testserver.SQLite(t)
	s := New(Config{Store: store, Agents: config.Default(), LLM: llm, Limits: limits})
	sess, err := kompact.DecodeSession([]byte(`{"id":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},{"role":"assistant","content":"d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	openapicheck.Server(t, ts)
	return s, ts, store
}

// compactStream posts compact_conversation on session "s" with accept as
// its Accept header and body, when not empty, as its JSON body.
func compactStream(t *testing.T, ts *httptest.Server, accept, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+"/v1/sessions/s/actions/compact_conversation", strings.NewReader(body))
	req.Header.Set("Accept", accept)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readThenRelease reads body until enough says so, then closes the LLM's
// gate and returns all that body held.
func readThenRelease(t *testing.T, body io.Reader, llm gatedLLM, enough func(got string) bool) string {
	t.Helper()
	buf := make([]byte, 4096)
	var got strings.Builder
	for !enough(got.String()) {
		n, err := body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("stream ended: %v after %q", err, got.String())
		}
	}
	close(llm.gate)
	rest, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	got.Write(rest)
	return got.String()
}

func TestHeartbeatComments(t *testing.T) {
	s, ts, llm := newGatedServer(t, Limits{})
	s.heartbeat = 5 * time.Millisecond
	resp := compactStream(t, ts, "application/json, text/event-stream;q=0.9", `{"accept_warnings":true}`)
	// Read until two heartbeats arrived, then let the LLM answer.
	out := readThenRelease(t, resp.Body, llm, func(got string) bool { return strings.Count(got, ": heartbeat\n\n") >= 2 })
	if !strings.Contains(out, "event: progress\ndata: {\"request\":1,\"attempt\":1,\"chars\":0,\"dropped\":0}\n\n") {
		t.Errorf("no first progress event:\n%s", out)
	}
	if !strings.Contains(out, "event: progress\ndata: {\"request\":1,\"attempt\":1,\"chars\":7,\"dropped\":0}\n\n") {
		t.Errorf("no progress with 7 chars:\n%s", out)
	}
	if !strings.HasSuffix(out, "\n\n") || !strings.Contains(out, "event: outcome\ndata: {\"status\":\"compacted\"") {
		t.Errorf("no outcome event at the end:\n%s", out)
	}
}

func TestStatusTable(t *testing.T) {
	for code, want := range map[kompact.ErrorCode]int{
		kompact.EInvalid: 400, EUnauthorized: 401, kompact.EDisabled: 403, kompact.ENotFound: 404,
		kompact.EConflict: 409, ETooLarge: 413, kompact.ELLM: 502, kompact.EEmptyResponse: 502,
		kompact.EInternal: 500, kompact.EUnavailable: 503, "something_new": 500,
	} {
		if got := StatusOf(code); got != want {
			t.Errorf("%s: %d, want %d", code, got, want)
		}
	}
}
