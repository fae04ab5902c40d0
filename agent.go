package kompact

import "sort"

// CompactionType is the only compaction type kompact implements.
const CompactionType = "kimi"

// Agent is a named agent configuration: its system prompt, its LLM and how
// its conversations are compacted.
type Agent struct {
	Name         string
	SystemPrompt string
	LLM          LLMConfig
	Compaction   CompactionConfig
}

// LLMConfig says how to reach an agent's OpenAI-compatible LLM.
type LLMConfig struct {
	// BaseURL is the API root, e.g. https://api.moonshot.ai/v1.
	BaseURL string
	Model   string
	// APIKeyEnv names the environment variable that holds the API key. The
	// key itself is never part of the configuration.
	APIKeyEnv string
	// Settings are the request fields sent with every call: temperature,
	// max_tokens, top_p and any extra body fields, by their wire names.
	Settings map[string]any
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
	// SettingsOverrides are request fields merged over the agent's settings
	// for compaction calls. They cannot enable tools.
	SettingsOverrides map[string]any
}

// CompactionEnabled reports whether the compaction actions exist for a: the
// compaction block is enabled and of type "kimi".
func (a *Agent) CompactionEnabled() bool {
	return a != nil && a.Compaction.Enabled && a.Compaction.Type == CompactionType
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
	BaseURL   string
	APIKeyEnv string
	Model     string
	// Fields are body fields besides model, messages and streaming, by wire
	// name. They never include tools or tool_choice.
	Fields map[string]any
}

// toolFields are the request fields that could let the model call tools.
// Compaction requests never carry them.
var toolFields = []string{"tools", "tool_choice", "parallel_tool_calls", "functions", "function_call"}

// IsToolField reports whether name is a request field that could let the
// model call tools; EffectiveRequest always removes those.
func IsToolField(name string) bool {
	for _, f := range toolFields {
		if f == name {
			return true
		}
	}
	return false
}

// reservedFields are set by the transport, never by configuration.
var reservedFields = []string{"messages", "stream", "stream_options", "n"}

// EffectiveRequest merges the request configuration of a compaction call for
// session s: the agent's settings, then the compaction settings_overrides,
// then the model (the session's compaction_model, else the agent's
// compaction_model, else settings_overrides' model, else the agent's model),
// then tools removed unconditionally.
func EffectiveRequest(a *Agent, s *Session) RequestConfig {
	fields := make(map[string]any, len(a.LLM.Settings)+len(a.Compaction.SettingsOverrides))
	for k, v := range a.LLM.Settings {
		fields[k] = v
	}
	for k, v := range a.Compaction.SettingsOverrides {
		fields[k] = v
	}
	model := a.LLM.Model
	if m, ok := a.Compaction.SettingsOverrides["model"].(string); ok && m != "" {
		model = m
	}
	if a.Compaction.CompactionModel != "" {
		model = a.Compaction.CompactionModel
	}
	if s != nil && s.CompactionModel != "" {
		model = s.CompactionModel
	}
	delete(fields, "model")
	for _, k := range toolFields {
		delete(fields, k)
	}
	for _, k := range reservedFields {
		delete(fields, k)
	}
	return RequestConfig{BaseURL: a.LLM.BaseURL, APIKeyEnv: a.LLM.APIKeyEnv, Model: model, Fields: fields}
}

// SortedFieldNames returns the keys of fields in order.
func SortedFieldNames(fields map[string]any) []string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The session actions.
const (
	ActionCompactConversation = "compact_conversation"
	ActionCompactUpToHere     = "compact_up_to_here"
)

// UIElement describes an action a client can offer.
type UIElement struct {
	ID     string    `json:"id"`
	Label  string    `json:"label"`
	Kind   string    `json:"kind"` // "session_action" or "message_action"
	Params []UIParam `json:"params"`
}

// UIParam is one parameter an action takes.
type UIParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Description string `json:"description"`
}

// UIElements returns the actions a client should offer for agent a: both
// compaction actions when compaction is enabled, none when it is not. With
// no agent (a == nil, the global enumeration) both are returned, so the
// actions stay discoverable.
func UIElements(a *Agent) []UIElement {
	if a != nil && !a.CompactionEnabled() {
		return []UIElement{}
	}
	return []UIElement{
		{
			ID: ActionCompactConversation, Label: "Compact conversation", Kind: "session_action",
			Params: []UIParam{
				{Name: "start", Type: "message_id", Description: "first message to compact; default: the first message"},
				{Name: "end", Type: "message_id", Description: "last message to compact, inclusive; when set, the range is compacted exactly and no tail is preserved"},
				{Name: "instructions", Type: "string", Description: "what the summary should focus on"},
			},
		},
		{
			ID: ActionCompactUpToHere, Label: "Compact up to here", Kind: "message_action",
			Params: []UIParam{
				{Name: "message_id", Type: "message_id", Required: true, Description: "the anchor: this message and everything before it are compacted"},
				{Name: "instructions", Type: "string", Description: "what the summary should focus on"},
			},
		},
	}
}
