package kompact

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrorCode classifies an Error. Transports map codes to their own status values (HTTP
// statuses, exit codes) in one table each.
type ErrorCode string

// The error codes kompact reports.
const (
	// EInvalid: the request or the session is malformed; the caller must change it.
	EInvalid ErrorCode = "invalid_request"
	// ENotFound: a named session or message does not exist.
	ENotFound ErrorCode = "not_found"
	// EDisabled: compaction is not enabled for the agent.
	EDisabled ErrorCode = "disabled"
	// ELLM: the LLM provider failed or refused the request.
	ELLM ErrorCode = "llm_error"
	// EEmptyResponse: the LLM answered without any summary text.
	EEmptyResponse ErrorCode = "empty_response"
	// EConflict: the session changed in a way that makes the result stale.
	EConflict ErrorCode = "conflict"
	// ENotReduced: an automatic compaction would not have lowered the session's token count, so
	// it was not committed (see CheckReduction).
	ENotReduced ErrorCode = "not_reduced"
	// EInternal: a bug or an unexpected failure.
	EInternal ErrorCode = "internal"
	// EForbidden: the request came from somewhere the server does not answer: a Host it does
	// not serve, or another site's page.
	EForbidden ErrorCode = "forbidden"
	// EBusy: the server already runs as many actions as it allows; retry later.
	EBusy ErrorCode = "busy"
	// ETooLarge: something exceeds a size limit: a request body the server's limit, a preview
	// the byte budget of all previews.
	ETooLarge ErrorCode = "too_large"
	// EUnavailable: the store is out of order for now (its database does not answer, its disk
	// is full); nothing was changed, and the same request may succeed later.
	EUnavailable ErrorCode = "unavailable"
)

// Error is kompact's error value: a code, a message a person can act on, concrete fixes, and
// the underlying cause when there is one.
type Error struct {
	Code    ErrorCode
	Message string
	Fixes   []string
	Err     error
}

// Error returns the message, followed by the cause when there is one.
func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorBody is the JSON form of an Error: the "error" of an outcome, and the body of every
// error answer of the HTTP API.
type ErrorBody struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
	Fixes   []string  `json:"fixes"`
}

// MarshalJSON writes e as an ErrorBody: its code, its message (without the cause) and its
// fixes, [] when it has none.
func (e *Error) MarshalJSON() ([]byte, error) {
	return json.Marshal(ErrorBody{Code: e.Code, Message: e.Message, Fixes: nonNil(e.Fixes)})
}

// WithFixes returns e with fixes appended.
func (e *Error) WithFixes(fixes ...string) *Error {
	e.Fixes = append(e.Fixes, fixes...)
	return e
}

// Errorf returns an Error with the given code and a formatted message. A %w verb in format
// records the wrapped error as the cause.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: err.Error(), Err: errors.Unwrap(err)}
}

// ErrorCodeOf returns the code of the first *Error in err's chain, EInternal for any other
// non-nil error and "" for nil.
func ErrorCodeOf(err error) ErrorCode {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorFixes returns the fixes of the first *Error in err's chain.
func ErrorFixes(err error) []string {
	var e *Error
	if errors.As(err, &e) {
		return e.Fixes
	}
	return nil
}
