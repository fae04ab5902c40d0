package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"kompact"
)

// The error codes of the HTTP transport, besides the domain's own.
const (
	// EUnauthorized: the server needs a bearer token and the request has
	// none, or the wrong one.
	EUnauthorized kompact.ErrorCode = "unauthorized"
	// ETooLarge: the request body exceeds the server's limit, or a
	// preview the budget of previews (kompact.ETooLarge).
	ETooLarge = kompact.ETooLarge
	// EUnsupportedMediaType: the request body is not declared as JSON.
	EUnsupportedMediaType kompact.ErrorCode = "unsupported_media_type"
	// EUnreachable: a Client could not reach the server. The server never
	// answers with it.
	EUnreachable kompact.ErrorCode = "unreachable"
)

// statusOf is the one table from error codes to HTTP statuses. A code that
// is not listed (there should be none) answers 500.
var statusOf = map[kompact.ErrorCode]int{
	kompact.EInvalid:       http.StatusBadRequest,
	EUnauthorized:          http.StatusUnauthorized,
	kompact.EDisabled:      http.StatusForbidden,
	kompact.ENotFound:      http.StatusNotFound,
	kompact.EConflict:      http.StatusConflict,
	kompact.ENotReduced:    http.StatusConflict,
	ETooLarge:              http.StatusRequestEntityTooLarge,
	EUnsupportedMediaType:  http.StatusUnsupportedMediaType,
	kompact.EForbidden:     http.StatusForbidden,
	kompact.EBusy:          http.StatusTooManyRequests,
	kompact.ELLM:           http.StatusBadGateway,
	kompact.EEmptyResponse: http.StatusBadGateway,
	kompact.EUnavailable:   http.StatusServiceUnavailable,
	kompact.EInternal:      http.StatusInternalServerError,
}

// StatusOf returns the HTTP status of an error code.
func StatusOf(code kompact.ErrorCode) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// internalMessage is all a client learns about an internal error.
const internalMessage = "internal error"

// publicError returns what a client may see of err: its code, message and
// fixes, or only "internal error" for an internal one. It logs internal
// errors in full.
func (s *Server) publicError(r *http.Request, err error) *kompact.Error {
	var e *kompact.Error
	if !errors.As(err, &e) || e.Code == kompact.EInternal || StatusOf(e.Code) == http.StatusInternalServerError {
		s.log.LogAttrs(r.Context(), slog.LevelError, "internal error",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("error", err.Error()))
		return &kompact.Error{Code: kompact.EInternal, Message: internalMessage, Fixes: []string{}}
	}
	if e.Code == kompact.EUnavailable {
		s.log.LogAttrs(r.Context(), slog.LevelError, "store unavailable",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("error", errorChain(e)))
	}
	fixes := e.Fixes
	if fixes == nil {
		fixes = []string{}
	}
	return &kompact.Error{Code: e.Code, Message: e.Error(), Fixes: fixes}
}

// writeError answers with err's status and its public form as a
// kompact.ErrorBody: {"code", "message", "fixes"}.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := s.publicError(r, err)
	retryLater(w, e.Code)
	writeJSON(w, StatusOf(e.Code), e)
}

// retryLater sets Retry-After on an answer that an outage or a full
// server (busy: no action slot free) made fail: the same request may
// succeed then.
func retryLater(w http.ResponseWriter, code kompact.ErrorCode) {
	if code == kompact.EUnavailable || code == kompact.EBusy {
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
	}
}

// errorChain is e's message and its cause's, for the log.
func errorChain(e *kompact.Error) string {
	if e.Err == nil {
		return e.Message
	}
	return e.Message + ": " + e.Err.Error()
}
