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
	"strings"

	"kompact"
	"kompact/internal/llmclient"
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

// Send POSTs body to {llm.BaseURL}/{path} (path "chat/completions", say)
// with the base URL's own query, then the client's rawQuery, and the
// client's headers as llmclient.ForwardHeaders keeps them; Content-Type
// application/json and Accept application/json and text/event-stream
// unless the client's headers say otherwise. Unless forward
// (gateway.forward_authorization: the client's own Authorization goes as
// it came), the client's credentials (Authorization, X-Api-Key) are
// dropped and Authorization is "Bearer " and the value of the variable
// llm.APIKeyEnv names (none when it names none; an unset variable is
// APIKey's EInvalid error). A base URL that is not http(s) is EInvalid; a
// request that could not be sent is ELLM. Any answer, an error status
// too, is returned as it came.
func (u *Upstream) Send(ctx context.Context, llm kompact.LLMConfig, path, rawQuery string, client http.Header, body []byte, forward bool) (*http.Response, error) {
	if body == nil {
		body = []byte{} // a POST, whatever its body
	}
	return u.do(ctx, llm, http.MethodPost, path, rawQuery, client, body, forward)
}

// ChatCompletions is Send of body to chat/completions with no header of
// the client's but authorization: when not empty, it is sent as the
// Authorization header as it is (the client's own, when the agent
// forwards it); otherwise the agent's key is.
func (u *Upstream) ChatCompletions(ctx context.Context, llm kompact.LLMConfig, body []byte, authorization string) (*http.Response, error) {
	return u.Send(ctx, llm, "chat/completions", "", credentials(authorization), body, authorization != "")
}

// Models GETs {llm.BaseURL}/models with Accept application/json, the
// Authorization header chosen as ChatCompletions chooses it.
func (u *Upstream) Models(ctx context.Context, llm kompact.LLMConfig, authorization string) (*http.Response, error) {
	return u.do(ctx, llm, http.MethodGet, "models", "", credentials(authorization), nil, authorization != "")
}

// credentials are the client headers of an Authorization header
// (none for "").
func credentials(authorization string) http.Header {
	if authorization == "" {
		return nil
	}
	return http.Header{"Authorization": {authorization}}
}

// do sends one request: its URL, its headers, then the redirect-guarded
// send.
func (u *Upstream) do(ctx context.Context, llm kompact.LLMConfig, method, path, rawQuery string, client http.Header, body []byte, forward bool) (*http.Response, error) {
	base, err := checkBaseURL(llm.BaseURL)
	if err != nil {
		return nil, err
	}
	h, err := u.headers(llm, client, body != nil, forward)
	if err != nil {
		return nil, err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	target := base.JoinPath(path)
	if rawQuery != "" {
		target.RawQuery = strings.TrimPrefix(target.RawQuery+"&"+rawQuery, "&")
	}
	req, err := http.NewRequestWithContext(ctx, method, target.String(), rd)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's llm.base_url %q cannot be used: %s", redactURL(llm.BaseURL), errorText(err))
	}
	req.Header = h
	resp, err := u.client().Do(req)
	if err != nil {
		return nil, upstreamError(base, err)
	}
	return resp, nil
}

// headers are the request's headers: the client's (llmclient.ForwardHeaders),
// the agent's key in place of the client's credentials unless forward,
// and Accept and Content-Type when the client set none.
func (u *Upstream) headers(llm kompact.LLMConfig, client http.Header, hasBody, forward bool) (http.Header, error) {
	h := llmclient.ForwardHeaders(client)
	if !forward {
		h.Del("Authorization")
		h.Del("X-Api-Key")
		key, err := APIKey(u.Getenv, kompact.RequestConfig{APIKeyEnv: llm.APIKeyEnv})
		if err != nil {
			return nil, err
		}
		if key != "" {
			h.Set("Authorization", "Bearer "+key)
		}
	}
	accept := "application/json"
	if hasBody {
		accept = "application/json, text/event-stream"
		if h.Get("Content-Type") == "" {
			h.Set("Content-Type", "application/json")
		}
	}
	if h.Get("Accept") == "" {
		h.Set("Accept", accept)
	}
	return h, nil
}

// client returns the HTTP client with the redirect policy: the same scheme
// and host only, at most ten hops (llmclient.SameHostClient).
func (u *Upstream) client() *http.Client {
	return llmclient.SameHostClient(u.HTTPClient, func(to *url.URL) error { return &offHostRedirect{to: to} })
}

// offHostRedirect is the error of a redirect to another scheme or host.
type offHostRedirect struct{ to *url.URL }

func (e *offHostRedirect) Error() string {
	return fmt.Sprintf("it redirected to %s://%s, which the gateway does not follow: the request carries the API key", e.to.Scheme, e.to.Host)
}

// upstreamError words a failed send, naming the host only (the URL may hold
// credentials; the headers, which hold the key, are never quoted): a
// redirect the client did not follow, else llmclient.UpstreamError's.
func upstreamError(base *url.URL, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the cause, without the URL
	}
	var off *offHostRedirect
	if errors.As(err, &off) {
		return (&kompact.Error{Code: kompact.ELLM, Message: fmt.Sprintf("the upstream at %s answered with a redirect: %s", base.Host, off.Error()), Err: err}).
			WithFixes("Set the agent's llm.base_url to the address the provider redirects to, if you trust it.")
	}
	return llmclient.UpstreamError(base.Host, err)
}
