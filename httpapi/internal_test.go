package httpapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/sqlite"
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

func TestHeartbeatComments(t *testing.T) {
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	llm := gatedLLM{gate: make(chan struct{})}
	s := New(Config{Store: store, LLM: llm})
	s.heartbeat = 5 * time.Millisecond
	sess, err := kompact.DecodeSession([]byte(`{"id":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},{"role":"assistant","content":"d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL+"/v1/sessions/s/actions/compact_conversation", strings.NewReader(`{"accept_warnings":true}`))
	req.Header.Set("Accept", "application/json, text/event-stream;q=0.9")
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 4096)
	var got strings.Builder
	// Read until two heartbeats arrived, then let the LLM answer.
	for strings.Count(got.String(), ": heartbeat\n\n") < 2 {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("%v after %q", err, got.String())
		}
	}
	close(llm.gate)
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got.Write(rest)
	out := got.String()
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
