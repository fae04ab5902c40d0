package openai

// This file is the transport: it sends a compaction request to an
// OpenAI-compatible chat-completions API through the official SDK, retries
// what is worth retrying, and turns the stream into a kompact.Answer with the
// pure conversions of format.go.

import (
	"context"
	"net/url"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"kompact"
	"kompact/internal/backoff"
	"kompact/internal/llmclient"
	"kompact/internal/urlsecret"
	"kompact/sessionjson"
)

// The Client's defaults, used when the corresponding field is zero
// (internal/backoff's, which anthropic.Client shares).
const (
	DefaultMaxRetries     = backoff.DefaultMaxRetries
	DefaultInitialBackoff = backoff.DefaultInitial
	DefaultMaxBackoff     = backoff.DefaultMax
	DefaultRequestTimeout = backoff.DefaultRequestTimeout
	// MaxRetryAfter bounds how long the client waits when a provider's
	// Retry-After asks for more than MaxBackoff.
	MaxRetryAfter = backoff.MaxRetryAfter
)

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 64 << 10

// maxJSONBody bounds a non-streamed answer.
const maxJSONBody = 64 << 20

// Client sends compaction requests to an OpenAI-compatible chat-completions
// API (Moonshot's Kimi, OpenAI, Ollama, vLLM) and implements kompact.LLM. The
// zero value is ready to use; a Client is safe for concurrent use as long as
// its fields are not changed.
//
// Each request streams the answer. Rate limits (429), server errors (5xx),
// request timeouts (408), connection failures, streams cut off before they
// finish and attempts that exceed RequestTimeout are retried with exponential
// backoff and full jitter, honouring the provider's Retry-After. Other
// failures are not retried. A provider's "input too long" answer is returned
// at once, wrapping kompact.ErrContextTooLong, so that the Compactor can
// shrink the request.
//
// The answer is capped (RequestConfig.MaxAnswerBytes, 4 MiB by default):
// once its text, reasoning and tool calls pass the cap, the call stops at
// once, without a retry, with an ELLM error wrapping
// kompact.ErrAnswerTooLarge. So does an event line (or a non-streamed
// answer) longer than one chunk of such an answer can be; longer lines
// than the SDK reads (32 MiB) are never buffered.
//
// The request body is never held whole: each attempt encodes it anew
// straight into the HTTP request, through WriteRequestBody's 64 KiB
// buffer. Its length is not known up front: HTTP/2 needs none, and over
// HTTP/1.1 the body goes chunked. A server that answers 411 Length
// Required gets it again at once with a Content-Length, which Complete
// then counts by encoding the body once into a counter.
//
// The SDK's own environment defaults (OPENAI_API_KEY, OPENAI_BASE_URL,
// OPENAI_ORG_ID, ...) are never used: the base URL, model and API key come
// from the kompact.RequestConfig only, so an OpenAI key cannot leak to
// another provider.
//
// Its settings (HTTPClient, Getenv, MaxRetries, InitialBackoff, MaxBackoff,
// RequestTimeout, Sleep) are llmclient.Settings', the ones anthropic.Client
// has, and its attempts run llmclient.Run's loop with this package's
// classifier (failure.go).
type Client llmclient.Settings

var _ kompact.LLM = (*Client)(nil)

// verifiedKey is the context key of ContextWithVerified's document.
type verifiedKey struct{}

// ContextWithVerified returns a copy of ctx that carries v, the document a
// run's messages were decoded from (sessionjson.VerifiedDocument): the
// request bodies Complete sends under it copy the texts v holds without
// checking them again (WithVerified). It changes no byte of a body. The
// document belongs to the run, not to the Client: a Client shared by runs
// of different documents takes each run's from its context.
func ContextWithVerified(ctx context.Context, v sessionjson.Verified) context.Context {
	return context.WithValue(ctx, verifiedKey{}, v)
}

// verifiedOf is the document ctx carries (ContextWithVerified); the zero
// Verified, which holds nothing, when it carries none.
func verifiedOf(ctx context.Context) sessionjson.Verified {
	v, _ := ctx.Value(verifiedKey{}).(sessionjson.Verified)
	return v
}

