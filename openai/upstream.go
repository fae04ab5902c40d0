package openai

// This file is the gateway's transport: it sends a client's request, as
// the gateway forwards it, to the agent's upstream and hands back the
// answer unread (docs/gateway.md, "The wire form").

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"kompact"
)

// Upstream sends the gateway's requests to an agent's OpenAI-compatible
// API. The zero value is ready to use; an Upstream is safe for concurrent
// use as long as its fields are not changed.
//
// It never retries (the client retries its own calls) and never reads the
// answer: the caller relays it and must close its body. It follows a
// redirect only to the same scheme and host as the request's (the key goes
// with it); a redirect anywhere else is not followed and is an ELLM error.
// The API key never appears in an error.
type Upstream struct {
	// HTTPClient sends the requests (its redirect policy replaced by the
	// one above); nil means http.DefaultClient.
	HTTPClient *http.Client
	// Getenv reads the key variable llm.api_key_env names; nil means
	// os.Getenv.
	Getenv func(string) string
}

// ChatCompletions POSTs body to {llm.BaseURL}/chat/completions, with
// Content-Type application/json and Accept application/json and
// text/event-stream. authorization, when not empty, is sent as the
// Authorization header as it is (the client's own, when the agent forwards
// it); otherwise the header is "Bearer " and the value of the variable
// llm.APIKeyEnv names (none when it names none; an unset variable is
// APIKey's EInvalid error). A base URL that is not http(s) is EInvalid; a
// request that could not be sent is ELLM. Any answer, an error status too,
// is returned as it came.
func (u *Upstream) ChatCompletions(ctx context.Context, llm kompact.LLMConfig, body []byte, authorization string) (*http.Response, error) {
	return u.do(ctx, llm, http.MethodPost, "chat/completions", body, authorization)
}

// Models GETs {llm.BaseURL}/models with Accept application/json, the
// Authorization header chosen as ChatCompletions chooses it.
func (u *Upstream) Models(ctx context.Context, llm kompact.LLMConfig, authorization string) (*http.Response, error) {
	return u.do(ctx, llm, http.MethodGet, "models", nil, authorization)
}

// do sends one request: its URL, its headers, then the redirect-guarded
// send.
func (u *Upstream) do(ctx context.Context, llm kompact.LLMConfig, method, path string, body []byte, authorization string) (*http.Response, error) {
	base, err := checkBaseURL(llm.BaseURL)
	if err != nil {
		return nil, err
	}
	if authorization == "" {
		key, err := APIKey(u.Getenv, kompact.RequestConfig{APIKeyEnv: llm.APIKeyEnv})
		if err != nil {
			return nil, err
		}
		if key != "" {
			authorization = "Bearer " + key
		}
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, base.JoinPath(path).String(), rd)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's llm.base_url %q cannot be used: %s", redactURL(llm.BaseURL), errorText(err))
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := u.client().Do(req)
	if err != nil {
		return nil, upstreamError(base, err)
	}
	return resp, nil
}

// client returns the HTTP client with the redirect policy: the same scheme
// and host only, at most ten hops (net/http's own limit).
func (u *Upstream) client() *http.Client {
	hc := http.DefaultClient
	if u.HTTPClient != nil {
		hc = u.HTTPClient
	}
	c := *hc
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
			return &offHostRedirect{to: req.URL}
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// offHostRedirect is the error of a redirect to another scheme or host.
type offHostRedirect struct{ to *url.URL }

func (e *offHostRedirect) Error() string {
	return fmt.Sprintf("it redirected to %s://%s, which the gateway does not follow: the request carries the API key", e.to.Scheme, e.to.Host)
}

// upstreamError words a failed send, naming the host only (the URL may hold
// credentials; the headers, which hold the key, are never quoted).
func upstreamError(base *url.URL, err error) error {
	host := base.Host
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the cause, without the URL
	}
	var off *offHostRedirect
	if errors.As(err, &off) {
		return (&kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the upstream at %s answered with a redirect: %s", host, off.Error()), Err: err}).
			WithFixes("Set the agent's llm.base_url to the address the provider redirects to, if you trust it.")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the request to the upstream at %s was stopped: %s", host, errorText(err)), Err: err}
	}
	return (&kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the upstream at %s could not be reached: %s", host, errorText(err)), Err: err}).
		WithFixes("Check the agent's llm.base_url and that the provider is up.")
}
