// Package fakesse is the scripted, recording HTTP server that the fakes of
// the streaming LLM APIs share (internal/testing/fakeanthropic for
// Messages, internal/testing/fakeresponses for Responses): it records
// every request (method, path, query, headers, body bytes) and answers
// each with what the test's script says, a stream event by event (each
// flushed on its own) or a JSON body, errors and cut streams included.
// The fakes add their protocol's events on top.
package fakesse

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Request is one request the server received.
type Request struct {
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
}

// Answer is what the server sends for one request.
type Answer struct {
	// Status is the answer's status (0: 200).
	Status int
	// Header holds headers to set (Content-Type is set from Events or
	// Body when absent).
	Header map[string]string
	// Events, when not nil, are the stream's events, each written as it
	// is and flushed on its own; Body is the JSON body otherwise.
	Events []string
	Body   string
	// Gate, when not nil, is received from before each event after the
	// first: the test decides when the next event goes.
	Gate chan struct{}
	// Abort cuts the connection after the events, as an upstream that
	// breaks off mid-stream.
	Abort bool
}

// Server is a scripted fake; URL is its root.
type Server struct {
	URL        string
	script     func(Request) Answer
	streamType string
	mu         sync.Mutex
	reqs       []Request
}

// New starts a fake whose answers script gives, closed when t ends; a
// stream's Content-Type, unless the answer sets one, is streamType.
func New(t testing.TB, streamType string, script func(Request) Answer) *Server {
	s := &Server{script: script, streamType: streamType}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	a := s.script(req)
	for k, v := range a.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		ct := "application/json"
		if a.Events != nil {
			ct = s.streamType
		}
		w.Header().Set("Content-Type", ct)
	}
	status := a.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if a.Events == nil {
		_, _ = io.WriteString(w, a.Body)
		return
	}
	s.stream(w, r, a)
}

// stream writes a's events one at a time, each flushed, waiting on its
// Gate between them; Abort then cuts the connection.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, a Answer) {
	for i, ev := range a.Events {
		if i > 0 && a.Gate != nil {
			select {
			case <-a.Gate:
			case <-r.Context().Done():
				return
			}
		}
		_, _ = io.WriteString(w, ev)
		_ = http.NewResponseController(w).Flush()
	}
	if a.Abort {
		panic(http.ErrAbortHandler)
	}
}

// Event is one server-sent event of type typ with data.
func Event(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }

// Quote is s as a JSON string.
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
