package openai

// This file is the transport: it sends a compaction request to an
// OpenAI-compatible chat-completions API through the official SDK, retries
// what is worth retrying, and turns the stream into a kompact.Answer with the
// pure conversions of format.go.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"kompact"
)

// The Client's defaults, used when the corresponding field is zero.
const (
	DefaultMaxRetries     = 4
	DefaultInitialBackoff = time.Second
	DefaultMaxBackoff     = 30 * time.Second
	DefaultRequestTimeout = 10 * time.Minute
	// MaxRetryAfter bounds how long the client waits when a provider's
	// Retry-After asks for more than MaxBackoff.
	MaxRetryAfter = 5 * time.Minute
)

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 64 << 10

// maxJSONBody bounds a non-streamed answer.
const maxJSONBody = 64 << 20

// Client sends compaction requests to an OpenAI-compatible chat-completions
// API (Moonshot's Kimi, OpenAI, Ollama, vLLM) and implements kompact.LLM. The
// zero value is ready to use; a Client is safe for concurrent use as long as
// its fields are not changed.
//
// Each request streams the answer. Rate limits (429), server errors (5xx),
// request timeouts (408), connection failures, streams cut off before they
// finish and attempts that exceed RequestTimeout are retried with exponential
// backoff and full jitter, honouring the provider's Retry-After. Other
// failures are not retried. A provider's "input too long" answer is returned
// at once, wrapping kompact.ErrContextTooLong, so that the Compactor can
// shrink the request.
//
// The SDK's own environment defaults (OPENAI_API_KEY, OPENAI_BASE_URL,
// OPENAI_ORG_ID, ...) are never used: the base URL, model and API key come
// from the kompact.RequestConfig only, so an OpenAI key cannot leak to
// another provider.
type Client struct {
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Getenv reads the API key variable named by RequestConfig.APIKeyEnv;
	// nil means os.Getenv.
	Getenv func(string) string
	// MaxRetries is how many times a failed attempt is retried: 0 means
	// DefaultMaxRetries, a negative value means never.
	MaxRetries int
	// InitialBackoff is the backoff before the first retry, doubled for each
	// further retry up to MaxBackoff; the actual wait is drawn uniformly from
	// [0, backoff] (full jitter). 0 means DefaultInitialBackoff.
	InitialBackoff time.Duration
	// MaxBackoff caps the computed backoff; 0 means DefaultMaxBackoff. A
	// provider's Retry-After is honoured even beyond it, up to MaxRetryAfter.
	MaxBackoff time.Duration
	// RequestTimeout bounds each attempt, from sending the request to the
	// end of the stream; an attempt that runs out is retried. 0 means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Sleep waits d before a retry, returning early with ctx's error when ctx
	// is done; nil means a real timer. Tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
}

var _ kompact.LLM = (*Client)(nil)

