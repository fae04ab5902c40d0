package openai

// This file holds why an attempt fails (the failure kinds, which are
// retried) and how a failure is worded in the errors Complete returns.

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/internal/bytesize"
	"kompact/internal/llmclient"
)

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
	// limit is the answer cap that was passed (failTooLarge).
	limit int64
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
	failTooLarge                       // the answer went past the answer cap
	failLineTooLong                    // an event line too long to read
)

// lengthRequired reports whether f is a 411 Length Required answer: the
// server wants the body with a Content-Length. f may be nil.
func (f *failure) lengthRequired() bool {
	return f != nil && f.kind == failStatus && f.status == http.StatusLengthRequired
}

// Retry is the classifier's verdict (llmclient.Failure): a broken
// connection, a cut stream, an attempt out of time and an error status
// worth retrying (llmclient.RetryStatus) get another attempt.
func (f *failure) Retry() bool {
	switch f.kind {
	case failConnection, failCut, failTimeout:
		return true
	case failStatus:
		return llmclient.RetryStatus(f.status)
	}
	return false
}

// RetryAfter is the provider's Retry-After (llmclient.Failure).
func (f *failure) RetryAfter() (time.Duration, bool) { return f.retryAfter, f.hasRetryAfter }

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

// Short says in a few words what went wrong, for progress reports
// (llmclient.Failure).
func (f *failure) Short() string {
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
	case failTooLarge, failLineTooLong:
		cause = kompact.ErrAnswerTooLarge
		what, fixes = r.tooLarge(f, where)
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

// tooLarge words the error of an answer past the cap, or of an event
// line too long to read.
func (r *request) tooLarge(f *failure, where string) (string, []string) {
	limit := bytesize.FormatBytes(r.maxAnswer)
	fixes := []string{fmt.Sprintf("Raise the agent's llm.max_answer_bytes (now %s) if answers this long are expected; otherwise check the model and its settings (max_tokens): nothing was written.", limit)}
	if f.kind == failLineTooLong {
		return fmt.Sprintf("%s sent %s in its stream, more than an answer of at most %s (llm.max_answer_bytes) needs; the call was stopped and nothing was written",
			where, f.err.Error(), limit), fixes
	}
	return fmt.Sprintf("%s sent an answer longer than %s (llm.max_answer_bytes); the call was stopped and nothing was written", where, limit), fixes
}

// errorText describes a transport error without the request URL that
// net/http puts in front of it (the host is named already):
// llmclient.ErrorText.
func errorText(err error) string { return llmclient.ErrorText(err) }
