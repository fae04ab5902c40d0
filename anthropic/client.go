package anthropic

// This file is kompact's own Messages client (a compaction's call, a
// continue's): kompact.LLM over the Messages API's wire form, with the
// retries, deadlines and answer cap of openai.Client.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/internal/backoff"
)

// The Client's defaults, openai.Client's (internal/backoff's).
const (
	DefaultMaxRetries     = backoff.DefaultMaxRetries
	DefaultInitialBackoff = backoff.DefaultInitial
	DefaultMaxBackoff     = backoff.DefaultMax
	DefaultRequestTimeout = backoff.DefaultRequestTimeout
	MaxRetryAfter         = backoff.MaxRetryAfter
)

// Version is the anthropic-version header of kompact's own requests.
const Version = "2023-06-01"

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 64 << 10

// Client sends kompact's own requests to a Messages API and implements
// kompact.LLM. The zero value is ready to use. Every request streams.
// Rate limits (429), overload (529), server errors (5xx), timeouts (408),
// connection failures, streams that break off or carry an error event,
// and attempts past RequestTimeout are retried with exponential backoff
// and full jitter, honouring Retry-After; a "prompt is too long" answer is
// returned at once wrapping kompact.ErrContextTooLong; an answer past
// RequestConfig.MaxAnswerBytes stops the call at once with an ELLM error
// wrapping kompact.ErrAnswerTooLarge. The key (x-api-key) never appears in
// an error.
type Client struct {
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Getenv reads RequestConfig.APIKeyEnv; nil means os.Getenv.
	Getenv func(string) string
	// MaxRetries: 0 means DefaultMaxRetries, negative never.
	MaxRetries int
	// InitialBackoff, MaxBackoff and RequestTimeout: 0 means their
	// defaults.
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	RequestTimeout time.Duration
	// Sleep waits before a retry; nil means a real timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

var _ kompact.LLM = (*Client)(nil)

// Either is a kompact.LLM that sends the requests of an agent with
// llm.api: anthropic (RequestConfig.API) through Messages, and every other
// through Other (openai.Client).
type Either struct {
	Messages *Client
	Other    kompact.LLM
}

// Complete sends the request through the client of cfg's API.
func (e Either) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	if cfg.API == API {
		return e.Messages.Complete(ctx, cfg, msgs, progress)
	}
	return e.Other.Complete(ctx, cfg, msgs, progress)
}

// failure is one failed attempt.
type failure struct {
	err        error
	retry      bool
	retryAfter time.Duration
	hasAfter   bool
}

// Complete sends msgs as a streamed Messages request (requestBody) and
// returns the answer: its thinking and text as parts, its tool_use blocks
// as tool calls, its usage.
func (c *Client) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	if progress == nil {
		progress = func(kompact.Progress) {}
	}
	base, err := baseURL(cfg.BaseURL)
	if err != nil {
		return kompact.Answer{}, err
	}
	if cfg.Model == "" {
		return kompact.Answer{}, kompact.Errorf(kompact.EInvalid, "the agent's LLM has no model to send the request to").
			WithFixes("Set the agent's llm.model, or compaction.compaction_model.")
	}
	key, err := apiKey(c.Getenv, cfg.APIKeyEnv)
	if err != nil {
		return kompact.Answer{}, err
	}
	body, err := requestBody(cfg, msgs)
	if err != nil {
		return kompact.Answer{}, kompact.Errorf(kompact.EInvalid, "the request does not encode: %v", err)
	}
	tries := max(c.MaxRetries, 0) + 1
	if c.MaxRetries == 0 {
		tries = DefaultMaxRetries + 1
	}
	for attempt := 1; ; attempt++ {
		report := func(p kompact.Progress) { p.Attempt, p.MaxAttempts = attempt, tries; progress(p) }
		ans, f := c.attempt(ctx, endpoint(base, "messages").String(), key, body, kompact.AnswerLimit(cfg.MaxAnswerBytes), report)
		if f == nil {
			return ans, nil
		}
		if ctx.Err() != nil {
			return kompact.Answer{}, &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the request to %s was stopped: %v", base.Host, ctx.Err()), Err: ctx.Err()}
		}
		if !f.retry || attempt >= tries {
			return kompact.Answer{}, withAttempts(f.err, attempt)
		}
		d := c.delay(f, attempt)
		report(kompact.Progress{Waiting: fmt.Sprintf("attempt %d of %d, retrying in %s: %s", attempt+1, tries, d.Round(time.Millisecond), kompact.AsError(f.err).Message), RetryIn: d.Seconds()})
		if err := c.sleep(ctx, d); err != nil {
			return kompact.Answer{}, &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the request to %s was stopped: %v", base.Host, err), Err: err}
		}
	}
}

