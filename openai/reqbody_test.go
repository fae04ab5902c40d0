package openai_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"kompact"
	"kompact/openai"
)

// received is what a test server saw of one request.
type received struct {
	path             string
	contentLength    int64
	transferEncoding []string
	body             []byte
}

// bodyServer records what a test server received.
type bodyServer struct {
	mu   sync.Mutex
	reqs []received
}

// okStream is a whole streamed answer: "summary".
const okStream = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"summary"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"

// record notes a request and returns its number, from 1.
func (s *bodyServer) record(r *http.Request, body []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, received{path: r.URL.Path, contentLength: r.ContentLength,
		transferEncoding: r.TransferEncoding, body: body})
	return len(s.reqs)
}

func (s *bodyServer) all() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.reqs...)
}

// checkBodies checks that each request carried want, whole: chunked, as
// an HTTP/1.1 body of unknown length goes, or, with counted set, with its
// exact Content-Length.
func checkBodies(t *testing.T, got []received, want []byte, n int, counted bool) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("%d requests, want %d", len(got), n)
	}
	for i, r := range got {
		if !bytes.Equal(r.body, want) {
			t.Errorf("request %d (%s): %d bytes received, not RequestBody's %d", i+1, r.path, len(r.body), len(want))
		}
		chunked := len(r.transferEncoding) == 1 && r.transferEncoding[0] == "chunked"
		if counted && (r.contentLength != int64(len(want)) || chunked) {
			t.Errorf("request %d: Content-Length %d, Transfer-Encoding %v; want %d and none",
				i+1, r.contentLength, r.transferEncoding, len(want))
		}
		if !counted && (r.contentLength != -1 || !chunked) {
			t.Errorf("request %d: Content-Length %d, Transfer-Encoding %v; want chunked", i+1, r.contentLength, r.transferEncoding)
		}
	}
}

// TestClientSendsRequestBodyOnEveryAttempt: what the server reads is
// RequestBody's output, byte for byte (chunked), on the
// first attempt and on each retry, however the attempt before ended: a
// 503, a connection closed halfway through the body, a redirect (which
// net/http follows by opening the body again).
func TestClientSendsRequestBodyOnEveryAttempt(t *testing.T) {
	t.Parallel()
	msgs, _ := compactionRequest(t, 1000)
	fields := map[string]any{"temperature": 0.2, "max_tokens": 100}
	want, err := openai.RequestBody(kompact.RequestConfig{Model: "m", Fields: fields}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	rec := &bodyServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" && len(rec.all()) == 1 {
			// The second request: read a third of the body, then hang up.
			part, _ := io.ReadAll(io.LimitReader(r.Body, int64(len(want)/3)))
			rec.record(r, part)
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		switch rec.record(r, body) {
		case 1:
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
		case 3:
			http.Redirect(w, r, "/v2/chat/completions", http.StatusTemporaryRedirect)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, okStream)
		}
	}))
	defer srv.Close()
	sl := completeSummary(t, 3, kompact.RequestConfig{BaseURL: srv.URL + "/v1", Model: "m", Fields: fields}, msgs)
	got := rec.all()
	if len(got) != 4 || got[1].path != "/v1/chat/completions" || got[3].path != "/v2/chat/completions" {
		t.Fatalf("requests %d: want 503, hang-up, redirect, answer", len(got))
	}
	if len(got[1].body) != len(want)/3 {
		t.Errorf("the hung-up request read %d bytes", len(got[1].body))
	}
	got = append(got[:1], got[2:]...)
	checkBodies(t, got, want, 3, false)
	if n := len(sl.all()); n != 2 {
		t.Errorf("%d waits, want 2 (after the 503 and the hang-up)", n)
	}
}

// completeSummary runs Complete with retries (their waits logged, not
// slept) and checks that the answer is okStream's "summary".
func completeSummary(t *testing.T, retries int, cfg kompact.RequestConfig, msgs []kompact.Message) *sleepLog {
	t.Helper()
	sl := &sleepLog{}
	c := &openai.Client{Sleep: sl.sleep, MaxRetries: retries}
	a, err := c.Complete(context.Background(), cfg, msgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if answerText(a) != "summary" {
		t.Errorf("answer %q", answerText(a))
	}
	return sl
}

// TestClientCountsBodyWhenLengthRequired: a server that answers 411
// Length Required to a chunked body gets it again at once, with its exact
// Content-Length, without a wait or a retry counted; the later attempts of
// the call keep the length.
func TestClientCountsBodyWhenLengthRequired(t *testing.T) {
	t.Parallel()
	msgs, _ := compactionRequest(t, 300)
	want, err := openai.RequestBody(kompact.RequestConfig{Model: "m"}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	rec := &bodyServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		switch n := rec.record(r, body); {
		case r.ContentLength < 0:
			http.Error(w, `{"error":{"message":"length required"}}`, http.StatusLengthRequired)
		case n == 2:
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, okStream)
		}
	}))
	defer srv.Close()
	sl := completeSummary(t, 1, kompact.RequestConfig{BaseURL: srv.URL + "/v1", Model: "m"}, msgs)
	got := rec.all()
	checkBodies(t, got[:1], want, 1, false)
	checkBodies(t, got[1:], want, 2, true)
	if n := len(sl.all()); n != 1 {
		t.Errorf("%d waits, want 1 (after the 503 only)", n)
	}
}

