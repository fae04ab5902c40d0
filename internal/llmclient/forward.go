package llmclient

import (
	"net/http"
	"strings"
)

// This file is what of a client's request headers the gateway's
// transports (anthropic.Upstream, openai.Upstream) send upstream.

// notForwarded are the request headers that never go upstream: the
// connection's own (hop by hop), the ones the transport sets (Host,
// Content-Length, Accept-Encoding: it asks for gzip and decompresses, so
// that the relay reads the answer), and the server's token header.
var notForwarded = []string{"Connection", "Keep-Alive", "Proxy-Authorization", "Proxy-Connection", "Te", "Trailer",
	"Transfer-Encoding", "Upgrade", "Host", "Content-Length", "Accept-Encoding"}

// ForwardHeaders returns the client's request headers as they go upstream:
// every one, values and order kept, but notForwarded, those the client's
// Connection header names, and kompact's own X-Kompact-* headers.
func ForwardHeaders(client http.Header) http.Header {
	h := client.Clone()
	if h == nil {
		h = http.Header{}
	}
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			h.Del(strings.TrimSpace(name))
		}
	}
	for _, k := range notForwarded {
		h.Del(k)
	}
	for k := range h {
		if strings.HasPrefix(k, "X-Kompact-") {
			delete(h, k)
		}
	}
	return h
}
