package httpapi_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/cputime"
	"kompact/internal/testing/testserver"
	"kompact/internal/testing/vectors"
)

// BenchmarkServiceCompaction10k runs one compaction of a 10k-message
// session through the HTTP handler: load, prepare, the (instant) LLM,
// apply (with the fidelity report), commit with its revision, and the JSON
// answer. cpu-ns/op is the process's CPU time over the timed part (the
// session's re-creation between runs is left out), the figure to compare
// on a shared machine.
func BenchmarkServiceCompaction10k(b *testing.B) {
	msgs, size := benchMessages(10_000)
	benchServiceCompaction(b, msgs, size)
}

// BenchmarkServiceCompactionGen10k is BenchmarkServiceCompaction10k on the
// generated session of docs/benchmarks.md (../shared/tools/gen-session):
// 10k messages with tool calls, tool results and reasoning.
func BenchmarkServiceCompactionGen10k(b *testing.B) {
	benchServiceCompactionFile(b, vectors.GenSession(b, 10_000))
}

// BenchmarkServiceCompactionFile is BenchmarkServiceCompaction10k on the
// session file KOMPACT_BENCH_SESSION names, when it is set (for example
// the root's benchmark session written out, docs/fidelity.md, "Cost").
func BenchmarkServiceCompactionFile(b *testing.B) {
	path := os.Getenv("KOMPACT_BENCH_SESSION")
	if path == "" {
		b.Skip("KOMPACT_BENCH_SESSION is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	benchServiceCompactionFile(b, data)
}

// benchServiceCompactionFile decodes a session document and measures its
// compaction.
func benchServiceCompactionFile(b *testing.B, doc []byte) {
	s, err := kompact.DecodeSession(doc)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for i := range s.Messages {
		size += int64(s.Messages[i].TextLen())
	}
	benchServiceCompaction(b, s.Messages, size)
}

// benchServiceCompaction measures compact_conversation on a session of
// msgs, created anew before each run.
func benchServiceCompaction(b *testing.B, msgs []kompact.Message, size int64) {
	ctx := context.Background()
	store := benchStore(b)
	h := httpapi.New(httpapi.Config{Store: store, Agents: config.Default(), LLM: instantLLM{}, Logger: slog.New(slog.DiscardHandler)}).Handler()
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	var cpu int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		_ = store.DeleteSession(ctx, "bench")
		if _, err := store.CreateSession(ctx, &kompact.Session{ID: "bench", Agent: "kimi", Messages: msgs}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := cputime.Process()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/sessions/bench/actions/compact_conversation", nil))
		cpu += cputime.Process() - start
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %.300s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// TestCompactionAllocatesUnderTwiceTheText: one compaction through the
// handler allocates less than twice the text of the range it replaces
// (issue 21 §1: a compaction's memory under 2× the range's text). Nearly
// everything it allocates stays live until it ends (the stored bodies are
// the messages' memory), so this bounds its peak heap too. Before the
// stores handed their bodies over (DecodeOwnedMessage), it allocated about
// 2.9× the text: every body was copied by the driver and again by the
// decoder.
func TestCompactionAllocatesUnderTwiceTheText(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3,000-message session (6 MB of text); run without -short")
	}
	ctx := t.Context()
	store := testserver.SQLite(t)
	msgs, _ := benchMessages(3000)
	if _, err := store.CreateSession(ctx, &kompact.Session{ID: "mem", Agent: "kimi", Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	var rangeText int64 // kimi-cli keeps the last two messages (user and assistant)
	for i := range msgs[:len(msgs)-2] {
		rangeText += int64(msgs[i].TextLen())
	}
	h := httpapi.New(httpapi.Config{Store: store, Agents: config.Default(), LLM: instantLLM{}, Logger: slog.New(slog.DiscardHandler)}).Handler()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/sessions/mem/actions/compact_conversation", nil))
	runtime.ReadMemStats(&after)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"compacted"`) {
		t.Fatalf("status %d: %.300s", rec.Code, rec.Body)
	}
	got := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("the compaction allocated %d bytes for %d bytes of text in its range (%.2f×)", got, rangeText, float64(got)/float64(rangeText))
	if got >= 2*rangeText {
		t.Errorf("the compaction allocated %d bytes, %.2f× the %d bytes of text in its range; want under 2×", got, float64(got)/float64(rangeText), rangeText)
	}
}