func (c *Client) maxRetries() int {
	switch {
	case c.MaxRetries < 0:
		return 0
	case c.MaxRetries == 0:
		return DefaultMaxRetries
	}
	return c.MaxRetries
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Complete sends msgs as a streaming chat-completions request and returns the
// answer, as kompact.LLM asks. progress, when not nil, receives the growing
// count of answer characters and, before each retry, why the client waits.
//
// An answer without any text is returned as it is: Plan.Apply decides
// whether it is acceptable. Failures are *kompact.Error values: EInvalid for
// a configuration that cannot work (no base URL, no model, the API key
// variable unset), ELLM for everything the provider or the network did.
// The API key never appears in an error.
func (c *Client) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	if progress == nil {
		progress = func(kompact.Progress) {}
	}
	base, err := checkBaseURL(cfg.BaseURL)
	if err != nil {
		return kompact.Answer{}, err
	}
	if cfg.Model == "" {
		return kompact.Answer{}, kompact.Errorf(kompact.EInvalid, "the agent's LLM has no model to send the compaction request to").
			WithFixes("Set the agent's llm.model, or compaction.compaction_model.")
	}
	var key string
	if cfg.APIKeyEnv != "" {
		getenv := c.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		key = getenv(cfg.APIKeyEnv)
		if key == "" {
			return kompact.Answer{}, kompact.Errorf(kompact.EInvalid, "%s is not set: the agent's LLM needs an API key", cfg.APIKeyEnv).
				WithFixes(fmt.Sprintf("export %s=<your key>", cfg.APIKeyEnv))
		}
	}
	body, err := RequestBody(cfg.Model, msgs, cfg.Fields)
	if err != nil {
		return kompact.Answer{}, err
	}

	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithMaxRetries(0),
	}
	if c.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(c.HTTPClient))
	} else {
		opts = append(opts, option.WithHTTPClient(http.DefaultClient))
	}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	// NewChatCompletionService, unlike NewClient, reads nothing from the
	// environment: see the Client's documentation.
	svc := sdk.NewChatCompletionService(opts...)

	r := &request{
		client:   c,
		svc:      &svc,
		body:     body,
		key:      key,
		cfg:      cfg,
		host:     base.Host,
		progress: progress,
		timeout:  orDefault(c.RequestTimeout, DefaultRequestTimeout),
	}
	return r.run(ctx)
}

// checkBaseURL parses the configured base URL.
func checkBaseURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's LLM has no base_url").
			WithFixes("Set the agent's llm.base_url to the provider's API root, e.g. https://api.moonshot.ai/v1 (Ollama: http://127.0.0.1:11434/v1).")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's llm.base_url %q is not an http(s) URL", redactURL(s)).
			WithFixes("Set llm.base_url to the provider's API root, e.g. https://api.moonshot.ai/v1.")
	}
	return u, nil
}

// redactURL hides a URL's credentials and query before it is quoted.
func redactURL(s string) string { return kompact.RedactURL(s) }

// request is one Complete call: its attempts and retries.
type request struct {
	client   *Client
	svc      *sdk.ChatCompletionService
	body     []byte
	key      string
	cfg      kompact.RequestConfig
	host     string
	progress func(kompact.Progress)
	timeout  time.Duration
}

// failure is why an attempt failed.
type failure struct {
	kind failureKind
	// status is the HTTP status of an error answer.
	status int
	// provider is the provider's account of an error answer or error event.
	provider ProviderError
	// retryAfter is the provider's Retry-After; hasRetryAfter says whether
	// it gave one.
	retryAfter    time.Duration
	hasRetryAfter bool
	// err is the underlying error, when there is one.
	err error
	// timeout is the per-attempt timeout that ran out (failTimeout).
	timeout time.Duration
}

type failureKind int

const (
	failStatus      failureKind = iota // an HTTP error answer
	failConnection                     // the request or the stream broke
	failCut                            // the stream ended before it finished
	failTimeout                        // the attempt ran past RequestTimeout
	failStreamError                    // an error event or error chunk in the stream
	failCanceled                       // the caller's context is done
	failMalformed                      // the answer could not be read
)

func (f *failure) retryable() bool {
	switch f.kind {
	case failConnection, failCut, failTimeout:
		return true
	case failStatus:
		s := f.status
		return s == http.StatusTooManyRequests || s == http.StatusRequestTimeout || s >= 500
	}
	return false
}

