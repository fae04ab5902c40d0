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
	"strings"
	"time"

	"kompact"
	"kompact/internal/llmclient"
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
//
// Its settings are llmclient.Settings' (openai.Client's) and its attempts
// run llmclient.Run's loop with this file's classifier (failure).
type Client llmclient.Settings

var _ kompact.LLM = (*Client)(nil)

// failure is one failed attempt, classified: whether it is worth
// retrying and the Retry-After of its answer.
type failure struct {
	err        error
	retry      bool
	retryAfter time.Duration
	hasAfter   bool
}

// Retry, RetryAfter and Short make failure an llmclient.Failure.
func (f *failure) Retry() bool                       { return f.retry }
func (f *failure) RetryAfter() (time.Duration, bool) { return f.retryAfter, f.hasAfter }
func (f *failure) Short() string                     { return kompact.AsError(f.err).Message }

// Complete sends msgs as a streamed Messages request (requestBody) and
// returns the answer: its thinking and text as parts, its tool_use blocks
// as tool calls, its usage.
func (c *Client) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	base, key, err := (*llmclient.Settings)(c).Target(cfg, baseURL)
	if err != nil {
		return kompact.Answer{}, err
	}
	body, err := requestBody(cfg, msgs)
	if err != nil {
		return kompact.Answer{}, kompact.Errorf(kompact.EInvalid, "the request does not encode: %v", err)
	}
	url := endpoint(base, "messages").String()
	return llmclient.Run(ctx, (*llmclient.Settings)(c), llmclient.Call{
		Host: base.Host,
		Attempt: func(ctx context.Context, report func(kompact.Progress)) (kompact.Answer, llmclient.Failure) {
			ans, f := c.attempt(ctx, url, key, body, kompact.AnswerLimit(cfg.MaxAnswerBytes), report)
			if f == nil {
				return ans, nil
			}
			return ans, f
		},
		Fail: func(f llmclient.Failure, gaveUp string) error { return withGaveUp(f.(*failure).err, gaveUp) },
	}, progress)
}

// withGaveUp adds to err why there is no further attempt, if any.
func withGaveUp(err error, gaveUp string) error {
	if gaveUp == "" {
		return err
	}
	e := *kompact.AsError(err)
	e.Message = fmt.Sprintf("%s (%s)", e.Message, gaveUp)
	return &e
}

// attempt sends the request once, within RequestTimeout, and reads its
// stream.
func (c *Client) attempt(ctx context.Context, url, key string, body []byte, maxAnswer int64, report func(kompact.Progress)) (kompact.Answer, *failure) {
	ctx, cancel := context.WithTimeout(ctx, (*llmclient.Settings)(c).Timeout())
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
	resp, err := sameHostClient((*llmclient.Settings)(c).HTTP()).Do(req)
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
	f := &failure{retry: llmclient.RetryStatus(resp.StatusCode)}
	f.retryAfter, f.hasAfter = llmclient.RetryAfter(resp.Header, time.Now())
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
