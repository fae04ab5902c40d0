package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/httpapi"
	"kompact/internal/testing/testserver"
	"kompact/internal/testing/vectors"
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