func (r *request) run(ctx context.Context) (kompact.Answer, error) {
	maxAttempts := r.client.maxRetries() + 1
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return kompact.Answer{}, r.canceled(err)
		}
		answer, f := r.attempt(ctx)
		if f == nil {
			return answer, nil
		}
		if f.kind == failCanceled {
			return kompact.Answer{}, r.canceled(f.err)
		}
		if !f.retryable() {
			return kompact.Answer{}, r.fail(f, "")
		}
		if attempt >= maxAttempts {
			return kompact.Answer{}, r.fail(f, "gave up after "+attempts(attempt))
		}
		d := r.delay(f, attempt)
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
			return kompact.Answer{}, r.fail(f, fmt.Sprintf(
				"gave up after %s: the next retry, in %s, would come after the deadline", attempts(attempt), formatWait(d)))
		}
		r.progress(kompact.Progress{Waiting: fmt.Sprintf("%s, retrying in %s (attempt %d of %d)",
			f.short(), formatWait(d), attempt+1, maxAttempts)})
		if err := r.client.sleep(ctx, d); err != nil {
			return kompact.Answer{}, r.canceled(err)
		}
	}
}

// delay returns how long to wait before retry number n (from 1): the
// provider's Retry-After when it gave one, else the jittered backoff.
func (r *request) delay(f *failure, n int) time.Duration {
	maxBackoff := orDefault(r.client.MaxBackoff, DefaultMaxBackoff)
	if f.hasRetryAfter {
		limit := max(maxBackoff, MaxRetryAfter)
		return min(max(f.retryAfter, 0), limit)
	}
	backoff := orDefault(r.client.InitialBackoff, DefaultInitialBackoff)
	for i := 1; i < n && backoff < maxBackoff; i++ {
		backoff *= 2
	}
	backoff = min(backoff, maxBackoff)
	return rand.N(backoff + 1)
}

// attempts says "1 attempt", "2 attempts", ...
func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return strconv.Itoa(n) + " attempts"
}

// formatWait renders a wait for a progress message.
func formatWait(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.String()
}

// capture is what the SDK middleware saw of one attempt's response.
type capture struct {
	status    int
	header    http.Header
	errorBody []byte
	// jsonBody is a 2xx answer that came as JSON instead of a stream.
	jsonBody []byte
	// readErr is an error reading an error or JSON body.
	readErr error
	// sse watches a streamed body; contentType is its media type.
	sse         *sseWatcher
	contentType string
}

func (cp *capture) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res == nil || res.Body == nil {
		return res, err
	}
	cp.status = res.StatusCode
	cp.header = res.Header
	switch {
	case res.StatusCode >= 400:
		cp.errorBody, cp.readErr = io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		_ = res.Body.Close()
		res.Body = io.NopCloser(bytes.NewReader(cp.errorBody))
	case isJSON(res.Header.Get("Content-Type")):
		cp.jsonBody, cp.readErr = io.ReadAll(io.LimitReader(res.Body, maxJSONBody))
		_ = res.Body.Close()
		res.Body = io.NopCloser(bytes.NewReader(nil))
	default:
		cp.contentType, _, _ = mime.ParseMediaType(res.Header.Get("Content-Type"))
		cp.sse = &sseWatcher{ReadCloser: res.Body}
		res.Body = cp.sse
	}
	return res, nil
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// sseWatcher passes a response body through and notes whether the stream
// carried its terminating "data: [DONE]" line.
type sseWatcher struct {
	io.ReadCloser
	// line holds the first bytes of the current line.
	line []byte
	done bool
}

func (w *sseWatcher) Read(p []byte) (int, error) {
	n, err := w.ReadCloser.Read(p)
	for _, b := range p[:n] {
		if b == '\n' || b == '\r' {
			if bytes.HasPrefix(w.line, []byte("data: [DONE]")) || bytes.HasPrefix(w.line, []byte("data:[DONE]")) {
				w.done = true
			}
			w.line = w.line[:0]
			continue
		}
		if len(w.line) < 16 {
			w.line = append(w.line, b)
		}
	}
	return n, err
}

