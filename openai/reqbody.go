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
	"kompact/sessionjson"
)

// streamedBody is a request body that is encoded while the transport sends
// it, through WriteRequestBody's buffer, so that about 64 KiB of it is in
// memory at a time, whatever its size: straight into the connection over
// HTTP/1.1, through a pipe for a transport that reads it (see open).
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
	// v is the run's document (ContextWithVerified), for WithVerified.
	v sessionjson.Verified
	// raw, when not nil, is the whole body, sent as it is (CompleteBody).
	raw []byte
	// size is the body's length once count has run, else -1.
	size int64
	// encoders counts the openings of the body not yet done with: encoding
	// (on net/http's goroutine or a pipe's), or not yet taken.
	encoders sync.WaitGroup
}

// newStreamedBody returns the body, of unknown length; it fails as
// RequestBody does, when a field cannot be encoded.
func newStreamedBody(rc kompact.RequestConfig, msgs []kompact.Message, v sessionjson.Verified) (*streamedBody, error) {
	if _, err := requestTail(rc.Fields); err != nil {
		return nil, err
	}
	return &streamedBody{rc: rc, msgs: msgs, v: v, size: -1}, nil
}

// count sets the body's length, from then on sent as its Content-Length.
// It reports whether the length was unknown before.
func (b *streamedBody) count() bool {
	if b.size >= 0 {
		return false
	}
	var n byteCounter
	// The fields were checked by newStreamedBody: no error is left.
	_ = b.write(&n)
	b.size = int64(n)
	return true
}

// write writes the body to w: raw as it is, else encoded from the messages.
func (b *streamedBody) write(w io.Writer) error {
	if b.raw != nil {
		_, err := w.Write(b.raw)
		return err
	}
	return WriteRequestBody(w, b.rc, b.msgs, WithVerified(b.v))
}

// byteCounter counts the bytes written to it.
type byteCounter int64

func (c *byteCounter) Write(p []byte) (int, error) {
	*c += byteCounter(len(p))
	return len(p), nil
}

// open returns one sending of the body, bound to ctx (the attempt's).
// Nothing is encoded until net/http takes it: over HTTP/1.1 it has the body
// write itself into the connection (WriteTo), with no pipe and no copy in
// between; a reader (HTTP/2) starts an encoder on a goroutine writing into
// a pipe (Read). Closing the body, or ctx being done, fails the encoder's
// next write, and the encoder stops there; a body never taken is released
// then. wait waits for all of that.
func (b *streamedBody) open(ctx context.Context) io.ReadCloser {
	o := &openedBody{b: b, ctx: ctx, closed: make(chan struct{})}
	b.encoders.Add(1) // released by whichever of WriteTo, Read and Close takes the body first
	context.AfterFunc(ctx, func() { _ = o.Close() })
	return o
}

// openedBody is one sending of a streamedBody; see open.
type openedBody struct {
	b   *streamedBody
	ctx context.Context
	// take is done by the first of WriteTo, Read and Close.
	take sync.Once
	// pr is the pipe's reading end, once Read took the body.
	pr        *io.PipeReader
	closeOnce sync.Once
	closed    chan struct{}
}

// WriteTo encodes the body into w, net/http's connection, as it is
// produced.
func (o *openedBody) WriteTo(w io.Writer) (int64, error) {
	direct := false
	o.take.Do(func() { direct = true })
	if !direct {
		return io.Copy(w, readerOnly{o})
	}
	defer o.b.encoders.Done()
	sw := &stoppableWriter{w: w, ctx: o.ctx, closed: o.closed}
	err := o.b.write(sw)
	return sw.n, err
}

// Read reads the body from a pipe, which the first Read starts filling.
func (o *openedBody) Read(p []byte) (int, error) {
	o.take.Do(func() { o.pr = o.b.pipe(o.ctx) })
	n, err := 0, error(io.ErrClosedPipe)
	if o.pr != nil {
		n, err = o.pr.Read(p)
	}
	if err != nil && err != io.EOF {
		// The body was closed or stopped: say why, when ctx does.
		if cause := context.Cause(o.ctx); cause != nil {
			err = cause
		}
	}
	return n, err
}

// Close stops the body's encoder, or releases a body nothing took.
func (o *openedBody) Close() error {
	o.closeOnce.Do(func() { close(o.closed) })
	untaken := false
	o.take.Do(func() { untaken = true })
	switch {
	case untaken:
		o.b.encoders.Done()
	case o.pr != nil:
		_ = o.pr.Close()
	}
	return nil
}

// readerOnly hides a reader's WriteTo from io.Copy.
type readerOnly struct{ io.Reader }

// stoppableWriter passes writes on to w until closed is closed or ctx is
// done, and counts them.
type stoppableWriter struct {
	w      io.Writer
	ctx    context.Context
	closed <-chan struct{}
	n      int64
}

func (s *stoppableWriter) Write(p []byte) (int, error) {
	if err := context.Cause(s.ctx); err != nil {
		return 0, err
	}
	select {
	case <-s.closed:
		return 0, io.ErrClosedPipe
	default:
	}
	n, err := s.w.Write(p)
	s.n += int64(n)
	return n, err
}

// pipe starts encoding the body into a pipe and returns its reading end.
// Closing the reader, or ctx being done, stops the writes: a blocked write
// returns at once, later ones fail.
func (b *streamedBody) pipe(ctx context.Context) *io.PipeReader {
	pr, pw := io.Pipe()
	stop := context.AfterFunc(ctx, func() { pw.CloseWithError(context.Cause(ctx)) })
	go func() {
		defer b.encoders.Done()
		defer stop()
		// A nil error closes the pipe with io.EOF: the end of the body.
		pw.CloseWithError(b.write(pw))
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
