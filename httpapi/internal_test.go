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
	"kompact/internal/testserver"
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
	store := testserver.SQLite(t)
	llm := gatedLLM{gate: make(chan struct{})}
	s := New(Config{Store: store, LLM: llm, Limits: limits})
	sess, err := kompact.DecodeSession([]byte(`{"id":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},{"role":"assistant","content":"d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts, llm
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

func TestPreviewStoreExpiresAndBounds(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ps := newPreviewStore()
	ps.now = func() time.Time { return now }
	ps.max = 3
	a := ps.put(&preview{sessionID: "s"})
	if !strings.HasPrefix(a, "pv_") || len(a) != 3+32 {
		t.Errorf("id %q", a)
	}
	now = now.Add(29 * time.Minute)
	b := ps.put(&preview{sessionID: "s"})
	if ps.take("other", b) != nil {
		t.Error("a preview was taken for another session")
	}
	now = now.Add(2 * time.Minute) // a is 31 minutes old
	if ps.take("s", a) != nil {
		t.Error("an expired preview was taken")
	}
	p := ps.take("s", b)
	if p == nil || ps.take("s", b) != nil {
		t.Fatal("a preview is not taken exactly once")
	}
	ps.putBack(p)
	if ps.take("s", b) == nil {
		t.Error("a preview put back is gone")
	}
	// Full: the oldest goes first.
	ids := []string{ps.put(&preview{sessionID: "s"})}
	for range 3 {
		now = now.Add(time.Minute)
		ids = append(ids, ps.put(&preview{sessionID: "s"}))
	}
	if ps.len() != 3 || ps.take("s", ids[0]) != nil || ps.take("s", ids[3]) == nil {
		t.Errorf("bounded store: %d kept", ps.len())
	}
	// Expired ones are dropped when another comes in.
	now = now.Add(time.Hour)
	e := ps.put(&preview{sessionID: "s"})
	if ps.len() != 1 {
		t.Errorf("%d previews kept after they expired", ps.len())
	}
	ps.take("s", e) // start the budget check empty
	now = now.Add(time.Minute)
	// The byte budget: a big preview pushes out older ones, and a taken
	// one frees its share.
	ps.bytes = 100
	c := ps.put(&preview{sessionID: "s", size: 60})
	now = now.Add(time.Minute)
	d := ps.put(&preview{sessionID: "s", size: 60})
	if ps.len() != 1 || ps.take("s", c) != nil || ps.take("s", d) == nil || ps.total != 0 {
		t.Errorf("byte budget: %d kept, %d bytes", ps.len(), ps.total)
	}
}

func TestStatusTable(t *testing.T) {
	for code, want := range map[kompact.ErrorCode]int{
		kompact.EInvalid: 400, EUnauthorized: 401, kompact.EDisabled: 403, kompact.ENotFound: 404,
		kompact.EConflict: 409, ETooLarge: 413, kompact.ELLM: 502, kompact.EEmptyResponse: 502,
		kompact.EInternal: 500, "something_new": 500,
	} {
		if got := StatusOf(code); got != want {
			t.Errorf("%s: %d, want %d", code, got, want)
		}
	}
}
