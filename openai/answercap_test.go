package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/openai"
)

// endlessLLM is a provider that streams chunks for as long as the client
// reads: chunk(i) is the i-th event's data. It counts the requests and the
// bytes written.
type endlessLLM struct {
	srv      *httptest.Server
	requests atomic.Int64
	written  atomic.Int64
}

func newEndlessLLM(t testing.TB, chunk func(i int) string) *endlessLLM {
	e := &endlessLLM{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.requests.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		f := w.(http.Flusher)
		for i := 0; r.Context().Err() == nil; i++ {
			n, err := fmt.Fprint(w, chunk(i))
			e.written.Add(int64(n))
			if err != nil {
				return
			}
			f.Flush()
		}
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *endlessLLM) config(maxAnswer int64) kompact.RequestConfig {
	return kompact.RequestConfig{BaseURL: e.srv.URL + "/v1", Model: "m", MaxAnswerBytes: maxAnswer}
}

// deltaEvent is one SSE chunk event whose first choice's delta holds
// field: text.
func deltaEvent(field, text string) string {
	d, _ := json.Marshal(map[string]any{"object": "chat.completion.chunk",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{field: text}}}})
	return "data: " + string(d) + "\n\n"
}

// checkTooLarge checks that err is the typed error of an answer past the
// cap: ELLM, wrapping kompact.ErrAnswerTooLarge, naming the setting.
func checkTooLarge(t *testing.T, err error, limit string) {
	t.Helper()
	var ke *kompact.Error
	if !errors.As(err, &ke) || ke.Code != kompact.ELLM || !errors.Is(err, kompact.ErrAnswerTooLarge) {
		t.Fatalf("error %v, want an llm_error wrapping ErrAnswerTooLarge", err)
	}
	if !strings.Contains(ke.Message, "llm.max_answer_bytes") || !strings.Contains(ke.Message, limit) ||
		!strings.Contains(ke.Message, "nothing was written") || strings.Contains(ke.Message, "could not reach") {
		t.Errorf("message %q", ke.Message)
	}
	if !strings.Contains(strings.Join(ke.Fixes, " "), "llm.max_answer_bytes") {
		t.Errorf("fixes %q", ke.Fixes)
	}
}

// TestClientAnswerCap: an endless stream of text, of reasoning or of tool
// call arguments stops at the cap with the typed error, after one
// request (it is not retried), having read little more than the cap.
func TestClientAnswerCap(t *testing.T) {
	block := strings.Repeat("x", 4<<10)
	for _, tc := range []struct {
		name  string
		event func(int) string
	}{
		{"content", func(int) string { return deltaEvent("content", block) }},
		{"reasoning", func(int) string { return deltaEvent("reasoning_content", block) }},
		{"tool call", func(i int) string {
			d, _ := json.Marshal(map[string]any{"object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0,
				"delta": map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": "c1", "function": map[string]any{"name": "f", "arguments": block}}}}}}})
			return "data: " + string(d) + "\n\n"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm := newEndlessLLM(t, tc.event)
			c := &openai.Client{MaxRetries: 3, Sleep: (&sleepLog{}).sleep}
			_, err := c.Complete(context.Background(), llm.config(64<<10), smallRequest(t), nil)
			checkTooLarge(t, err, "64 KiB")
			if n := llm.requests.Load(); n != 1 {
				t.Errorf("%d requests, want 1: an answer too large is not retried", n)
			}
		})
	}
}

// TestClientAnswerCapDefault: without llm.max_answer_bytes the cap is
// kompact.DefaultMaxAnswerBytes (4 MiB); an answer just under it is read.
func TestClientAnswerCapDefault(t *testing.T) {
	block := strings.Repeat("y", 64<<10)
	llm := newEndlessLLM(t, func(int) string { return deltaEvent("content", block) })
	c := &openai.Client{MaxRetries: 3, Sleep: (&sleepLog{}).sleep}
	_, err := c.Complete(context.Background(), llm.config(0), smallRequest(t), nil)
	checkTooLarge(t, err, "4 MiB")

	srv := fakellm.New(t)
	srv.Enqueue(fakellm.Answer(fakellm.Text(strings.Repeat("z", kompact.DefaultMaxAnswerBytes-10))))
	answer, err := c.Complete(context.Background(), fakeConfig(srv), smallRequest(t), nil)
	if err != nil || len(answer.Parts) != 1 || len(answer.Parts[0].Text) != kompact.DefaultMaxAnswerBytes-10 {
		t.Fatalf("an answer under the cap: %v", err)
	}
}

// TestClientAnswerCapNonStreamed: a chat.completion JSON answer past the
// cap fails the same way, once.
func TestClientAnswerCapNonStreamed(t *testing.T) {
	srv, c, _ := newFakeClient(t)
	r := fakellm.Answer(fakellm.Text(strings.Repeat("w", 8<<10)))
	r.NoStream = true
	srv.Enqueue(r, r, r, r)
	cfg := fakeConfig(srv)
	cfg.MaxAnswerBytes = 4 << 10
	_, err := c.Complete(context.Background(), cfg, smallRequest(t), nil)
	checkTooLarge(t, err, "4 KiB")
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	// A JSON body far longer than such an answer can be is not read whole.
	big := fakellm.Answer(fakellm.Text(strings.Repeat("\x01", 64<<10)))
	big.NoStream = true
	srv.Enqueue(big)
	_, err = c.Complete(context.Background(), cfg, smallRequest(t), nil)
	checkTooLarge(t, err, "4 KiB")
}

// TestClientLongEventLine: an event line over 64 KiB (one large delta) is
// read; one longer than an answer within the cap can need is reported as
// what it is, once, not as "could not reach the LLM" after five attempts.
func TestClientLongEventLine(t *testing.T) {
	srv, c, _ := newFakeClient(t)
	text := strings.Repeat("long line ", 30<<10) // 300 KiB in one chunk
	srv.Enqueue(fakellm.Answer(fakellm.Text(text)))
	answer, err := c.Complete(context.Background(), fakeConfig(srv), smallRequest(t), nil)
	if err != nil || len(answer.Parts) != 1 || answer.Parts[0].Text != text {
		t.Fatalf("a 300 KiB event line: %v", err)
	}

	// A line that never ends.
	llm := newEndlessLLM(t, func(i int) string {
		if i == 0 {
			return "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
		}
		return strings.Repeat("v", 4<<10)
	})
	_, err = c.Complete(context.Background(), llm.config(1<<10), smallRequest(t), nil)
	checkTooLarge(t, err, "1 KiB")
	if !strings.Contains(err.Error(), "event line longer than") {
		t.Errorf("error %q does not say that a line was too long", err)
	}
	if n := llm.requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// BenchmarkEndlessAnswer: what one call against an endless stream
// allocates with the default cap (4 MiB). Run with -benchmem: B/op stays
// a small multiple of the cap, however fast the provider streams.
func BenchmarkEndlessAnswer(b *testing.B) {
	block := strings.Repeat("e", 16<<10)
	llm := newEndlessLLM(b, func(int) string { return deltaEvent("content", block) })
	c := &openai.Client{MaxRetries: -1}
	msgs := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hi")}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Complete(context.Background(), llm.config(0), msgs, nil); !errors.Is(err, kompact.ErrAnswerTooLarge) {
			b.Fatal(err)
		}
	}
}