// withAttempts says how many attempts a failure came after.
func withAttempts(err error, n int) error {
	if n == 1 {
		return err
	}
	e := *kompact.AsError(err)
	e.Message = fmt.Sprintf("%s (gave up after %d attempts)", e.Message, n)
	return &e
}

// attempt sends the request once, within RequestTimeout, and reads its
// stream.
func (c *Client) attempt(ctx context.Context, url, key string, body []byte, maxAnswer int64, report func(kompact.Progress)) (kompact.Answer, *failure) {
	ctx, cancel := context.WithTimeout(ctx, orDefault(c.RequestTimeout, DefaultRequestTimeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return kompact.Answer{}, &failure{err: kompact.Errorf(kompact.EInvalid, "the request cannot be made: %s", errorText(err))}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Anthropic-Version", Version)
	if key != "" {
		req.Header.Set("X-Api-Key", key)
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := sameHostClient(hc).Do(req)
	if err != nil {
		return kompact.Answer{}, &failure{err: &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the LLM at %s could not be reached: %s", req.URL.Host, errorText(err)), Err: err}, retry: true}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return kompact.Answer{}, statusFailure(resp, req.URL.Host)
	}
	sr := streamReader{maxAnswer: maxAnswer, report: report}
	if err := sr.read(resp.Body); err != nil {
		return kompact.Answer{}, &failure{err: wrapLLM(err, req.URL.Host), retry: !errors.Is(err, kompact.ErrAnswerTooLarge)}
	}
	return sr.answer(), nil
}

// statusFailure is the failure of an answer with an error status.
func statusFailure(resp *http.Response, host string) *failure {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	msg := errorMessage(b)
	f := &failure{retry: resp.StatusCode == 408 || resp.StatusCode == 429 || resp.StatusCode >= 500}
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.ParseFloat(s, 64); err == nil && n >= 0 {
			f.retryAfter, f.hasAfter = time.Duration(n*float64(time.Second)), true
		}
	}
	e := &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the LLM at %s answered %d: %s", host, resp.StatusCode, msg)}
	if (resp.StatusCode == 400 || resp.StatusCode == 413) && strings.Contains(strings.ToLower(msg), "prompt is too long") {
		e.Err = kompact.ErrContextTooLong
	}
	f.err = e
	return f
}

// errorMessage is the message of an error body in Anthropic's form, or
// the start of the body.
func errorMessage(b []byte) string {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if jsonUnmarshal(b, &e) == nil && e.Error.Message != "" {
		return e.Error.Type + ": " + e.Error.Message
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// wrapLLM makes err an ELLM error naming host.
func wrapLLM(err error, host string) error {
	var e *kompact.Error
	if errors.As(err, &e) {
		return err
	}
	return &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the LLM at %s: %s", host, errorText(err)), Err: err}
}

// delay is the wait before retry n: Retry-After (up to MaxRetryAfter),
// else the jittered backoff.
func (c *Client) delay(f *failure, n int) time.Duration {
	return backoff.Delay(c.InitialBackoff, c.MaxBackoff, n, f.retryAfter, f.hasAfter)
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	return backoff.Sleep(ctx, d, c.Sleep)
}

func orDefault(d, def time.Duration) time.Duration { return backoff.Or(d, def) }