func orDefault(d, def time.Duration) time.Duration { return backoff.Or(d, def) }

// settings is c as the llmclient.Settings it is.
func (c *Client) settings() *llmclient.Settings { return (*llmclient.Settings)(c) }

// APIKey returns the API key that requests of cfg carry: the value of its
// APIKeyEnv variable read with getenv (nil means os.Getenv), or "" when cfg
// names no variable. A variable that is named but unset is an EInvalid
// error that says to set it.
func APIKey(getenv func(string) string, cfg kompact.RequestConfig) (string, error) {
	return llmclient.APIKey(getenv, cfg.APIKeyEnv)
}

// Complete sends msgs as a streaming chat-completions request and returns the
// answer, as kompact.LLM asks. progress, when not nil, receives the growing
// count of answer characters and, before each retry, why the client waits.
//
// An answer without any text is returned as it is: Plan.Apply decides
// whether it is acceptable. Failures are *kompact.Error values: EInvalid for
// a configuration that cannot work (no base URL, no model, the API key
// variable unset), ELLM for everything the provider or the network did.
// The API key never appears in an error.
//
// msgs are read while the request is sent, by another goroutine, and no
// longer once Complete has returned; they must not change meanwhile.
func (c *Client) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, progress func(kompact.Progress)) (kompact.Answer, error) {
	if progress == nil {
		progress = func(kompact.Progress) {}
	}
	base, key, err := c.settings().Target(cfg, checkBaseURL)
	if err != nil {
		return kompact.Answer{}, err
	}
	body, err := newStreamedBody(cfg, msgs, verifiedOf(ctx))
	if err != nil {
		return kompact.Answer{}, err
	}
	return c.send(ctx, cfg, base, key, body, progress)
}

// CompleteBody sends body, a whole streaming chat-completions request body made
// elsewhere (Kimi Code's compaction request: kimicode.Request.Body), as it is, to cfg's
// base URL with cfg's API key, and returns the answer as Complete does (the same
// retries, answer cap and errors). cfg.Model is not used: the body names its model.
func (c *Client) CompleteBody(ctx context.Context, cfg kompact.RequestConfig, body []byte, progress func(kompact.Progress)) (kompact.Answer, error) {
	if progress == nil {
		progress = func(kompact.Progress) {}
	}
	base, err := checkBaseURL(cfg.BaseURL)
	if err != nil {
		return kompact.Answer{}, err
	}
	key, err := APIKey(c.Getenv, cfg)
	if err != nil {
		return kompact.Answer{}, err
	}
	return c.send(ctx, cfg, base, key, &streamedBody{rc: cfg, raw: body, size: int64(len(body))}, progress)
}

// send sends body with the SDK, retrying as the Client says.
func (c *Client) send(ctx context.Context, cfg kompact.RequestConfig, base *url.URL, key string, body *streamedBody, progress func(kompact.Progress)) (kompact.Answer, error) {
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		option.WithMaxRetries(0),
	}
	opts = append(opts, option.WithHTTPClient(c.settings().HTTP()))
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	// A Client built from its options alone, unlike NewClient, reads
	// nothing from the environment: see the Client's documentation.
	r := &request{
		settings: c.settings(),
		sdk:      &sdk.Client{Options: opts},
		body:     body,
		key:      key,
		cfg:      cfg,
		host:     base.Host,
		progress: progress,
		timeout:  c.settings().Timeout(),
		// The cap stops an endless or huge answer at once, without a retry.
		maxAnswer: kompact.AnswerLimit(cfg.MaxAnswerBytes),
	}
	return r.run(ctx)
}

// checkBaseURL parses the configured base URL.
func checkBaseURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's LLM has no base_url").
			WithFixes("Set the agent's llm.base_url to the provider's API root, e.g. https://api.moonshot.ai/v1 (Ollama: http://127.0.0.1:11434/v1).")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's llm.base_url %q is not an http(s) URL", redactURL(s)).
			WithFixes("Set llm.base_url to the provider's API root, e.g. https://api.moonshot.ai/v1.")
	}
	return u, nil
}

// redactURL hides a URL's credentials and query before it is quoted.
func redactURL(s string) string { return urlsecret.RedactURL(s) }
