package httpapi_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/cputime"
	"kompact/internal/vectors"
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
