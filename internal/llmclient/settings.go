// Package llmclient is the policy kompact's own LLM clients (openai.Client,
// anthropic.Client) share: their settings (Settings), the attempt loop that
// retries what the provider's classifier calls worth retrying (Run), the
// rules that classifier applies to an HTTP answer (RetryStatus, RetryAfter),
// the API key, the router that sends a request to the client of its
// agent's llm.api (Router), which cmd/kompact wires, and what the gateway's
// transports share (ForwardHeaders, SameHostClient, UpstreamError).
package llmclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"kompact"
	"kompact/internal/backoff"
)

// Settings is an LLM client's settings: both clients are this type
// (`type Client llmclient.Settings`), so that a field is declared, and
// defaulted, once. The zero value is ready to use.
type Settings struct {
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Getenv reads the API key variable named by RequestConfig.APIKeyEnv;
	// nil means os.Getenv.
	Getenv func(string) string
	// MaxRetries is how many times a failed attempt is retried: 0 means
	// backoff.DefaultMaxRetries, a negative value means never.
	MaxRetries int
	// InitialBackoff is the backoff before the first retry, doubled for each
	// further retry up to MaxBackoff; the actual wait is drawn uniformly from
	// [0, backoff] (full jitter). 0 means backoff.DefaultInitial.
	InitialBackoff time.Duration
	// MaxBackoff caps the computed backoff; 0 means backoff.DefaultMax. A
	// provider's Retry-After is honoured even beyond it, up to
	// backoff.MaxRetryAfter.
	MaxBackoff time.Duration
	// RequestTimeout bounds each attempt, from sending the request to the
	// end of the stream; an attempt that runs out is retried. 0 means
	// backoff.DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Sleep waits d before a retry, returning early with ctx's error when ctx
	// is done; nil means a real timer. Tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Tries is how many attempts a request gets: MaxRetries+1, the default's
// when MaxRetries is 0, one when it is negative.
func (s *Settings) Tries() int {
	switch {
	case s.MaxRetries < 0:
		return 1
	case s.MaxRetries == 0:
		return backoff.DefaultMaxRetries + 1
	}
	return s.MaxRetries + 1
}

// Timeout is RequestTimeout, or its default.
func (s *Settings) Timeout() time.Duration {
	return backoff.Or(s.RequestTimeout, backoff.DefaultRequestTimeout)
}

// HTTP is HTTPClient, or http.DefaultClient.
func (s *Settings) HTTP() *http.Client {
	if s.HTTPClient == nil {
		return http.DefaultClient
	}
	return s.HTTPClient
}

// Target checks what a request of cfg needs before it is sent: its base
// URL (the provider's checkBase parses it), a model and the API key, read
// with Getenv. The errors are EInvalid, saying what to set.
func (s *Settings) Target(cfg kompact.RequestConfig, checkBase func(string) (*url.URL, error)) (*url.URL, string, error) {
	base, err := checkBase(cfg.BaseURL)
	if err != nil {
		return nil, "", err
	}
	if cfg.Model == "" {
		return nil, "", kompact.Errorf(kompact.EInvalid, "the agent's LLM has no model to send the request to").
			WithFixes("Set the agent's llm.model, or compaction.compaction_model.")
	}
	key, err := APIKey(s.Getenv, cfg.APIKeyEnv)
	if err != nil {
		return nil, "", err
	}
	return base, key, nil
}

// APIKey returns the value of the variable env names, read with getenv
// (nil means os.Getenv), or "" when env is "". A variable that is named but
// unset is an EInvalid error that says to set it.
func APIKey(getenv func(string) string, env string) (string, error) {
	if env == "" {
		return "", nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	if key := getenv(env); key != "" {
		return key, nil
	}
	return "", kompact.Errorf(kompact.EInvalid, "%s is not set: the agent's LLM needs an API key", env).
		WithFixes(fmt.Sprintf("Set it (export %s=<your key>) where kompact runs; for kompact serve, set it and restart the server.", env))
}
