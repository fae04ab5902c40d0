package httpapi

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"kompact"
)

// This file relays the upstream's answer to a gateway client
// (docs/gateway.md, "What is forwarded" and "How it fails"): the status
// and the relayed headers, then the body as it arrives. The client always
// sees a failure when the relay fails, never an empty or cut answer that
// looks whole, and a gateway answer is only ever JSON or an event stream.

// maxUsageBody is how much of a non-streamed answer the gateway keeps to
// read its usage; a longer answer is relayed whole but leaves no usage.
const maxUsageBody = 8 << 20

// maxStreamEvent bounds one event of an upstream's stream.
const maxStreamEvent = 8 << 20

// errRelayCut is a relay that failed after the answer's status and some
// of its body were sent: gatewayHandle aborts the client's connection, so
// that the client sees the failure (a chunked answer without its end, a
// body short of its Content-Length) as it would from the upstream itself.
var errRelayCut = errors.New("the relay of the upstream's answer failed midway")

// relayUpstream relays resp to w: its status and relayed headers with the
// gateway's own (own, when not nil, sets them), then its body
// (relayFace.relay). The status is written with the body's
// first byte, so that a relay that fails before any byte is answered as
// the gateway's own error (returned; the upstream's headers and
// X-Kompact-Forwarded taken back), and one that fails later returns
// errRelayCut. An answer that is neither application/json nor
// text/event-stream is not relayed: it is an ELLM error. It returns the
// usage the answer reported.
func (s *Server) relayUpstream(w http.ResponseWriter, r *http.Request, resp *http.Response, face relayFace, own func(http.Header)) (*kompact.Usage, error) {
	if own != nil {
		own(w.Header())
	}
	proto := protocolOf(r.URL.Path)
	if err := relayable(resp, proto); err != nil {
		unrelay(w.Header())
		return nil, err
	}
	relayHeaders(w.Header(), resp, proto)
	pw := &pendingStatus{ResponseWriter: w, status: resp.StatusCode}
	usage, err := face.relay(pw, resp)
	if err == nil {
		pw.send()
		return usage, nil
	}
	if r.Context().Err() == nil { // not a client that went away
		s.log.LogAttrs(r.Context(), slog.LevelWarn, "gateway: relay the answer", slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	}
	if pw.sent {
		return usage, errRelayCut
	}
	unrelay(w.Header())
	return usage, relayFailed(err)
}

// relayable checks that resp's Content-Type is application/json or
// text/event-stream: anything else (an HTML page, text, none) must not
// reach a client from kompact's origin, where a browser could run it.
// The fix names the API the face's agent must point at (the protocol's
// baseFix).
func relayable(resp *http.Response, proto *gatewayProtocol) error {
	ct := resp.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err == nil && (mt == "application/json" || mt == "text/event-stream") {
		return nil
	}
	host := "the upstream"
	if resp.Request != nil && resp.Request.URL != nil {
		host = "the upstream at " + resp.Request.URL.Host
	}
	return kompact.Errorf(kompact.ELLM, "%s answered %d with the Content-Type %q; the gateway relays only application/json and text/event-stream", host, resp.StatusCode, truncate(ct, 100)).
		WithFixes(proto.baseFix)
}

// relayFailed is the error of a relay that failed before any of the
// answer was sent, with a fix.
func relayFailed(err error) error {
	e := kompact.AsError(err)
	if e.Code != kompact.ELLM {
		e = &kompact.Error{Code: kompact.ELLM, Message: "the upstream's answer broke off: " + err.Error(), Err: err}
	}
	if len(e.Fixes) == 0 {
		e = e.WithFixes("Retry the request; none of the upstream's answer was relayed.")
	}
	return e
}

// relayedHeaders are the upstream's response headers the gateway passes
// on (Content-Type apart: relayHeaders passes its first value only, the
// one relayable checked).
var relayedHeaders = []string{"Cache-Control", "Retry-After", "X-Request-Id", "Openai-Processing-Ms", "Openai-Model"}

// messagesHeaders are the ones the Messages face passes on besides them,
// with every Anthropic-* header (the rate limits, the organization).
var messagesHeaders = []string{"Request-Id", "X-Should-Retry"}

// relayFace says how a face's answer is relayed and its usage read:
// stream relays a 200 event stream event by event and returns the usage
// it reports; body reads the usage of any other 200 answer, relayed as
// its bytes come.
type relayFace struct {
	stream func(dst io.Writer, flush func(), src io.Reader) (*kompact.Usage, error)
	body   func(body []byte) *kompact.Usage
}

// relayHeaders copies the relayed headers of resp into dst. An answer
// that is not a stream keeps its Content-Length, so that the client has it
// whole as soon as its bytes are relayed (the gateway's bookkeeping after
// it does not hold it up).
func relayHeaders(dst http.Header, resp *http.Response, proto *gatewayProtocol) {
	ct := resp.Header.Get("Content-Type")
	dst.Set("Content-Type", ct)
	names := relayedHeaders
	if len(proto.relayed) > 0 || proto.relayedPrefix != "" {
		names = append(append(names[:len(names):len(names)], proto.relayed...), prefixedHeaders(resp.Header, proto.relayedPrefix)...)
	}
	for _, k := range names {
		if v := resp.Header.Values(k); len(v) > 0 {
			if k == "X-Request-Id" {
				k = "X-Upstream-Request-Id" // the server's own request id stays
			}
			dst[http.CanonicalHeaderKey(k)] = v
		}
	}
	if mt, _, _ := mime.ParseMediaType(ct); mt != "text/event-stream" && resp.ContentLength >= 0 {
		dst.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	}
}

// unrelay takes back what relayHeaders and the gateway's own headers set
// for an answer that is not relayed after all (X-Kompact-Session stays:
// the request was stored).
func unrelay(h http.Header) {
	for _, k := range append(relayedHeaders, "Content-Type", "Content-Length", "X-Upstream-Request-Id", HeaderForwarded) {
		h.Del(k)
	}
	for _, k := range append(messagesHeaders, prefixedHeaders(h, anthropicProtocol.relayedPrefix)...) {
		h.Del(k)
	}
}

// prefixedHeaders are the names of h's headers that begin with prefix
// (none for "").
func prefixedHeaders(h http.Header, prefix string) []string {
	var names []string
	for k := range h {
		if prefix != "" && strings.HasPrefix(k, prefix) {
			names = append(names, k)
		}
	}
	return names
}

// pendingStatus writes its status with the first byte of the body (or at
// send), so that until then the answer can still become another.
type pendingStatus struct {
	http.ResponseWriter
	status int
	sent   bool
}

func (p *pendingStatus) send() {
	if !p.sent {
		p.sent = true
		p.ResponseWriter.WriteHeader(p.status)
	}
}

func (p *pendingStatus) Write(b []byte) (int, error) {
	p.send()
	return p.ResponseWriter.Write(b)
}

// FlushError flushes what was written; before that, nothing.
func (p *pendingStatus) FlushError() error {
	if !p.sent {
		return nil
	}
	return http.NewResponseController(p.ResponseWriter).Flush()
}

// relay passes the upstream's answer on as it arrives and returns the
// usage it reports: a stream event by event (the face's stream), any
// other answer as its bytes come.
func (f relayFace) relay(w http.ResponseWriter, resp *http.Response) (*kompact.Usage, error) {
	rc := http.NewResponseController(w)
	flush := func() { _ = rc.Flush() }
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode == http.StatusOK && mt == "text/event-stream" {
		return f.stream(w, flush, resp.Body)
	}
	var kept bytes.Buffer
	keep := &limitedBuffer{buf: &kept, max: maxUsageBody}
	_, err := io.Copy(w, io.TeeReader(resp.Body, keep))
	if err != nil || resp.StatusCode != http.StatusOK || keep.over {
		return nil, err
	}
	return f.body(kept.Bytes()), nil
}

// limitedBuffer keeps what is written to it up to max bytes, and notes
// when there was more.
type limitedBuffer struct {
	buf  *bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.over || b.buf.Len()+len(p) > b.max {
		b.over = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

// setGatewaySafety sets, on every answer of a gateway path (errors
// included), the headers that keep a browser from sniffing or running
// what the gateway relays on kompact's origin.
func setGatewaySafety(w http.ResponseWriter, r *http.Request) {
	if isGatewayPath(r.URL.Path) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	}
}
