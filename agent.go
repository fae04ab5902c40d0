package kompact

import (
	"strings"
	"time"
)

// DefaultCompactionType is the compaction type the examples and the
// configuration's fixes name: kimi-cli's (package kimi).
const DefaultCompactionType = "kimi"

// Agent is a named agent configuration: its system prompt, its LLM and how
// its conversations are compacted.
type Agent struct {
	Name         string
	SystemPrompt string
	LLM          LLMConfig
	Compaction   CompactionConfig
	// Gateway is the "gateway" block (GatewayConfig, docs/gateway.md).
	Gateway GatewayConfig
}

// LLMConfig says how to reach an agent's LLM.
type LLMConfig struct {
	API string // llm.api: "" (chat completions) or "anthropic" (Messages)
	// BaseURL is the API root, e.g. https://api.moonshot.ai/v1.
	BaseURL string
	Model   string
	// APIKeyEnv names the environment variable that holds the API key. The
	// key itself is never part of the configuration.
	APIKeyEnv string
	// Settings are the request fields sent with every call: temperature,
	// max_tokens, top_p and any extra body fields, by their wire names.
	Settings map[string]any
	// MaxContextSize is the model's context size in tokens; 0 means unknown
	// (kompact then asks the provider's model list).
	MaxContextSize int
	// MaxAnswerBytes caps the answer of one call (a compaction's summary or
	// a reply): its text, reasoning and tool calls together, in bytes; 0
	// means DefaultMaxAnswerBytes (llm.max_answer_bytes).
	MaxAnswerBytes int64
	// Timeout bounds one reply's LLM call, every attempt together; 0 means
	// DefaultReplyTimeout (llm.timeout). Compactions have their own,
	// CompactionConfig.Timeout.
	Timeout time.Duration
}

// kimiHosts are the API hosts of Moonshot's Kimi platform: kimi-cli's
// "kimi" provider type.
var kimiHosts = []string{"moonshot.ai", "moonshot.cn", "kimi.com"}

// IsKimi reports whether the agent's LLM is on Moonshot's Kimi platform
// (its base_url's host is, or is under, moonshot.ai, moonshot.cn or
// kimi.com): what kimi-cli's "kimi" provider type covers, to which
// KIMI_MODEL_MAX_CONTEXT_SIZE and max_completion_tokens apply.
func (l *LLMConfig) IsKimi() bool {
	host := l.BaseURL
	if _, rest, ok := strings.Cut(host, "://"); ok {
		host = rest
	}
	host, _, _ = strings.Cut(host, "/")
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, h := range kimiHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// CompactionConfig is an agent's "compaction" block.
type CompactionConfig struct {
	Enabled bool
	Type    string
	// MaxPreservedMessages is nil when unset (DefaultMaxPreserved applies).
	MaxPreservedMessages *int
	// CompactionModel overrides the agent's model for compaction calls.
	CompactionModel string
	// Prompt is an inline prompt body; PromptFile names a file holding one.
	Prompt     string
	PromptFile string
	// Instructions are standing focus instructions for every compaction
	// (CheckInstructions), joined before the session's and the run's.
	Instructions string
	// SettingsOverrides are request fields merged over the agent's settings
	// for compaction calls. They cannot enable tools.
	SettingsOverrides map[string]any
	// Auto is the "auto" block: automatic compaction and its thresholds.
	Auto AutoCompaction
	// Timeout bounds the LLM calls of one action, all attempts together
	// (retries and context-length recovery included); 0 means
	// DefaultLLMTimeout.
	Timeout time.Duration
	// Fidelity is the "fidelity" block: the low_fidelity warning's
	// threshold and the preserved_artifacts appendix (docs/fidelity.md).
	Fidelity FidelityOptions
	// Prune is the "prune" block: tool-output pruning before a summary.
	Prune PruneOptions
}

// PruneOptions are a tool-output pruning's settings (docs/compaction.md); a
// nil KeepRecent or MinChars means the default.
type PruneOptions struct {
	Enabled              bool
	KeepRecent, MinChars *int
}

// DefaultLLMTimeout is the overall deadline of one action's LLM calls when
// the agent's compaction.timeout is not set.
const DefaultLLMTimeout = 10 * time.Minute

// LLMTimeout returns the configured compaction.timeout, or the default.
func (c *CompactionConfig) LLMTimeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultLLMTimeout
	}
	return c.Timeout
}

// CompactionEnabled reports whether the compaction actions exist for a: the
// compaction block is enabled and of a registered type
// (RegisterCompactionType).
func (a *Agent) CompactionEnabled() bool {
	return a != nil && a.Compaction.Enabled && compactionTypes[a.Compaction.Type] != nil
}

// MaxPreserved returns the configured max_preserved_messages, or the default.
func (c *CompactionConfig) MaxPreserved() int {
	if c.MaxPreservedMessages == nil {
		return DefaultMaxPreserved
	}
	return *c.MaxPreservedMessages
}

// RequestConfig is everything needed to send one compaction request, after
// merging: where to send it, which model, and the other body fields.
type RequestConfig struct {
	API       string // LLMConfig.API
	BaseURL   string
	APIKeyEnv string
	Model     string
	// Fields are body fields besides model, messages and streaming, by wire
	// name. They hold only fields IsSentField accepts: never tools.
	Fields map[string]any
	// MaxAnswerBytes caps the answer, in bytes: past it the call stops
	// with an ELLM error wrapping ErrAnswerTooLarge. 0 means
	// DefaultMaxAnswerBytes. It is not sent.
	MaxAnswerBytes int64
}

// ChatRequest returns the request configuration of a's own chat calls (a
// reply in its conversation): its LLM, its model and its settings, without
// the fields that are never sent.
func ChatRequest(a *Agent) RequestConfig {
	fields := make(map[string]any, len(a.LLM.Settings))
	for k, v := range a.LLM.Settings {
		if IsSentField(k) {
			fields[k] = v
		}
	}
	return RequestConfig{API: a.LLM.API, BaseURL: a.LLM.BaseURL, APIKeyEnv: a.LLM.APIKeyEnv, Model: a.LLM.Model, Fields: fields, MaxAnswerBytes: a.LLM.MaxAnswerBytes}
}

// DefaultMaxPreserved is kimi-cli's default number of trailing user/assistant
// messages kept verbatim.
const DefaultMaxPreserved = 2

// AutoCompacts reports whether a compacts by itself: automatic compaction is
// on and the compaction actions exist.
func (a *Agent) AutoCompacts() bool {
	return a.CompactionEnabled() && a.Compaction.Auto.Enabled
}
