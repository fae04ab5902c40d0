package httpapi

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"kompact/config"
)

// A compaction action takes its action slot before it reads the session's
// messages: a refusal as busy (429) reads only the session's head. Before,
// runAction read the whole session and planned the job first, so that
// clients retrying on 429 each read it whole exactly when the server was
// busy. Measured as TestPruneTakesASlot does, by the bytes the server
// (in this process) allocates.

// actionServer is a server over session "big" (bigServer) with limits, an
// LLM that answers at once, and besides the default agents "off", whose
// compaction is disabled.
func actionServer(t testing.TB, limits Limits, exchanges int) (*Server, string, int) {
	t.Helper()
	agents := config.Default()
	off := *agents.Agents[agents.DefaultAgent]
	off.Name, off.Compaction.Enabled = "off", false
	agents.Agents["off"] = &off
	llm := gatedLLM{gate: make(chan struct{})}
	close(llm.gate)
	return bigServer(t, Config{Agents: agents, LLM: llm, Limits: limits}, exchanges)
}

// takeSlots takes n action slots of s and returns their releases; those
// not called by the end of the test are called then.
func takeSlots(t testing.TB, s *Server, n int) []func() {
	t.Helper()
	var releases []func()
	for range n {
		release, ok := s.guard.actions.TryTake()
		if !ok {
			t.Fatal("no free slot")
		}
		releases = append(releases, sync.OnceFunc(release))
	}
	t.Cleanup(func() {
		for _, release := range releases {
			release()
		}
	})
	return releases
}

// TestActionTakesASlotBeforeReading: with every action slot taken, 8
// compaction actions at once on a large session are 429 busy with
// Retry-After and read no message: together they allocate less than a
// quarter of the session's bytes (each read and planned it whole before,
// 8 times its size at least; a quarter as in TestPruneChecksBeforeReading,
// for the race detector). A preview and a range from an unknown message are
// refused as busy too, since both need the messages. Once a slot is free, the action runs.
func TestActionTakesASlotBeforeReading(t *testing.T) {
	s, base, size := actionServer(t, Limits{MaxActions: 2}, 3000)
	releases := takeSlots(t, s, 2)
	url := base + "/v1/sessions/big/actions/compact_conversation"
	for _, body := range []string{`{}`, `{"preview":true}`, `{"start":"nope"}`} {
		statuses, last, alloc := postAtOnce(t, url, body, 8)
		if statuses[429] != 8 || !strings.Contains(last, `"code":"busy"`) || !strings.Contains(last, "Retry-After: 5") || !strings.Contains(last, "--max-actions") {
			t.Fatalf("8 actions %s with no slot free: %v, %s", body, statuses, last)
		}
		t.Logf("8 busy actions %s allocated %d bytes for a session of %d", body, alloc, size)
		if alloc > uint64(size)/4 {
			t.Errorf("8 busy actions %s allocated %d bytes for a session of %d: they read it", body, alloc, size)
		}
	}
	releases[0]()
	if statuses, last, _ := postAtOnce(t, url, `{}`, 1); statuses[200] != 1 || !strings.Contains(last, `"status":"compacted"`) {
		t.Fatalf("an action with a slot free: %v, %.300s", statuses, last)
	}
	if statuses, last, _ := postAtOnce(t, url, `{"start":"nope"}`, 1); statuses[404] != 1 || !strings.Contains(last, `"status":"error"`) || !strings.Contains(last, "no message has the id") {
		t.Fatalf("a range from an unknown message with a slot free: %v, %s", statuses, last)
	}
}

// TestActionChecksHeadBeforeSlot: with every action slot taken, what the
// session's head decides still answers as on an idle server: an unknown
// session is 404 not_found (the error body), a session whose agent does
// not compact 403 disabled (the error outcome); a bad body is 400.
func TestActionChecksHeadBeforeSlot(t *testing.T) {
	s, base, _ := actionServer(t, Limits{MaxActions: 1}, 1)
	r, err := http.Post(base+"/v1/sessions/import", "application/json",
		strings.NewReader(`{"id":"off","agent":"off","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},{"role":"assistant","content":"d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 201 {
		t.Fatalf("import: %d", r.StatusCode)
	}
	takeSlots(t, s, 1)
	for _, c := range []struct {
		path, body string
		status     int
		prefix     string
	}{
		{"/v1/sessions/nope/actions/compact_conversation", `{}`, 404, `{"code":"not_found","message":"no session`},
		{"/v1/sessions/off/actions/compact_conversation", `{}`, 403, `{"status":"error","error":{"code":"disabled"`},
		{"/v1/sessions/big/actions/compact_conversation", `{"start":`, 400, `{"code":"invalid_request"`},
	} {
		statuses, last, _ := postAtOnce(t, base+c.path, c.body, 1)
		if statuses[c.status] != 1 || !strings.HasPrefix(last, c.prefix) {
			t.Errorf("%s %s with no slot free: %v, %s; want %d %s", c.path, c.body, statuses, last, c.status, c.prefix)
		}
	}
}

// BenchmarkBusyAction is one compact_conversation refused as busy on a
// session of 20,001 messages (10,000 tool exchanges, 21.8 MB of JSON): the
// whole request, from the client's post to its 429. Its time and bytes
// follow the session's head, not its messages.
func BenchmarkBusyAction(b *testing.B) {
	s, base, _ := actionServer(b, Limits{MaxActions: 1}, 10000)
	takeSlots(b, s, 1)
	url := base + "/v1/sessions/big/actions/compact_conversation"
	b.ReportAllocs()
	for b.Loop() {
		r, err := http.Post(url, "application/json", strings.NewReader(`{}`))
		if err != nil {
			b.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusTooManyRequests {
			b.Fatalf("status %d, want 429", r.StatusCode)
		}
	}
}
