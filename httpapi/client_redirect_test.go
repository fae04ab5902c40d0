package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"kompact"
	"kompact/httpapi"
)

// pathLog is an HTTP handler that records the paths it was asked for.
type pathLog struct {
	mu    sync.Mutex
	paths []string
	serve func(w http.ResponseWriter, r *http.Request)
}

func (p *pathLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.paths = append(p.paths, r.URL.EscapedPath())
	p.mu.Unlock()
	p.serve(w, r)
}

func (p *pathLog) list() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.paths...)
}

const sessionB = `{"id":"b","agent":"kimi","messages":[{"id":"u1","role":"user","content":"not yours"}],"version":1,` +
	`"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`

// TestClientRefusesInvalidSessionIDs: ids such as "." and ".." (which a
// server's path cleaning turns into other paths) are refused before any
// request is sent, with the id rule.
func TestClientRefusesInvalidSessionIDs(t *testing.T) {
	log := &pathLog{serve: func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }}
	ts := httptest.NewServer(log)
	defer ts.Close()
	c := &httpapi.Client{BaseURL: ts.URL}
	for _, id := range []string{".", "..", "a/b", "../v1/sessions", ""} {
		_, err := c.GetSession(context.Background(), id)
		var ke *kompact.Error
		if !errors.As(err, &ke) || ke.Code != kompact.EInvalid || !strings.Contains(ke.Message, kompact.SessionIDRule) {
			t.Errorf("GetSession(%q): %v, want EInvalid with the id rule", id, err)
		}
		if err := c.DeleteSession(context.Background(), id); kompact.ErrorCodeOf(err) != kompact.EInvalid {
			t.Errorf("DeleteSession(%q): %v, want EInvalid", id, err)
		}
	}
	if got := log.list(); len(got) != 0 {
		t.Errorf("requests were sent: %q", got)
	}
}

// TestClientDoesNotFollowRedirects: a redirect to another session is an
// error that names it (without its query string), and the client does
// not ask for the other session.
func TestClientDoesNotFollowRedirects(t *testing.T) {
	log := &pathLog{serve: func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/sessions/a" {
			http.Redirect(w, r, "/v1/sessions/b?token=secret-123", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(sessionB))
	}}
	ts := httptest.NewServer(log)
	defer ts.Close()
	for _, hc := range []*http.Client{nil, {}} {
		c := &httpapi.Client{BaseURL: ts.URL, HTTP: hc}
		s, err := c.GetSession(context.Background(), "a")
		if err == nil {
			t.Fatalf("GetSession(a) returned session %q", s.ID)
		}
		if msg := err.Error(); !strings.Contains(msg, "302") || !strings.Contains(msg, "/v1/sessions/b") ||
			!strings.Contains(msg, "does not follow redirects") || strings.Contains(msg, "secret-123") {
			t.Errorf("error %q", msg)
		}
		if err := c.DeleteSession(context.Background(), "a"); err == nil || !strings.Contains(err.Error(), "does not follow redirects") {
			t.Errorf("DeleteSession(a): %v", err)
		}
	}
	for _, p := range log.list() {
		if p != "/v1/sessions/a" {
			t.Errorf("the client followed the redirect to %s", p)
		}
	}
}

// TestClientChecksTheSessionID: a server that answers a request for
// session a with session b is an error, not session b.
func TestClientChecksTheSessionID(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(sessionB))
	}))
	defer ts.Close()
	c := &httpapi.Client{BaseURL: ts.URL}
	s, err := c.GetSession(context.Background(), "a")
	if err == nil || !strings.Contains(err.Error(), `asked the server for session "a", it answered with session "b"`) {
		t.Fatalf("GetSession(a) = %v, %v", s, err)
	}
	if s, err := c.GetSession(context.Background(), "b"); err != nil || s.ID != "b" {
		t.Fatalf("GetSession(b) = %v, %v", s, err)
	}
}

// TestClientEscapesSessionIDs: an id with ':' reaches the server as one
// path segment naming it.
func TestClientEscapesSessionIDs(t *testing.T) {
	log := &pathLog{serve: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(strings.Replace(sessionB, `"id":"b"`, `"id":"x:1.b"`, 1)))
	}}
	ts := httptest.NewServer(log)
	defer ts.Close()
	c := &httpapi.Client{BaseURL: ts.URL}
	if _, err := c.GetSession(context.Background(), "x:1.b"); err != nil {
		t.Fatal(err)
	}
	if got := log.list(); len(got) != 1 || got[0] != "/v1/sessions/x:1.b" {
		t.Errorf("paths %q", got)
	}
}