// TestClientCancelStopsBodyWriter: a request cancelled while its body is
// still going out leaves no encoding goroutine behind when Complete
// returns. The server reads nothing, so the encoder is blocked on the pipe
// when the caller gives up. (Not parallel: it counts the package's
// encoders.)
func TestClientCancelStopsBodyWriter(t *testing.T) {
	msgs, size := compactionRequest(t, 10000)
	arrived, stop := make(chan struct{}, 1), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-stop
	}))
	defer srv.Close()
	defer close(stop)
	if n := openai.WaitEncoders(0); n != 0 {
		t.Fatalf("%d encoders before the request", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := (&openai.Client{MaxRetries: -1}).Complete(ctx, kompact.RequestConfig{BaseURL: srv.URL + "/v1", Model: "m"}, msgs, nil)
		done <- err
	}()
	<-arrived
	if n := openai.WaitEncoders(1); n != 1 {
		t.Fatalf("%d encoders while the %d-byte body is going out, want 1 blocked", n, size)
	}
	cancel()
	if err := <-done; kompact.ErrorCodeOf(err) != kompact.ELLM || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("error %v", err)
	}
	if n := openai.Encoders(); n != 0 {
		t.Fatalf("%d encoders left when Complete returned", n)
	}
}

// TestClientEarlyAnswerStopsBodyWriter: a server that answers at once,
// without reading the body (a 400 for a request it will not take), gets
// its answer reported, and Complete leaves no encoding goroutine behind,
// though the body was still going out straight into the connection. (Not
// parallel: it counts the package's encoders.)
func TestClientEarlyAnswerStopsBodyWriter(t *testing.T) {
	msgs, _ := compactionRequest(t, 10000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"message":"not this one","type":"invalid_request_error"}}`)
	}))
	defer srv.Close()
	if n := openai.WaitEncoders(0); n != 0 {
		t.Fatalf("%d encoders before the request", n)
	}
	_, err := (&openai.Client{MaxRetries: -1}).Complete(context.Background(), kompact.RequestConfig{BaseURL: srv.URL + "/v1", Model: "m"}, msgs, nil)
	if kompact.ErrorCodeOf(err) != kompact.ELLM || !strings.Contains(err.Error(), "not this one") {
		t.Fatalf("error %v", err)
	}
	if n := openai.Encoders(); n != 0 {
		t.Fatalf("%d encoders left when Complete returned", n)
	}
}

// TestClientDoesNotHoldBody: sending a body of megabytes allocates a small
// fraction of it (before the body was streamed, a request allocated more
// than the whole body). On two cores each encoding pass (the count and the
// send) keeps the chunks of a long content list in buffers of a fixed size,
// about 1 MiB a pass whatever the body's size. (Not parallel: it counts the process's
// allocations.)
func TestClientDoesNotHoldBody(t *testing.T) {
	msgs, size := compactionRequest(t, 4000)
	url := sinkServer(t)
	c := &openai.Client{MaxRetries: -1}
	cfg := kompact.RequestConfig{BaseURL: url, Model: "m"}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := c.Complete(context.Background(), cfg, msgs, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(size)/3 {
		t.Errorf("sending a %d-byte body allocated %d bytes", size, alloc)
	}
}

// TestClientContextTooLongBeforeBodyIsRead: a provider that refuses the
// input before it has read the body (a 23 MB one, more than the socket
// buffers hold) is still heard: the error wraps kompact.ErrContextTooLong,
// so that the Compactor can shrink the request.
func TestClientContextTooLongBeforeBodyIsRead(t *testing.T) {
	t.Parallel()
	msgs, _ := compactionRequest(t, 10000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}`)
	}))
	defer srv.Close()
	_, err := (&openai.Client{MaxRetries: -1}).Complete(context.Background(), kompact.RequestConfig{BaseURL: srv.URL + "/v1", Model: "m"}, msgs, nil)
	if !errors.Is(err, kompact.ErrContextTooLong) {
		t.Fatalf("error %v does not wrap ErrContextTooLong", err)
	}
}