// attempt sends the request once and reads the answer.
func (r *request) attempt(ctx context.Context) (kompact.Answer, *failure) {
	actx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cp := &capture{}
	stream := r.svc.NewStreaming(actx, sdk.ChatCompletionNewParams{},
		option.WithRequestBody("application/json", bytes.Clone(r.body)),
		option.WithMiddleware(cp.middleware))
	defer stream.Close()

	acc := &Accumulator{}
	st := &streamState{acc: acc, progress: r.progress}
	var streamErr *failure
	for stream.Next() {
		if f := st.chunk(stream.Current()); f != nil {
			streamErr = f
			break
		}
	}
	err := stream.Err()

	// The caller's cancellation wins over everything else.
	if cerr := ctx.Err(); cerr != nil {
		return kompact.Answer{}, &failure{kind: failCanceled, err: cerr}
	}
	if cp.status >= 400 {
		return kompact.Answer{}, r.statusFailure(cp)
	}
	if streamErr != nil {
		return kompact.Answer{}, streamErr
	}
	if err == nil && cp.readErr == nil {
		if cp.jsonBody != nil {
			if isErrorObject(cp.jsonBody) {
				return kompact.Answer{}, &failure{kind: failStreamError, provider: ParseProviderError(cp.jsonBody)}
			}
			if err := st.completion(cp.jsonBody); err != nil {
				return kompact.Answer{}, &failure{kind: failMalformed, err: err}
			}
			st.report(true)
			return acc.Answer(), nil
		}
		if st.finished || (cp.sse != nil && cp.sse.done) {
			st.report(true)
			return acc.Answer(), nil
		}
	}
	if actx.Err() != nil {
		return kompact.Answer{}, &failure{kind: failTimeout, err: actx.Err(), timeout: r.timeout}
	}
	var se *ssestream.StreamError
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return kompact.Answer{}, &failure{kind: failStreamError, provider: ParseProviderError(se.Event.Data), err: err}
	case errors.As(err, &syn):
		return kompact.Answer{}, &failure{kind: failMalformed, err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return kompact.Answer{}, &failure{kind: failCut, err: err}
	case err != nil:
		return kompact.Answer{}, &failure{kind: failConnection, err: err}
	case cp.readErr != nil:
		return kompact.Answer{}, &failure{kind: failConnection, err: cp.readErr}
	case st.chunks == 0 && cp.contentType != "" && cp.contentType != "text/event-stream":
		return kompact.Answer{}, &failure{kind: failMalformed,
			err: fmt.Errorf("it answered with %s instead of an event stream", cp.contentType)}
	}
	return kompact.Answer{}, &failure{kind: failCut}
}

// statusFailure reads an HTTP error answer.
func (r *request) statusFailure(cp *capture) *failure {
	f := &failure{kind: failStatus, status: cp.status, provider: ParseProviderError(cp.errorBody)}
	if len(bytes.TrimSpace(cp.errorBody)) == 0 {
		f.provider = ProviderError{}
	}
	f.retryAfter, f.hasRetryAfter = retryAfter(cp.header, time.Now())
	return f
}

// retryAfter reads retry-after-ms (milliseconds) or Retry-After (seconds or
// an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || s > 1e9 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// streamState turns chunks into the accumulator's calls.
type streamState struct {
	acc      *Accumulator
	progress func(kompact.Progress)
	finished bool
	// chunks counts the chunks received.
	chunks int
	// topUsage says whether the chunk-level usage was seen; it takes
	// precedence over Moonshot's choice-level usage.
	topUsage   bool
	lastChars  int
	lastReport time.Time
}

// progressInterval throttles progress reports while the answer streams.
const progressInterval = 100 * time.Millisecond

// report sends the character count, at most every progressInterval unless
// final.
func (st *streamState) report(final bool) {
	now := time.Now()
	if !final && (st.acc.Chars == st.lastChars || now.Sub(st.lastReport) < progressInterval) {
		return
	}
	st.lastChars, st.lastReport = st.acc.Chars, now
	st.progress(kompact.Progress{Chars: st.acc.Chars})
}

