package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testserver"
	"kompact/internal/vectors"
	"kompact/sqlite"
)

// instantLLM answers every request at once with a fixed summary.
type instantLLM struct{}

func (instantLLM) Complete(context.Context, kompact.RequestConfig, []kompact.Message, func(kompact.Progress)) (kompact.Answer, error) {
	return kompact.Answer{Parts: []kompact.Part{kompact.TextPart(summaryText)}, Usage: &kompact.Usage{InputOther: 1000, Output: 20}}, nil
}

// benchMessages returns n user/assistant messages of about 2 KB of text
// each, with characters that need escaping and some that are not ASCII.
func benchMessages(n int) ([]kompact.Message, int64) {
	line := "Line with \"quotes\", a tab\there, é, 数据 and → arrows; "
	body := strings.Repeat(line, 2048/len(line)+1)[:2000]
	msgs := make([]kompact.Message, n)
	var size int64
	for i := range msgs {
		role := kompact.RoleUser
		if i%2 == 1 {
			role = kompact.RoleAssistant
		}
		text := fmt.Sprintf("%d: %s", i, body)
		msgs[i] = kompact.Message{ID: fmt.Sprintf("b%d", i), Role: role, Content: []kompact.Part{kompact.TextPart(text)}}
		size += int64(len(text))
	}
	return msgs, size
}

func benchStore(b *testing.B) *sqlite.Store {
	b.Helper()
	return testserver.SQLite(b)
}

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
		start := processCPU()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/sessions/bench/actions/compact_conversation", nil))
		cpu += processCPU() - start
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %.300s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// processCPU is the process's CPU time (user and system) in nanoseconds,
// as in the root's bench_test.go.
func processCPU() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

// BenchmarkStoreReadRewrite10k is the floor the compaction is measured
// against: read the 10k-message session from the store and write it again
// whole (delete, then create with the same messages).
func BenchmarkStoreReadRewrite10k(b *testing.B) {
	ctx := context.Background()
	store := benchStore(b)
	msgs, size := benchMessages(10_000)
	if _, err := store.CreateSession(ctx, &kompact.Session{ID: "bench", Agent: "kimi", Messages: msgs}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := store.GetSession(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if err := store.DeleteSession(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		if _, err := store.CreateSession(ctx, &s.Session); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImport posts the generated session document of
// docs/benchmarks.md to /v1/sessions/import, each time to a new, empty
// store, and takes the whole answer.
func BenchmarkImport(b *testing.B) {
	for _, n := range []int{1000, 10_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			doc := vectors.GenSession(b, n)
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				store, err := sqlite.Open(filepath.Join(b.TempDir(), "k.db"))
				if err != nil {
					b.Fatal(err)
				}
				h := httpapi.New(httpapi.Config{Store: store, Agents: config.Default(), LLM: instantLLM{}, Logger: slog.New(slog.DiscardHandler)}).Handler()
				b.StartTimer()
				rec := httptest.NewRecorder()
				req := httptest.NewRequest("POST", "/v1/sessions/import", bytes.NewReader(doc))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusCreated {
					b.Fatalf("status %d: %.300s", rec.Code, rec.Body)
				}
				b.StopTimer()
				store.Close()
				b.StartTimer()
			}
		})
	}
}
