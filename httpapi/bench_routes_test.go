package httpapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/storetest"
)

// routeSizes are the session sizes BenchmarkRoutes runs at: 100 only with
// -short (CI's smoke run), 10k without, 100k when KOMPACT_BENCH_100K is
// set (the session is ~210 MB: minutes to write).
func routeSizes(b *testing.B) []int {
	switch {
	case testing.Short():
		return []int{100}
	case os.Getenv("KOMPACT_BENCH_100K") != "":
		return []int{100, 10_000, 100_000}
	}
	return []int{100, 10_000}
}

// BenchmarkRoutes measures the routes issue 21 §1 bounds, through the HTTP
// handler over SQLite, on a session of n messages of ~2 KB that was
// compacted (its first half: revision 1) and restored (revision 2): GET
// …/context, GET …/ui-elements, the restore preview of revision 2 (what
// restoring the compacted list would drop and bring back), and the first
// append after a restore (each iteration restores revision 1 first, off
// the clock). Run with -benchmem: what matters is B/op against n.
func BenchmarkRoutes(b *testing.B) {
	for _, n := range routeSizes(b) {
		name := fmt.Sprint(n)
		if n >= 1000 {
			name = fmt.Sprintf("%dk", n/1000)
		}
		b.Run(name, func(b *testing.B) {
			store := benchStore(b)
			h := httpapi.New(httpapi.Config{Store: store, Agents: config.Default(), LLM: instantLLM{}, Logger: slog.New(slog.DiscardHandler)}).Handler()
			restoredSession(b, store, n)
			get := func(path string) func(b *testing.B) {
				return func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						serve(b, h, "GET", path, "", http.StatusOK)
					}
				}
			}
			b.Run("context", get("/v1/sessions/bench/context"))
			b.Run("ui-elements", get("/v1/sessions/bench/ui-elements"))
			b.Run("restore-preview", get("/v1/sessions/bench/revisions/2/restore-preview"))
			b.Run("append-after-restore", func(b *testing.B) {
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					if _, _, err := store.RestoreRevision(ctx, "bench", 1); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					serve(b, h, "POST", "/v1/sessions/bench/messages", `{"message":{"role":"user","content":"one more"}}`, http.StatusCreated)
				}
			})
		})
	}
}

// restoredSession stores the session "bench" of n messages, compacts its
// first half (revision 1) and restores it (revision 2).
func restoredSession(b *testing.B, store kompact.Store, n int) {
	ctx := context.Background()
	msgs := storetest.BenchSession(n)
	if _, err := store.CreateSession(ctx, &kompact.Session{ID: "bench", Agent: "kimi", Messages: msgs}); err != nil {
		b.Fatal(err)
	}
	cur, err := store.GetSession(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	c := kompact.Commit{Base: cur.Messages, End: n / 2, Version: cur.Version, Generation: cur.Generation, TokenCount: 1000, Note: "compacted",
		Replacement: []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(summaryText)}}}}
	if _, _, err := store.CommitCompaction(ctx, "bench", c); err != nil {
		b.Fatal(err)
	}
	if _, _, err := store.RestoreRevision(ctx, "bench", 1); err != nil {
		b.Fatal(err)
	}
}

// serve sends one request to h and fails unless it answers status.
func serve(b *testing.B, h http.Handler, method, path, body string, status int) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	h.ServeHTTP(rec, req)
	if rec.Code != status {
		b.Fatalf("%s %s: status %d: %.300s", method, path, rec.Code, rec.Body)
	}
}