// chunk feeds one streamed chunk to the accumulator; it returns a failure
// for an error chunk.
func (st *streamState) chunk(ch sdk.ChatCompletionChunk) *failure {
	st.chunks++
	if isErrorChunk(&ch) {
		p := ParseProviderError([]byte(ch.RawJSON()))
		return &failure{kind: failStreamError, provider: p}
	}
	if ch.JSON.Usage.Valid() {
		if u, ok := usageOf(&ch.Usage); ok {
			st.acc.Usage(u)
			st.topUsage = true
		}
	}
	for i := range ch.Choices {
		c := &ch.Choices[i]
		if c.Index != 0 {
			continue
		}
		d := &c.Delta
		st.acc.Reasoning(reasoningOf(d.JSON.ExtraFields))
		st.acc.Content(d.Content)
		for j := range d.ToolCalls {
			tc := &d.ToolCalls[j]
			st.acc.ToolCall(int(tc.Index), tc.ID, tc.Function.Name, tc.Function.Arguments)
		}
		if c.FinishReason != "" {
			st.finished = true
		}
		if raw := extraRaw(c.JSON.ExtraFields, "usage"); raw != "" && !st.topUsage {
			var cu sdk.CompletionUsage
			if json.Unmarshal([]byte(raw), &cu) == nil {
				if u, ok := usageOf(&cu); ok {
					st.acc.Usage(u)
				}
			}
		}
	}
	st.report(false)
	return nil
}

// completion feeds a non-streamed chat.completion answer to the
// accumulator, for providers that ignore "stream": true.
func (st *streamState) completion(body []byte) error {
	var cc sdk.ChatCompletion
	if err := json.Unmarshal(body, &cc); err != nil {
		return err
	}
	if cc.JSON.Usage.Valid() {
		if u, ok := usageOf(&cc.Usage); ok {
			st.acc.Usage(u)
		}
	}
	for i := range cc.Choices {
		c := &cc.Choices[i]
		if c.Index != 0 {
			continue
		}
		m := &c.Message
		st.acc.Reasoning(reasoningOf(m.JSON.ExtraFields))
		st.acc.Content(m.Content)
		for j := range m.ToolCalls {
			tc := &m.ToolCalls[j]
			st.acc.ToolCall(j, tc.ID, tc.Function.Name, tc.Function.Arguments)
		}
		st.finished = true
	}
	return nil
}

