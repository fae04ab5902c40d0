package openai

// This file is one attempt: it sends the request once, watches the
// response through the SDK middleware and classifies what went wrong.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"kompact"
	"kompact/internal/bytesize"
	"kompact/internal/llmclient"
)

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
	// maxLine bounds an event line of the stream (sseWatcher.maxLine).
	maxLine int
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
		// One byte more than a line may hold tells an answer too large.
		cp.jsonBody, cp.readErr = io.ReadAll(io.LimitReader(res.Body, int64(min(cp.maxLine, maxJSONBody))+1))
		_ = res.Body.Close()
		res.Body = io.NopCloser(bytes.NewReader(nil))
	default:
		cp.contentType, _, _ = mime.ParseMediaType(res.Header.Get("Content-Type"))
		cp.sse = &sseWatcher{ReadCloser: res.Body, maxLine: cp.maxLine}
		res.Body = cp.sse
	}
	return res, nil
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// sseWatcher passes a response body through and notes whether the stream
// carried its terminating "data: [DONE]" line. A line longer than maxLine
// ends the stream with a *lineTooLong error, before the SDK's decoder
// buffers it whole.
type sseWatcher struct {
	io.ReadCloser
	// line holds the first bytes of the current line; lineLen is its
	// length.
	line    []byte
	lineLen int
	maxLine int
	done    bool
}

func (w *sseWatcher) Read(p []byte) (int, error) {
	n, err := w.ReadCloser.Read(p)
	for _, b := range p[:n] {
		if b == '\n' || b == '\r' {
			if bytes.HasPrefix(w.line, []byte("data: [DONE]")) || bytes.HasPrefix(w.line, []byte("data:[DONE]")) {
				w.done = true
			}
			w.line, w.lineLen = w.line[:0], 0
			continue
		}
		if len(w.line) < 16 {
			w.line = append(w.line, b)
		}
		w.lineLen++
	}
	if w.maxLine > 0 && w.lineLen > w.maxLine {
		return n, &lineTooLong{limit: w.maxLine}
	}
	return n, err
}

// lineTooLong is the error of an event line longer than the client reads.
type lineTooLong struct{ limit int }

func (e *lineTooLong) Error() string {
	return "an event line longer than " + bytesize.FormatBytes(int64(e.limit))
}

// maxSDKLine is the longest line the SDK's event-stream decoder reads
// (bufio.MaxScanTokenSize<<9, 32 MiB), less a margin: the watcher stops a
// longer one first, so that it is reported as what it is.
const maxSDKLine = bufio.MaxScanTokenSize<<9 - 1<<10

// maxLineFor bounds an event line for an answer cap of maxAnswer bytes:
// one chunk whose text, JSON-escaped (at most 6 bytes a byte), fills the
// cap, with room for the chunk's other fields; never more than the SDK
// reads.
func maxLineFor(maxAnswer int64) int {
	return int(min(6*maxAnswer+64<<10, maxSDKLine))
}

// attempt sends the request once and reads the answer.
func (r *request) attempt(ctx context.Context, report func(kompact.Progress)) (kompact.Answer, *failure) {
	// Once the attempt's context is done (deferred calls run in reverse
	// order), wait for the body's encoders: none outlives the attempt.
	defer r.body.wait()
	actx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cp := &capture{maxLine: maxLineFor(r.maxAnswer)}
	stream := r.send(actx, cp)
	defer stream.Close()

	acc := &Accumulator{}
	st := &streamState{acc: acc, progress: report, maxBytes: r.maxAnswer}
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
			if len(cp.jsonBody) > min(cp.maxLine, maxJSONBody) {
				return kompact.Answer{}, &failure{kind: failLineTooLong, err: &lineTooLong{limit: min(cp.maxLine, maxJSONBody)}}
			}
			if isErrorObject(cp.jsonBody) {
				return kompact.Answer{}, &failure{kind: failStreamError, provider: ParseProviderError(cp.jsonBody)}
			}
			if err := st.completion(cp.jsonBody); err != nil {
				return kompact.Answer{}, &failure{kind: failMalformed, err: err}
			}
			if f := st.overCap(); f != nil {
				return kompact.Answer{}, f
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
	case errors.As(err, new(*lineTooLong)), errors.Is(err, bufio.ErrTooLong):
		return kompact.Answer{}, &failure{kind: failLineTooLong, err: err}
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

// send posts the body and returns the answer's event stream. It does not
// use the SDK's NewStreaming, which would encode the body itself, whole, to
// set "stream" (the body has it); the SDK never sees the body, which the
// body's middleware streams into the HTTP request.
func (r *request) send(ctx context.Context, cp *capture) *ssestream.Stream[sdk.ChatCompletionChunk] {
	var raw *http.Response
	err := r.sdk.Post(ctx, "chat/completions", nil, &raw,
		option.WithMiddleware(r.body.middleware(ctx)),
		option.WithMiddleware(cp.middleware))
	return ssestream.NewStream[sdk.ChatCompletionChunk](ssestream.NewDecoder(raw), err)
}

// statusFailure reads an HTTP error answer.
func (r *request) statusFailure(cp *capture) *failure {
	f := &failure{kind: failStatus, status: cp.status, provider: ParseProviderError(cp.errorBody)}
	if len(bytes.TrimSpace(cp.errorBody)) == 0 {
		f.provider = ProviderError{}
	}
	f.retryAfter, f.hasRetryAfter = llmclient.RetryAfter(cp.header, time.Now())
	return f
}
