package openai

// This file finds a model's context size the way kimi-cli does: the
// provider's model list (GET {base_url}/models, each entry's
// "context_length", src/kimi_cli/auth/platforms.py), overridden for Kimi
// agents by KIMI_MODEL_MAX_CONTEXT_SIZE (src/kimi_cli/llm.py,
// augment_provider_with_env_vars).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"kompact"
)

// KimiContextSizeEnv overrides the context size of Kimi agents' models, as
// in kimi-cli.
const KimiContextSizeEnv = "KIMI_MODEL_MAX_CONTEXT_SIZE"

// The Models defaults and limits.
const (
	// DefaultModelsTimeout bounds one model-list request.
	DefaultModelsTimeout = 10 * time.Second
	// DefaultModelsRetryAfter is how long a failed lookup is remembered
	// before the list is asked for again.
	DefaultModelsRetryAfter = time.Minute
	// maxModelsBody bounds the model list read from a provider.
	maxModelsBody = 8 << 20
)

// Where a ContextSize comes from.
const (
	SourceEnv      = "env"      // KIMI_MODEL_MAX_CONTEXT_SIZE, for a Kimi agent
	SourceConfig   = "config"   // the agent's llm.max_context_size
	SourceProvider = "provider" // the provider's model list
	SourceUnknown  = "unknown"  // none of them: the size is unknown
)

// ContextQuery names the model whose context size is wanted.
type ContextQuery struct {
	BaseURL   string
	APIKeyEnv string
	Model     string
	// Configured is the agent's llm.max_context_size; 0 means unset.
	Configured int
	// Kimi says the agent is a Kimi agent, to which KIMI_MODEL_MAX_CONTEXT_SIZE
	// applies (kimi-cli applies it to its "kimi" provider type only).
	Kimi bool
}

// ContextSize is a model's context size in tokens (0: unknown) and where it
// comes from (a Source constant).
type ContextSize struct {
	Tokens int
	Source string
}

// Models finds context sizes. It asks each provider for its model list at
// most once per base URL and key variable and keeps the answer (a failure
// for RetryAfter). The zero value is ready to use and safe for concurrent
// use as long as its fields are not changed.
type Models struct {
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Getenv reads KIMI_MODEL_MAX_CONTEXT_SIZE and the API key variable;
	// nil means os.Getenv.
	Getenv func(string) string
	// Timeout bounds one model-list request; 0 means DefaultModelsTimeout.
	Timeout time.Duration
	// RetryAfter is how long a failed lookup is remembered; 0 means
	// DefaultModelsRetryAfter.
	RetryAfter time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu    sync.Mutex
	lists map[listKey]*modelList
}

type listKey struct{ baseURL, keyEnv string }

// modelList is one provider's list: ready is closed when the lookup ended.
type modelList struct {
	ready   chan struct{}
	context map[string]int // model id → context_length (0 when the entry has none)
	err     error
	at      time.Time
}

// ContextSize returns q's context size: KIMI_MODEL_MAX_CONTEXT_SIZE for a
// Kimi agent when set, else q.Configured when positive, else the
// context_length the provider lists for q.Model. A provider that does not
// list the model or gives no context_length leaves the size unknown (0,
// SourceUnknown, no error). An error means the list could not be read;
// the size is then unknown too.
func (m *Models) ContextSize(ctx context.Context, q ContextQuery) (ContextSize, error) {
	if q.Kimi {
		if size, ok, err := m.envOverride(); ok || err != nil {
			return size, err
		}
	}
	if q.Configured > 0 {
		return ContextSize{Tokens: q.Configured, Source: SourceConfig}, nil
	}
	list, err := m.list(ctx, q)
	if err != nil {
		return ContextSize{Source: SourceUnknown}, err
	}
	if n := list.context[q.Model]; n > 0 {
		return ContextSize{Tokens: n, Source: SourceProvider}, nil
	}
	return ContextSize{Source: SourceUnknown}, nil
}

// envOverride reads KIMI_MODEL_MAX_CONTEXT_SIZE. Like kimi-cli, an empty
// value is ignored and any other value must be an integer; kompact reads a
// value ≤ 0 as unknown.
func (m *Models) envOverride() (ContextSize, bool, error) {
	v := m.getenv(KimiContextSizeEnv)
	if v == "" {
		return ContextSize{}, false, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return ContextSize{Source: SourceUnknown}, false, kompact.Errorf(kompact.EInvalid, "%s is %q, not a number of tokens", KimiContextSizeEnv, v).
			WithFixes(fmt.Sprintf("Set %s to the model's context size in tokens, e.g. 262144, or unset it.", KimiContextSizeEnv))
	}
	if n <= 0 {
		return ContextSize{Source: SourceUnknown}, true, nil
	}
	return ContextSize{Tokens: n, Source: SourceEnv}, true, nil
}

