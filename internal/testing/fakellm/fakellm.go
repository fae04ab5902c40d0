// Package fakellm is an in-process OpenAI-compatible chat-completions server
// for tests. It speaks the real wire protocol over loopback HTTP: POST
// /v1/chat/completions (or /chat/completions) answered as a server-sent
// event stream of chat.completion.chunk objects ending with "data: [DONE]",
// or as one chat.completion JSON object when the request does not ask for a
// stream.
//
// What the server answers is scripted per request: queued Reply values are
// used in order; when the queue is empty the hook set with SetFunc decides,
// and without one the default reply is used. Every request is recorded.
//
//	srv := fakellm.New(t)
//	srv.Enqueue(fakellm.RateLimited("2"), fakellm.Answer(fakellm.Think("hm"), fakellm.Text("summary")))
//	client := &openai.Client{}
//	answer, err := client.Complete(ctx, kompact.RequestConfig{BaseURL: srv.URL(), Model: "m"}, msgs, nil)
//	reqs := srv.Requests()
package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
)

// Item is one delta of a streamed answer: exactly one of Text, Think and
// Call is set. Each item is sent as its own chunk.
type Item struct {
	// Text is a "content" delta.
	Text string
	// Think is a reasoning delta ("reasoning_content" unless the reply's
	// ReasoningField says otherwise).
	Think string
	// Call is a tool-call delta.
	Call *CallDelta
}

// CallDelta is a fragment of a tool call: Index says which call it
// continues; ID and Name are usually sent on a call's first fragment only.
type CallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// Text returns a content delta.
func Text(s string) Item { return Item{Text: s} }

// Think returns a reasoning delta.
func Think(s string) Item { return Item{Think: s} }

// Call returns a tool-call delta.
func Call(index int, id, name, args string) Item {
	return Item{Call: &CallDelta{Index: index, ID: id, Name: name, Arguments: args}}
}

// Usage is the usage report of an answer.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
	// CachedTokens, when not nil, is sent as Moonshot's top-level
	// usage.cached_tokens.
	CachedTokens *int64
	// DetailsCachedTokens, when not nil, is sent as OpenAI's
	// usage.prompt_tokens_details.cached_tokens.
	DetailsCachedTokens *int64
	// InChoice sends the usage as Moonshot does: as choices[0].usage of the
	// chunk that carries finish_reason, with no separate usage chunk.
	InChoice bool
}

// ErrorBody is an OpenAI-style error: {"error": {"message", "type", "code"}}.
type ErrorBody struct {
	Message string
	Type    string
	// Code is sent as given: a string, a number, or null when nil.
	Code any
}

// Reply is the server's answer to one request. The zero value is an empty
// answer: a stream that finishes without any content.
type Reply struct {
	// Items are the answer's deltas, in order.
	Items []Item
	// FinishReason ends the answer; "" means "stop".
	FinishReason string
	// Usage, when not nil, is reported after the answer (see Usage.InChoice).
	Usage *Usage
	// ReasoningField names the delta field of Think items:
	// "reasoning_content" (the default, Moonshot, DeepSeek, vLLM) or
	// "reasoning" (Ollama).
	ReasoningField string

	// Status, when not 0 or 200, makes the reply an HTTP error whose body is
	// Error (or RawBody).
	Status int
	// Error is the error body of an HTTP error; nil means one derived from
	// Status.
	Error *ErrorBody
	// RawBody, when not empty, is sent as the body as it is, with Status
	// (200 when 0) and an application/json content type unless Header says
	// otherwise.
	RawBody string
	// Header holds extra response headers (Retry-After, retry-after-ms, ...).
	Header http.Header

	// Delay is waited before answering. The wait ends early, without an
	// answer, when the client goes away.
	Delay time.Duration
	// ChunkDelay is waited between chunks of a stream; it too ends early
	// when the client goes away.
	ChunkDelay time.Duration
	// Cut, when true, closes the connection abruptly after the first
	// CutAfter items (the opening role chunk is always sent): no
	// finish_reason, no usage, no [DONE].
	Cut      bool
	CutAfter int
	// StreamError, when not nil, is sent after the items as an SSE "error"
	// event ({"error": {...}}), which ends the stream without [DONE].
	StreamError *ErrorBody
	// NoStream answers with a chat.completion JSON object even when the
	// request asked for a stream.
	NoStream bool
}

