package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"kompact/httpapi"
)

// TestClientURL: a base URL with a path and a query string sends every
// request to the API path under that path, the query kept as a query;
// session ids stay escaped (issue 21, item 6).
func TestClientURL(t *testing.T) {
	var mu sync.Mutex
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.EscapedPath()+" ?"+r.URL.RawQuery)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"sessions":[]}`))
	}))
	defer ts.Close()
	c := &httpapi.Client{BaseURL: ts.URL + "/kompact/?route=a#frag"}
	ctx := context.Background()
	if _, err := c.ListSessions(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteSession(ctx, "a:b.c"); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /kompact/v1/sessions ?route=a", "DELETE /kompact/v1/sessions/a:b.c ?route=a"}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestClientErrorsHideSecrets: an unreachable server's error names the
// address without its password or query.
func TestClientErrorsHideSecrets(t *testing.T) {
	c := &httpapi.Client{BaseURL: "http://user:s3cretpw@127.0.0.1:1/?token=s3crettok"}
	_, err := c.ListSessions(context.Background())
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("error %v", err)
	}
	c = &httpapi.Client{BaseURL: "http://user:s3cretpw@[bad/?token=s3crettok"}
	if _, err := c.ListSessions(context.Background()); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %v", err)
	}
}
