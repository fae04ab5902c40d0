package anthropic

// This file is the classifier of a failed attempt of the Client
// (llmclient.Failure): which failures are retried, and how they are worded.

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"kompact"
	"kompact/internal/llmclient"
)

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 64 << 10

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

// withGaveUp adds to err why there is no further attempt, if any.
func withGaveUp(err error, gaveUp string) error {
	if gaveUp == "" {
		return err
	}
	e := *kompact.AsError(err)
	e.Message = fmt.Sprintf("%s (%s)", e.Message, gaveUp)
	return &e
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
