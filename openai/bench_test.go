package openai_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/kimi"
	"kompact/openai"
)

// compactionRequest returns the request messages of the compaction of a
// session of n messages with about 2 KB of text each (escapes and
// non-ASCII text included), and the size of their request body.
func compactionRequest(tb testing.TB, n int) ([]kompact.Message, int) {
	tb.Helper()
	line := strings.Repeat("func f() error { return \"quoted\" } // résumé 数据 → <tag>\n\t", 32)
	s := &kompact.Session{ID: "bench", Messages: make([]kompact.Message, 0, n)}
	for i := range n {
		role := kompact.RoleUser
		if i%2 == 1 {
			role = kompact.RoleAssistant
		}
		s.Messages = append(s.Messages, kompact.Message{Role: role,
			Content: []kompact.Part{kompact.TextPart(strconv.Itoa(i) + " " + line)}})
	}
	plan, err := kimi.Prepare(s, kimi.Options{MaxPreserved: kompact.DefaultMaxPreserved, Prompt: kompact.Prompt{Body: "Summarize."}})
	if err != nil || plan.Noop {
		tb.Fatalf("prepare: %v", err)
	}
	msgs := plan.RequestMessages()
	body, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
	if err != nil {
		tb.Fatal(err)
	}
	return msgs, len(body)
}

// sinkServer reads and drops each request body and answers with a short
// stream, so that what a benchmark allocates is the client's.
func sinkServer(tb testing.TB) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, okStream)
	}))
	tb.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// BenchmarkClientComplete is one compaction request, sent and answered,
// over loopback HTTP: "sink" is a server that drops the body (what is
// allocated is the client's), "fakellm" the fake LLM, which keeps and
// decodes each body. MB/s is request body bytes.
func BenchmarkClientComplete(b *testing.B) {
	for _, sz := range []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10000}} {
		msgs, size := compactionRequest(b, sz.n)
		for _, server := range []string{"sink", "fakellm"} {
			b.Run(server+"/"+sz.name, func(b *testing.B) {
				url := sinkServer(b)
				if server == "fakellm" {
					url = fakellm.New(b).URL()
				}
				c := &openai.Client{MaxRetries: -1}
				cfg := kompact.RequestConfig{BaseURL: url, Model: "m"}
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Complete(context.Background(), cfg, msgs, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// BenchmarkBodyLength is what it costs to count a body's bytes by
// writing it to a counter.
func BenchmarkBodyLength(b *testing.B) {
	msgs, size := compactionRequest(b, 10000)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		var n countWriter
		if err := openai.WriteRequestBody(&n, kompact.RequestConfig{Model: "m"}, msgs); err != nil || int(n) != size {
			b.Fatal(n, err)
		}
	}
}
