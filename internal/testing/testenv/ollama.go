package testenv

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Ollama returns the OpenAI-compatible endpoint of the Ollama test server,
// $KOMPACT_OLLAMA_URL without a trailing slash (Var; .ci/run starts the
// server), and its model, $KOMPACT_OLLAMA_MODEL (default "tiny").
func Ollama(tb testing.TB) (endpoint, model string) {
	tb.Helper()
	u := Var(tb, "KOMPACT_OLLAMA_URL", "start ../shared/tools/ollama-test-server/start.sh and set it to http://127.0.0.1:11434/v1 (.ci/run starts the server)")
	model = os.Getenv("KOMPACT_OLLAMA_MODEL")
	if model == "" {
		model = "tiny"
	}
	return strings.TrimRight(u, "/"), model
}

// Recorder is a proxy that forwards requests to an endpoint, streamed
// answers as they come, and keeps the requests' bodies (Record).
type Recorder struct {
	// URL is the proxy's form of the endpoint (its path kept).
	URL string

	mu     sync.Mutex
	bodies [][]byte
}

// Record starts a Recorder in front of endpoint until tb ends.
func Record(tb testing.TB, endpoint string) *Recorder {
	tb.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		tb.Fatal(err)
	}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(&url.URL{Scheme: target.Scheme, Host: target.Host})
		r.Out.Host = target.Host
	}, FlushInterval: -1}
	rec := &Recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, b)
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		rp.ServeHTTP(w, r)
	}))
	tb.Cleanup(srv.Close)
	rec.URL = srv.URL + target.Path
	return rec
}

// Bodies returns the bodies of the requests forwarded so far.
func (r *Recorder) Bodies() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.bodies)
}