// reasoningOf returns the reasoning text of a delta or message:
// "reasoning_content" (Moonshot, DeepSeek, vLLM) or "reasoning" (Ollama,
// OpenRouter).
func reasoningOf(extra map[string]respjson.Field) string {
	for _, k := range []string{"reasoning_content", "reasoning"} {
		raw := extraRaw(extra, k)
		if raw == "" {
			continue
		}
		var s string
		if json.Unmarshal([]byte(raw), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// extraRaw returns the raw JSON of a field the SDK does not know, "" when it
// is absent or null. (The SDK marks such fields invalid, so Valid cannot
// tell.)
func extraRaw(extra map[string]respjson.Field, key string) string {
	f, ok := extra[key]
	if !ok {
		return ""
	}
	if raw := f.Raw(); raw != "null" {
		return raw
	}
	return ""
}

// isErrorObject reports whether a JSON answer is an error object rather
// than a chat.completion.
func isErrorObject(body []byte) bool {
	var v struct {
		Error  json.RawMessage `json:"error"`
		Object string          `json:"object"`
	}
	if json.Unmarshal(body, &v) != nil {
		return false
	}
	return v.Object == "error" || (len(v.Error) > 0 && string(v.Error) != "null")
}

// isErrorChunk reports whether a streamed object is an error rather than a
// chunk: {"object": "error", ...} (vLLM), or an object with neither choices
// nor usage that carries a message. ({"error": ...} objects are caught by
// the SDK.)
func isErrorChunk(ch *sdk.ChatCompletionChunk) bool {
	if ch.Object == "error" {
		return true
	}
	if ch.JSON.Choices.Valid() || ch.JSON.Usage.Valid() {
		return false
	}
	_, msg := ch.JSON.ExtraFields["message"]
	_, detail := ch.JSON.ExtraFields["detail"]
	return msg || detail
}

// usageOf maps a usage report; ok is false when it reports no tokens.
func usageOf(u *sdk.CompletionUsage) (kompact.Usage, bool) {
	if u.PromptTokens == 0 && u.CompletionTokens == 0 {
		return kompact.Usage{}, false
	}
	var top, details *int64
	if raw := extraRaw(u.JSON.ExtraFields, "cached_tokens"); raw != "" {
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			top = &n
		}
	}
	if u.PromptTokensDetails.JSON.CachedTokens.Valid() {
		n := u.PromptTokensDetails.CachedTokens
		details = &n
	}
	return UsageFrom(u.PromptTokens, u.CompletionTokens, top, details), true
}

// HTTPError is the cause of an ELLM error for an HTTP error answer: the
// status and what the provider said. When the provider said that the input
// does not fit the model's context window, it wraps
// kompact.ErrContextTooLong.
type HTTPError struct {
	StatusCode int
	// Message, Type and Code are the provider's (see ProviderError), with
	// the API key, should the provider echo it, redacted.
	Message, Type, Code string
	// ContextTooLong says whether the provider refused an input too long.
	ContextTooLong bool
}

// Error describes the answer.
func (e *HTTPError) Error() string {
	s := "HTTP " + strconv.Itoa(e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		s += " " + t
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns kompact.ErrContextTooLong for an input too long, else nil.
func (e *HTTPError) Unwrap() error {
	if e.ContextTooLong {
		return kompact.ErrContextTooLong
	}
	return nil
}

// StreamError is the cause of an ELLM error for an error the provider sent
// inside the stream. When it says that the input does not fit the model's
// context window, it wraps kompact.ErrContextTooLong.
type StreamError struct {
	Message, Type, Code string
	ContextTooLong      bool
}

// Error describes the error event.
func (e *StreamError) Error() string {
	if e.Message == "" {
		return "error event in the stream"
	}
	return "error event in the stream: " + e.Message
}

// Unwrap returns kompact.ErrContextTooLong for an input too long, else nil.
func (e *StreamError) Unwrap() error {
	if e.ContextTooLong {
		return kompact.ErrContextTooLong
	}
	return nil
}

// redact removes the API key from provider text. (Keys too short to be
// secrets are left alone, so that they cannot garble messages.)
func (r *request) redact(s string) string {
	if len(r.key) < 4 {
		return s
	}
	return strings.ReplaceAll(s, r.key, "[redacted]")
}

func (r *request) redactProvider(p ProviderError) ProviderError {
	return ProviderError{Message: r.redact(p.Message), Type: r.redact(p.Type), Code: r.redact(p.Code)}
}

// short says in a few words what went wrong, for progress reports.
func (f *failure) short() string {
	switch f.kind {
	case failStatus:
		switch {
		case f.status == http.StatusTooManyRequests:
			return "rate limited (429)"
		case f.status == http.StatusRequestTimeout:
			return "request timed out (408)"
		default:
			return fmt.Sprintf("server error (%d)", f.status)
		}
	case failTimeout:
		return "no complete answer within " + f.timeout.String()
	case failCut:
		return "the stream was cut off"
	default:
		return "connection failed"
	}
}

// canceled is the error for a done context.
func (r *request) canceled(err error) error {
	what := "cancelled"
	if errors.Is(err, context.DeadlineExceeded) {
		what = "stopped: its deadline passed"
	}
	return (&kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the LLM request to %s was %s", r.host, what), Err: err}).
		WithFixes("Run the compaction again when you are ready.")
}

// fail builds the error for failure f; gaveUp, when not empty, says why
// there is no further retry.
func (r *request) fail(f *failure, gaveUp string) error {
	var cause error
	var what string
	var fixes []string
	where := fmt.Sprintf("the LLM at %s (model %s)", r.host, r.cfg.Model)
	keyFix := "This agent sends no API key (llm.api_key_env is not set); set it if the provider needs one."
	if r.cfg.APIKeyEnv != "" {
		keyFix = fmt.Sprintf("Check the API key in %s: it must be a valid key for %s with access to %s.", r.cfg.APIKeyEnv, r.host, r.cfg.Model)
	}
	switch f.kind {
	case failStatus:
		p := r.redactProvider(f.provider)
		he := &HTTPError{StatusCode: f.status, Message: p.Message, Type: p.Type, Code: p.Code,
			ContextTooLong: IsContextTooLong(f.status, p)}
		cause = he
		what = fmt.Sprintf("%s answered %s", where, he.Error())
		if p.Code != "" && !strings.Contains(p.Message, p.Code) {
			what += " (" + p.Code + ")"
		}
		switch {
		case he.ContextTooLong:
			fixes = append(fixes, "Compact a shorter range, or use a compaction model with a larger context window (compaction_model).")
		case f.status == http.StatusUnauthorized || f.status == http.StatusForbidden:
			fixes = append(fixes, keyFix)
		case f.status == http.StatusNotFound:
			fixes = append(fixes, fmt.Sprintf("Check the agent's llm.base_url (%s) and the model name (%s): one of them is unknown to the provider.", redactURL(r.cfg.BaseURL), r.cfg.Model))
		case f.status == http.StatusTooManyRequests:
			fixes = append(fixes, "Wait a while and retry, or raise the provider's rate limits for this key.")
		case f.status >= 500:
			fixes = append(fixes, "The provider is having trouble; retry later.")
		case f.status == http.StatusRequestTimeout:
			fixes = append(fixes, "The provider timed out; retry later.")
		default:
			fixes = append(fixes, "The provider refused the request; check the compaction settings (settings_overrides, llm.settings) and the model.")
		}
	case failStreamError:
		p := r.redactProvider(f.provider)
		se := &StreamError{Message: p.Message, Type: p.Type, Code: p.Code, ContextTooLong: IsContextTooLongError(p)}
		cause = se
		what = fmt.Sprintf("%s sent an %s", where, se.Error())
		if se.ContextTooLong {
			fixes = append(fixes, "Compact a shorter range, or use a compaction model with a larger context window (compaction_model).")
		} else {
			fixes = append(fixes, "Retry; if it persists, check the provider's status.")
		}
	case failTimeout:
		cause = f.err
		what = fmt.Sprintf("%s did not finish its answer within %s", where, r.timeout)
		fixes = append(fixes, "Retry later, or raise the client's request timeout.")
	case failCut:
		cause = f.err
		if cause == nil {
			cause = io.ErrUnexpectedEOF
		}
		what = fmt.Sprintf("%s closed the stream before the answer was complete", where)
		fixes = append(fixes, "Retry later; the provider, or a proxy in between, is dropping long streams.")
	case failMalformed:
		cause = f.err
		what = fmt.Sprintf("%s sent an answer that cannot be read: %s", where, r.redact(f.err.Error()))
		fixes = append(fixes, "Check that llm.base_url points at an OpenAI-compatible chat-completions API.")
	default: // failConnection
		cause = f.err
		what = fmt.Sprintf("could not reach %s: %s", where, r.redact(errorText(f.err)))
		fixes = append(fixes, fmt.Sprintf("Check that %s is reachable from here (network, proxy, llm.base_url).", redactURL(r.cfg.BaseURL)))
	}
	if gaveUp != "" {
		what += "; " + gaveUp
	}
	return (&kompact.Error{Code: kompact.ELLM, Message: what, Err: cause}).WithFixes(fixes...)
}

// errorText describes a transport error without the request URL that
// net/http puts in front of it (the host is named already).
func errorText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