// Answer returns a normal answer made of items.
func Answer(items ...Item) Reply { return Reply{Items: items} }

// Fail returns an HTTP error with an OpenAI-style body holding message.
func Fail(status int, message string) Reply {
	return Reply{Status: status, Error: &ErrorBody{Message: message, Type: errorType(status)}}
}

// RateLimited returns a 429 error; retryAfter, when not empty, is sent as
// the Retry-After header (seconds or an HTTP date).
func RateLimited(retryAfter string) Reply {
	r := Fail(http.StatusTooManyRequests, "Rate limit reached, please try again later")
	r.Error.Code = "rate_limit_exceeded"
	if retryAfter != "" {
		r = r.WithHeader("Retry-After", retryAfter)
	}
	return r
}

// ContextTooLongMessage is OpenAI's message for an input too long.
const ContextTooLongMessage = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages."

// ContextTooLong returns OpenAI's answer to an input that exceeds the
// model's context window: a 400 with code context_length_exceeded.
func ContextTooLong() Reply {
	return Reply{Status: http.StatusBadRequest, Error: &ErrorBody{
		Message: ContextTooLongMessage, Type: "invalid_request_error", Code: "context_length_exceeded",
	}}
}

// CutAfter returns an answer whose connection is closed after the first n
// items.
func CutAfter(n int, items ...Item) Reply {
	return Reply{Items: items, Cut: true, CutAfter: n}
}

// WithUsage returns r reporting u.
func (r Reply) WithUsage(u Usage) Reply {
	r.Usage = &u
	return r
}

// WithHeader returns r with the response header k set to v.
func (r Reply) WithHeader(k, v string) Reply {
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set(k, v)
	r.Header = h
	return r
}

// WithDelay returns r answered after d.
func (r Reply) WithDelay(d time.Duration) Reply {
	r.Delay = d
	return r
}

// DefaultText is the text of the default reply.
const DefaultText = "A summary of the conversation, from the fake LLM."

// DefaultReply returns the reply used when nothing else is scripted: one
// text delta holding DefaultText, with usage.
func DefaultReply() Reply {
	return Answer(Text(DefaultText)).WithUsage(Usage{PromptTokens: 100, CompletionTokens: 12})
}

