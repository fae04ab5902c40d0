package llmclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"kompact"
)

// TestSameHostClient: a redirect on the same host is followed, one to
// another host is offHost's error and is not asked, a loop stops after ten
// hops, and the client handed in keeps its own redirect policy.
func TestSameHostClient(t *testing.T) {
	var otherAsked bool
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { otherAsked = true }))
	defer other.Close()
	redirects := map[string]string{"/here": "/done", "/away": other.URL + "/x", "/loop": "/loop"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to, ok := redirects[r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusFound)
		}
	}))
	defer srv.Close()
	offHost := errors.New("off host")
	var to *url.URL
	hc := &http.Client{}
	c := SameHostClient(hc, func(u *url.URL) error { to = u; return offHost })
	resp, err := c.Get(srv.URL + "/here")
	if err != nil || resp.Request.URL.Path != "/done" {
		t.Fatalf("same-host redirect: %v", err)
	}
	resp.Body.Close()
	if _, err := c.Get(srv.URL + "/away"); !errors.Is(err, offHost) || otherAsked || to == nil || to.Host != strings.TrimPrefix(other.URL, "http://") {
		t.Errorf("off-host redirect: %v (to %v, other asked %v)", err, to, otherAsked)
	}
	if _, err := c.Get(srv.URL + "/loop"); err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("a redirect loop: %v", err)
	}
	if hc.CheckRedirect != nil || SameHostClient(nil, nil) == http.DefaultClient {
		t.Error("SameHostClient changed the client it was given")
	}
}

// TestUpstreamError: a done context is "stopped" without a fix, anything
// else "could not be reached" with one; neither quotes the URL.
func TestUpstreamError(t *testing.T) {
	ue := &url.Error{Op: "Post", URL: "https://user:secret@llm.example/v1", Err: context.Canceled}
	err := UpstreamError("llm.example", ue)
	if err.Error() != "the request to the upstream at llm.example was stopped: context canceled" || !errors.Is(err, context.Canceled) || len(kompact.ErrorFixes(err)) != 0 {
		t.Errorf("stopped: %q %v", err, kompact.ErrorFixes(err))
	}
	ue.Err = errors.New("connection refused")
	err = UpstreamError("llm.example", ue)
	if kompact.ErrorCodeOf(err) != kompact.ELLM || !strings.HasPrefix(err.Error(), "the upstream at llm.example could not be reached: connection refused") || strings.Contains(err.Error(), "secret") || len(kompact.ErrorFixes(err)) != 1 {
		t.Errorf("not reached: %q %v", err, kompact.ErrorFixes(err))
	}
}
