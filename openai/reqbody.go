package openai

// This file is the request body on its way out: written into the HTTP
// request as WriteRequestBody produces it, anew for each attempt, never
// held whole in memory.

import (
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/openai/openai-go/v3/option"

	"kompact"
)

// streamedBody is a request body that is encoded while the transport sends
// it: a goroutine writes it into a pipe through WriteRequestBody's buffer,
// so that about 64 KiB of it is in memory at a time, whatever its size.
//
// Its length is not known in advance: over HTTP/2 (what HTTPS providers
// speak) a body needs none, and over HTTP/1.1 it goes out chunked, which
// every HTTP/1.1 server must read. A server that asks for a length anyway
// (411 Length Required) gets the body again with a Content-Length, counted
// by encoding it once into a counter (count); net/http checks that the
// bytes sent match it.
type streamedBody struct {
	rc   kompact.RequestConfig
	msgs []kompact.Message
	// size is the body's length once count has run, else -1.
	size int64
	// encoders counts the goroutines encoding the body.
	encoders sync.WaitGroup
}

// newStreamedBody returns the body, of unknown length; it fails as
// RequestBody does, when a field cannot be encoded.
func newStreamedBody(rc kompact.RequestConfig, msgs []kompact.Message) (*streamedBody, error) {
	if _, err := requestTail(rc.Fields); err != nil {
		return nil, err
	}
	return &streamedBody{rc: rc, msgs: msgs, size: -1}, nil
}

// count sets the body's length, from then on sent as its Content-Length.
// It reports whether the length was unknown before.
func (b *streamedBody) count() bool {
	if b.size >= 0 {
		return false
	}
	var n byteCounter
	// The fields were checked by newStreamedBody: no error is left.
	_ = WriteRequestBody(&n, b.rc, b.msgs)
	b.size = int64(n)
	return true
}

// byteCounter counts the bytes written to it.
type byteCounter int64

func (c *byteCounter) Write(p []byte) (int, error) {
	*c += byteCounter(len(p))
	return len(p), nil
}

// open starts encoding the body and returns the reading end of its pipe.
// Closing the reader, or ctx being done, stops the writes: a blocked
// write returns at once, later ones fail, and the goroutine ends when
// the encoder has run through the rest of the messages (wait waits for
// that).
func (b *streamedBody) open(ctx context.Context) io.ReadCloser {
	pr, pw := io.Pipe()
	stop := context.AfterFunc(ctx, func() { pw.CloseWithError(context.Cause(ctx)) })
	b.encoders.Add(1)
	go func() {
		defer b.encoders.Done()
		defer stop()
		// A nil error closes the pipe with io.EOF: the end of the body.
		pw.CloseWithError(WriteRequestBody(pw, b.rc, b.msgs))
	}()
	return pr
}

// wait waits until every encoder of the body has ended, so that none
// outlives the attempt that opened it, nor reads the messages after
// Complete has returned. The attempt's context must be done, or its
// bodies read to the end or closed.
func (b *streamedBody) wait() { b.encoders.Wait() }

// middleware puts the body into the request the SDK sends, with its
// length once counted (else -1: unknown), and lets net/http open it again (GetBody) should it need to send
// it once more: on a redirect, or when a kept-alive connection turns out
// to be closed. Each body it opens is bound to ctx, the attempt's.
func (b *streamedBody) middleware(ctx context.Context) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = b.size
		req.GetBody = func() (io.ReadCloser, error) { return b.open(ctx), nil }
		req.Body = b.open(ctx)
		return next(req)
	}
}