func errorType(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status == http.StatusForbidden:
		return "permission_error"
	case status == http.StatusNotFound:
		return "not_found_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

// Request is a recorded request. Its maps and slices must not be modified.
type Request struct {
	// Seq numbers the requests in order of arrival, from 1.
	Seq    int
	Method string
	Path   string
	Header http.Header
	// Body is the raw body; JSON is the body decoded, nil when it is not a
	// JSON object.
	Body []byte
	JSON map[string]any
}

// Model returns the body's "model".
func (r Request) Model() string {
	s, _ := r.JSON["model"].(string)
	return s
}

// Stream reports whether the body asks for a stream.
func (r Request) Stream() bool {
	b, _ := r.JSON["stream"].(bool)
	return b
}

// Messages returns the body's "messages".
func (r Request) Messages() []map[string]any {
	list, _ := r.JSON["messages"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, m := range list {
		if mm, ok := m.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

// Text returns the text of all messages, concatenated: string contents and
// the "text" of text parts.
func (r Request) Text() string {
	var b strings.Builder
	for _, m := range r.Messages() {
		switch c := m["content"].(type) {
		case string:
			b.WriteString(c)
		case []any:
			for _, p := range c {
				if pm, ok := p.(map[string]any); ok {
					if s, ok := pm["text"].(string); ok {
						b.WriteString(s)
					}
				}
			}
		}
	}
	return b.String()
}

// Server is the fake LLM server. Its methods are safe for concurrent use.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	queue    []Reply
	fn       func(Request) Reply
	fallback Reply
	reqs     []Request
	models   []Model
}

// Model is one entry of the model list served at GET /v1/models.
type Model struct {
	ID string
	// ContextLength, when not nil, is sent as "context_length", as Moonshot
	// does; OpenAI and Ollama send none.
	ContextLength *int64
}

// SetModels sets the model list served at GET /v1/models (empty by default).
func (s *Server) SetModels(models ...Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]Model(nil), models...)
}

// serveModels answers GET /v1/models in the OpenAI list shape.
func (s *Server) serveModels(w http.ResponseWriter) {
	s.mu.Lock()
	data := make([]map[string]any, 0, len(s.models))
	for _, m := range s.models {
		e := map[string]any{"id": m.ID, "object": "model", "created": 1700000000, "owned_by": "fakellm"}
		if m.ContextLength != nil {
			e["context_length"] = *m.ContextLength
		}
		data = append(data, e)
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

// New starts a server that closes itself when the test ends.
func New(t testing.TB) *Server {
	s := &Server{fallback: DefaultReply()}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// URL returns the API root, ending in /v1: the base URL a client uses.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close shuts the server down; it is safe to call more than once.
func (s *Server) Close() { s.srv.Close() }

// Enqueue adds replies for the next requests, in order.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// SetFunc sets the hook that decides the reply when the queue is empty;
// nil removes it. fn may be called concurrently and may call Requests.
func (s *Server) SetFunc(fn func(req Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fn = fn
}

// SetDefault sets the reply used when the queue is empty and there is no
// hook.
func (s *Server) SetDefault(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = r
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// store numbers req and records it.
func (s *Server) store(req *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req.Seq = len(s.reqs) + 1
	s.reqs = append(s.reqs, *req)
}

// next picks the reply to req: the queue's first, else the hook's (called
// unlocked), else the default.
func (s *Server) next(req Request) Reply {
	s.mu.Lock()
	if len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return r
	}
	fn, fallback := s.fn, s.fallback
	s.mu.Unlock()
	if fn != nil {
		return fn(req)
	}
	return fallback
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	var obj map[string]any
	if json.Unmarshal(body, &obj) == nil {
		req.JSON = obj
	}
	s.store(&req)
	if (req.Path == "/v1/models" || req.Path == "/models") && r.Method == http.MethodGet {
		s.serveModels(w)
		return
	}
	if req.Path != "/v1/chat/completions" && req.Path != "/chat/completions" {
		writeError(w, http.StatusNotFound, &ErrorBody{Message: "unknown path " + req.Path, Type: "not_found_error"})
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, &ErrorBody{Message: "use POST", Type: "invalid_request_error"})
		return
	}
	reply := s.next(req)
	if !wait(r, reply.Delay) {
		return
	}
	for k, vs := range reply.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	switch {
	case reply.RawBody != "":
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		status := reply.Status
		if status == 0 {
			status = http.StatusOK
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, reply.RawBody)
	case reply.Status != 0 && reply.Status != http.StatusOK:
		e := reply.Error
		if e == nil {
			e = &ErrorBody{Message: http.StatusText(reply.Status), Type: errorType(reply.Status)}
		}
		writeError(w, reply.Status, e)
	case req.Stream() && !reply.NoStream:
		s.stream(w, r, req, &reply)
	default:
		writeJSON(w, http.StatusOK, completion(req, &reply))
	}
}

// wait waits d, or until the client goes away (false).
func wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return r.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, e *ErrorBody) {
	writeJSON(w, status, map[string]any{"error": errorJSON(e)})
}

func errorJSON(e *ErrorBody) map[string]any {
	return map[string]any{"message": e.Message, "type": e.Type, "param": nil, "code": e.Code}
}

func usageJSON(u *Usage) map[string]any {
	m := map[string]any{
		"prompt_tokens":     u.PromptTokens,
		"completion_tokens": u.CompletionTokens,
		"total_tokens":      u.PromptTokens + u.CompletionTokens,
	}
	if u.CachedTokens != nil {
		m["cached_tokens"] = *u.CachedTokens
	}
	if u.DetailsCachedTokens != nil {
		m["prompt_tokens_details"] = map[string]any{"cached_tokens": *u.DetailsCachedTokens}
	}
	return m
}

func modelOf(req Request) string {
	if m := req.Model(); m != "" {
		return m
	}
	return "fake-model"
}

func (r *Reply) reasoningField() string {
	if r.ReasoningField != "" {
		return r.ReasoningField
	}
	return "reasoning_content"
}

func (r *Reply) finishReason() string {
	if r.FinishReason != "" {
		return r.FinishReason
	}
	return "stop"
}

func callJSON(c *CallDelta) map[string]any {
	fn := map[string]any{"arguments": c.Arguments}
	if c.Name != "" {
		fn["name"] = c.Name
	}
	m := map[string]any{"index": c.Index, "function": fn}
	if c.ID != "" {
		m["id"] = c.ID
		m["type"] = "function"
	}
	return m
}

// stream writes the reply as server-sent events.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, req Request, reply *Reply) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)

	id := fmt.Sprintf("chatcmpl-fake-%d", req.Seq)
	created := time.Now().Unix()
	model := modelOf(req)
	send := func(choices []any, extra map[string]any) {
		chunk := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		for k, v := range extra {
			chunk[k] = v
		}
		data, _ := json.Marshal(chunk)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", data)
		if flusher != nil {
			flusher.Flush()
		}
	}
	choice := func(delta map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}}
	}
	abort := func() {
		if flusher != nil {
			flusher.Flush()
		}
		// Closes the connection without ending the chunked body.
		panic(http.ErrAbortHandler)
	}

	send(choice(map[string]any{"role": "assistant", "content": ""}, nil), nil)
	for i, it := range reply.Items {
		if reply.Cut && i >= reply.CutAfter {
			abort()
		}
		if i > 0 && !wait(r, reply.ChunkDelay) {
			return
		}
		delta := map[string]any{}
		switch {
		case it.Call != nil:
			delta["tool_calls"] = []any{callJSON(it.Call)}
		case it.Think != "":
			delta[reply.reasoningField()] = it.Think
		default:
			delta["content"] = it.Text
		}
		send(choice(delta, nil), nil)
	}
	if reply.Cut {
		abort()
	}
	if reply.StreamError != nil {
		data, _ := json.Marshal(map[string]any{"error": errorJSON(reply.StreamError)})
		_, _ = fmt.Fprintf(w, "event: error\ndata: %s\n\n", data)
		if flusher != nil {
			flusher.Flush()
		}
		return
	}
	last := map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": reply.finishReason(), "logprobs": nil}
	if reply.Usage != nil && reply.Usage.InChoice {
		last["usage"] = usageJSON(reply.Usage)
	}
	send([]any{last}, nil)
	if reply.Usage != nil && !reply.Usage.InChoice {
		send([]any{}, map[string]any{"usage": usageJSON(reply.Usage)})
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// completion returns the reply as a non-streamed chat.completion object.
func completion(req Request, reply *Reply) map[string]any {
	var text, think bytes.Buffer
	var calls []map[string]any
	hasText := false
	for _, it := range reply.Items {
		switch {
		case it.Call != nil:
			for len(calls) <= it.Call.Index {
				calls = append(calls, map[string]any{"type": "function", "function": map[string]any{"name": "", "arguments": ""}})
			}
			c := calls[it.Call.Index]
			fn := c["function"].(map[string]any)
			if it.Call.ID != "" {
				c["id"] = it.Call.ID
			}
			fn["name"] = fn["name"].(string) + it.Call.Name
			fn["arguments"] = fn["arguments"].(string) + it.Call.Arguments
		case it.Think != "":
			think.WriteString(it.Think)
		default:
			text.WriteString(it.Text)
			hasText = true
		}
	}
	msg := map[string]any{"role": "assistant", "content": nil}
	if hasText {
		msg["content"] = text.String()
	}
	if think.Len() > 0 {
		msg[reply.reasoningField()] = think.String()
	}
	if len(calls) > 0 {
		msg["tool_calls"] = calls
	}
	out := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-fake-%d", req.Seq),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   modelOf(req),
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": reply.finishReason(), "logprobs": nil}},
	}
	if reply.Usage != nil {
		out["usage"] = usageJSON(reply.Usage)
	}
	return out
}

// ProgressLog records progress reports; its Add method fits the progress
// callbacks of kompact.LLM and service.Compactor, and is safe for
// concurrent use.
type ProgressLog struct {
	mu  sync.Mutex
	all []kompact.Progress
}

// Add records one report.
func (p *ProgressLog) Add(pr kompact.Progress) {
	p.mu.Lock()
	p.all = append(p.all, pr)
	p.mu.Unlock()
}

// List returns the reports so far, in order.
func (p *ProgressLog) List() []kompact.Progress {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]kompact.Progress(nil), p.all...)
}
