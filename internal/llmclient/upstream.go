package llmclient

// This file is what the gateway's transports (anthropic.Upstream,
// openai.Upstream) share about sending: the redirect policy of their HTTP
// client and the error of a send that failed.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"kompact"
)

// SameHostClient is hc (nil: http.DefaultClient) following redirects to
// the same scheme and host only (the request carries the API key), at
// most ten hops (net/http's own limit). A redirect anywhere else is not
// followed: it is the error offHost makes of its target.
func SameHostClient(hc *http.Client, offHost func(to *url.URL) error) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := *hc
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
			return offHost(req.URL)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// UpstreamError is the ELLM error of a send to the upstream at host that
// failed with err: stopped (a done context) or not reached. It names the
// host only (the URL may hold credentials; the headers, which hold the
// key, are never quoted).
func UpstreamError(host string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the request to the upstream at %s was stopped: %s", host, ErrorText(err)), Err: err}
	}
	return (&kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the upstream at %s could not be reached: %s", host, ErrorText(err)), Err: err}).
		WithFixes("Check the agent's llm.base_url and that the provider is up.")
}

// ErrorText is err's text without the URL a *url.Error adds.
func ErrorText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
