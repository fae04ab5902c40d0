package anthropic

// This file is the Messages face's transport: it sends a client's request
// to the agent's upstream with the client's body and headers as they came
// (the credentials and the transport's own headers apart) and hands back
// the answer unread (docs/gateway.md, "Claude Code").

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"kompact"
	"kompact/internal/llmclient"
	"kompact/internal/urlsecret"
)

// DefaultBaseURL is Anthropic's API root, as ANTHROPIC_BASE_URL has it
// (without /v1).
const DefaultBaseURL = "https://api.anthropic.com"

// Upstream sends the gateway's Messages requests to an agent's upstream.
// The zero value is ready to use; it is safe for concurrent use as long as
// its fields are not changed. It never retries (the client retries its own
// calls) and never reads the answer: the caller relays it and closes its
// body. It follows a redirect only to the same scheme and host. The API key
// never appears in an error.
type Upstream struct {
	// HTTPClient sends the requests (its redirect policy replaced);
	// nil means http.DefaultClient.
	HTTPClient *http.Client
	// Getenv reads the variable llm.api_key_env names; nil means
	// os.Getenv.
	Getenv func(string) string
}

// Send POSTs body to {llm.BaseURL}/v1/{path} (path "messages" or
// "messages/count_tokens"; a base URL that ends in /v1 is not given
// another) with the client's query rawQuery and the client's headers as
// llmclient.ForwardHeaders keeps them. Unless forward
// (gateway.forward_authorization: the client's own x-api-key or
// Authorization goes as it came), the
// client's credentials are dropped and x-api-key is the value of the
// variable llm.api_key_env names (none when it names none; unset is
// EInvalid). A base URL that is not http(s) is EInvalid; a request that
// could not be sent is ELLM. Any answer, an error status too, is returned
// as it came.
func (u *Upstream) Send(ctx context.Context, llm kompact.LLMConfig, path, rawQuery string, client http.Header, body []byte, forward bool) (*http.Response, error) {
	base, err := baseURL(llm.BaseURL)
	if err != nil {
		return nil, err
	}
	h := llmclient.ForwardHeaders(client)
	if !forward {
		h.Del("Authorization")
		h.Del("X-Api-Key")
		key, err := apiKey(u.Getenv, llm.APIKeyEnv)
		if err != nil {
			return nil, err
		}
		if key != "" {
			h.Set("X-Api-Key", key)
		}
	}
	target := endpoint(base, path)
	target.RawQuery = rawQuery
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), bytes.NewReader(body))
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's llm.base_url %q cannot be used: %s", urlsecret.RedactURL(llm.BaseURL), errorText(err))
	}
	req.Header = h
	if req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := sameHostClient(u.HTTPClient).Do(req)
	if err != nil {
		return nil, llmclient.UpstreamError(base.Host, err)
	}
	return resp, nil
}

// endpoint is base's path joined with v1/path, unless base's path ends in
// /v1 already.
func endpoint(base *url.URL, path string) *url.URL {
	if strings.HasSuffix(strings.TrimSuffix(base.Path, "/"), "/v1") {
		return base.JoinPath(path)
	}
	return base.JoinPath("v1", path)
}

// baseURL checks llm.base_url: an http(s) URL with a host.
func baseURL(s string) (*url.URL, error) {
	if s == "" {
		s = DefaultBaseURL
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's llm.base_url %q is not an http(s) URL", urlsecret.RedactURL(s)).
			WithFixes("Set llm.base_url to the Messages API's root, e.g. " + DefaultBaseURL + ".")
	}
	return u, nil
}

// apiKey reads the key variable env names ("" when it names none).
func apiKey(getenv func(string) string, env string) (string, error) {
	return llmclient.APIKey(getenv, env)
}

// sameHostClient is hc (nil: http.DefaultClient) following redirects to
// the same scheme and host only, at most ten (llmclient.SameHostClient).
func sameHostClient(hc *http.Client) *http.Client {
	return llmclient.SameHostClient(hc, func(to *url.URL) error {
		return fmt.Errorf("it redirected to %s://%s, which is not followed: the request carries the API key", to.Scheme, to.Host)
	})
}

// errorText is err's text without the URL a *url.Error adds
// (llmclient.ErrorText).
func errorText(err error) string { return llmclient.ErrorText(err) }
