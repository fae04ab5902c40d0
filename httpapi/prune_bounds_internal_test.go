package httpapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/testserver"
)

// prune_tool_results is bounded (issue 38): it checks its settings on the
// session's head before it reads the messages, and takes an action slot
// (429 busy past --max-actions) before it reads them. Before, it read the
// whole session first and took no slot: 8 at once on a 100k-message
// session peaked at 3.05 GB, 8 with keep_recent -1 at 1.77 GB. Measured
// here by the bytes the server allocates (the server runs in this
// process): refused prunes must allocate a small part of one session's
// bytes, where each read the session whole before.

// pruneServer is a server with limits over a fresh store holding session
// "big" (bigServer), with an LLM that never answers.
func pruneServer(t *testing.T, limits Limits, exchanges int) (*Server, string, int) {
	t.Helper()
	return bigServer(t, Config{Agents: config.Default(), LLM: gatedLLM{gate: make(chan struct{})}, Limits: limits}, exchanges)
}

// bigServer is a server of cfg over a fresh store holding session "big":
// exchanges tool calls whose results are 2,000 characters each. It
// returns the server, its URL and the size of the session's JSON.
func bigServer(t testing.TB, cfg Config, exchanges int) (*Server, string, int) {
	t.Helper()
	store := testserver.SQLite(t)
	cfg.Store = store
	s := New(cfg)
	var b strings.Builder
	b.WriteString(`{"id":"big","messages":[{"role":"user","content":"run the tests"}`)
	for i := range exchanges {
		fmt.Fprintf(&b, `,{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"c%d","function":{"name":"bash","arguments":"{}"}}]}`, i)
		fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"c%d","content":"%s"}`, i, strings.Repeat("x", 2000))
	}
	b.WriteString(`]}`)
	sess, err := kompact.DecodeSession([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts.URL, b.Len()
}

// prunes posts body to big's prune_tool_results n times at once
// (postAtOnce).
func prunes(t *testing.T, base, body string, n int) (map[int]int, string, uint64) {
	t.Helper()
	return postAtOnce(t, base+"/v1/sessions/big/actions/prune_tool_results", body, n)
}

// postAtOnce posts body to url n times at once and returns the statuses,
// the last answer (with its Retry-After) and the bytes the process
// allocated meanwhile.
func postAtOnce(t *testing.T, url, body string, n int) (map[int]int, string, uint64) {
	t.Helper()
	var mu sync.Mutex
	statuses, last := map[int]int{}, ""
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			r, err := http.Post(url, "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			got, _ := io.ReadAll(r.Body)
			r.Body.Close()
			mu.Lock()
			statuses[r.StatusCode]++
			last = string(got) + " Retry-After: " + r.Header.Get("Retry-After")
			mu.Unlock()
		})
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	return statuses, last, after.TotalAlloc - before.TotalAlloc
}

// TestPruneChecksBeforeReading: 8 prunes at once with keep_recent -1 are
// 400 and read no message: together they allocate less than a quarter of
// the session's bytes (each read it whole before, and decoded it: 8 times
// its size at least). A quarter, not a tenth: under the race detector the
// 8 HTTP round trips alone allocated 710 kB, a ninth of the 6.5 MB session
// (the full CI run at 9b330d7).
func TestPruneChecksBeforeReading(t *testing.T) {
	_, base, size := pruneServer(t, Limits{MaxActions: 8}, 3000)
	statuses, last, alloc := prunes(t, base, `{"keep_recent":-1}`, 8)
	if statuses[400] != 8 || !strings.Contains(last, "keep_recent") {
		t.Fatalf("8 prunes with keep_recent -1: %v, %s", statuses, last)
	}
	if alloc > uint64(size)/4 {
		t.Errorf("8 refused prunes allocated %d bytes for a session of %d: they read it", alloc, size)
	}
}

// TestPruneTakesASlot: with every action slot taken, 8 prunes at once are
// 429 busy with Retry-After and read no message (a quarter of the
// session's bytes at most, as TestPruneChecksBeforeReading); once a slot is free, a
// prune runs.
func TestPruneTakesASlot(t *testing.T) {
	s, base, size := pruneServer(t, Limits{MaxActions: 2}, 3000)
	var releases []func()
	for range 2 {
		release, ok := s.guard.actions.TryTake()
		if !ok {
			t.Fatal("no free slot")
		}
		releases = append(releases, release)
	}
	statuses, last, alloc := prunes(t, base, `{"keep_recent":1,"min_chars":100}`, 8)
	if statuses[429] != 8 || !strings.Contains(last, `"code":"busy"`) || !strings.Contains(last, "Retry-After: 5") || !strings.Contains(last, "--max-actions") {
		t.Fatalf("8 prunes with no slot free: %v, %s", statuses, last)
	}
	if alloc > uint64(size)/4 {
		t.Errorf("8 busy prunes allocated %d bytes for a session of %d: they read it", alloc, size)
	}
	releases[0]()
	if statuses, last, _ := prunes(t, base, `{"keep_recent":1,"min_chars":100}`, 1); statuses[200] != 1 || !strings.Contains(last, `"status":"pruned"`) {
		t.Fatalf("a prune with a slot free: %v, %s", statuses, last)
	}
	releases[1]()
}