func (m *Models) getenv(name string) string {
	if m.Getenv != nil {
		return m.Getenv(name)
	}
	return os.Getenv(name)
}

// list returns the provider's model list, fetching it when it is not
// cached (or its failure is older than RetryAfter). Concurrent callers share
// one request.
func (m *Models) list(ctx context.Context, q ContextQuery) (*modelList, error) {
	key := listKey{strings.TrimRight(q.BaseURL, "/"), q.APIKeyEnv}
	m.mu.Lock()
	if m.lists == nil {
		m.lists = map[listKey]*modelList{}
	}
	l := m.lists[key]
	if l != nil {
		select {
		case <-l.ready:
			if l.err != nil && m.now().Sub(l.at) >= orDefault(m.RetryAfter, DefaultModelsRetryAfter) {
				l = nil
			}
		default:
		}
	}
	owner := l == nil
	if owner {
		l = &modelList{ready: make(chan struct{})}
		m.lists[key] = l
	}
	m.mu.Unlock()
	if owner {
		// The lookup outlives a caller that gives up: others may be waiting.
		go func(ctx context.Context) {
			l.context, l.err = m.fetch(ctx, key)
			l.at = m.now()
			close(l.ready)
		}(context.WithoutCancel(ctx))
	}
	select {
	case <-l.ready:
		return l, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (m *Models) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// fetch asks GET {base_url}/models and maps each model id to its
// context_length.
func (m *Models) fetch(ctx context.Context, key listKey) (map[string]int, error) {
	if _, err := checkBaseURL(key.baseURL); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, orDefault(m.Timeout, DefaultModelsTimeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, key.baseURL+"/models", nil)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the agent's llm.base_url %q cannot be used: %v", redactURL(key.baseURL), err)
	}
	req.Header.Set("Accept", "application/json")
	if key.keyEnv != "" {
		if k := m.getenv(key.keyEnv); k != "" {
			req.Header.Set("Authorization", "Bearer "+k)
		}
	}
	hc := m.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, modelsError("could not be read", key, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return nil, modelsError(fmt.Sprintf("answered HTTP %d", resp.StatusCode), key, nil)
	}
	return decodeModels(io.LimitReader(resp.Body, maxModelsBody))
}

func modelsError(what string, key listKey, cause error) error {
	msg := fmt.Sprintf("the model list at %s/models %s", redactURL(key.baseURL), what)
	return &kompact.Error{Code: kompact.ELLM, Message: msg, Err: cause,
		Fixes: []string{"Set the agent's llm.max_context_size to the model's context size in tokens."}}
}

// modelEntry is the part of a model-list entry kompact reads.
type modelEntry struct {
	ID            string          `json:"id"`
	ContextLength json.RawMessage `json:"context_length"`
}

// decodeModels reads an OpenAI-style list, {"data": [{"id", ...}]}. An
// entry's context_length that is absent, not a positive integer, or
// implausibly large counts as none.
func decodeModels(r io.Reader) (map[string]int, error) {
	var body struct {
		Data []modelEntry `json:"data"`
	}
	if err := json.NewDecoder(r).Decode(&body); err != nil {
		return nil, kompact.Errorf(kompact.ELLM, "the provider's model list is not the expected JSON: %w", err).
			WithFixes("Set the agent's llm.max_context_size to the model's context size in tokens.")
	}
	out := make(map[string]int, len(body.Data))
	for _, e := range body.Data {
		n, err := strconv.ParseInt(string(e.ContextLength), 10, 64)
		if err != nil || n <= 0 || n > kompact.MaxTokenFigure {
			n = 0
		}
		out[e.ID] = int(n)
	}
	return out, nil
}

// AgentContextSize returns the context size of a's model in tokens (0:
// unknown), as ContextSize finds it: a's llm.max_context_size, the
// provider's list, and KIMI_MODEL_MAX_CONTEXT_SIZE for a Kimi agent. An
// agent of another llm.api (anthropic) gets its max_context_size only: its
// provider's list is not chat completions'.
func (m *Models) AgentContextSize(ctx context.Context, a *kompact.Agent) (int, error) {
	if a.LLM.API != "" { // another protocol's model list (Anthropic's gives no context size)
		return max(a.LLM.MaxContextSize, 0), nil
	}
	cs, err := m.ContextSize(ctx, ContextQuery{BaseURL: a.LLM.BaseURL, APIKeyEnv: a.LLM.APIKeyEnv, Model: a.LLM.Model,
		Configured: a.LLM.MaxContextSize, Kimi: a.LLM.IsKimi()})
	return cs.Tokens, err
}
