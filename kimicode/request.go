package kimicode

import (
	"encoding/json"
	"strings"
)

// Request is a compaction request of a Kimi Code session.
type Request struct {
	// Wire is the session's agents/main/wire.jsonl, read.
	Wire *Wire
	// SessionID is the session's id (state.json), its prompt_cache_key.
	SessionID string
	// Window is the model's context size in tokens.
	Window int
	// Instruction is the user's custom instruction ("" for none).
	Instruction string
	// Texts are the compaction's texts.
	Texts *Texts
}

// Messages are the request's chat messages: the system prompt, the context as Kimi Code
// sends it, and the instruction.
func (r *Request) Messages() []object {
	out := []object{{{"role", "system"}, {"content", r.Wire.SystemPrompt}}}
	out = append(out, ChatMessages(r.Wire.Context)...)
	return append(out, object{{"role", "user"}, {"content", r.Texts.InstructionText(r.Instruction)}})
}

// Body is the request's JSON body, keys in Kimi Code's order.
func (r *Request) Body() []byte {
	tools := make([]object, 0, len(r.Wire.Tools))
	for _, t := range r.Wire.Tools {
		tools = append(tools, toolObject(t))
	}
	return object{
		{"model", r.Wire.Model},
		{"messages", r.Messages()},
		{"tools", tools},
		{"stream", true},
		{"stream_options", object{{"include_usage", true}}},
		{"prompt_cache_key", r.SessionID},
		{"max_tokens", MaxTokens(r.Window)},
	}.bytes()
}

// toolObject is a snapshot's tool as the request sends it.
func toolObject(raw json.RawMessage) object {
	var t struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	_ = json.Unmarshal(raw, &t)
	fn := object{{"name", t.Name}, {"description", t.Description}}
	if len(t.Parameters) > 0 {
		fn = append(fn, field{"parameters", t.Parameters})
	}
	return object{{"type", "function"}, {"function", fn}}
}

// ChatMessages are ms as Kimi Code sends them: consecutive messages of the user's own
// merged into one (their texts joined by a blank line), an assistant's text as a string
// or null with its tool calls, a tool result with its call's id.
func ChatMessages(ms []Message) []object {
	var out []object
	for i := 0; i < len(ms); i++ {
		m := ms[i]
		switch m.Role {
		case "assistant":
			out = append(out, assistantObject(&m))
		case "tool":
			out = append(out, object{{"role", "tool"}, {"tool_call_id", m.ToolCallID}, {"content", m.ToolContent()}})
		default:
			group := []Message{m}
			for ownInput(&m) && i+1 < len(ms) && ms[i+1].Role == "user" && ownInput(&ms[i+1]) {
				i++
				group = append(group, ms[i])
			}
			out = append(out, userObject(m.Role, group))
		}
	}
	return out
}

// ownInput: a message the user typed (origin user, or none).
func ownInput(m *Message) bool {
	return m.Role == "user" && (m.Origin.Kind == "user" || m.Origin.Kind == "")
}

func userObject(role string, group []Message) object {
	texts, plain := make([]string, 0, len(group)), true
	var parts []json.RawMessage
	for _, m := range group {
		texts = append(texts, m.Text())
		for _, p := range m.Parts {
			if p.Type != "text" {
				plain = false
			}
			parts = append(parts, p.Raw)
		}
	}
	if plain {
		return object{{"role", role}, {"content", strings.Join(texts, "\n\n")}}
	}
	return object{{"role", role}, {"content", parts}}
}

func assistantObject(m *Message) object {
	var content any
	if t := m.Text(); t != "" {
		content = t
	}
	o := object{{"role", "assistant"}, {"content", content}}
	if len(m.ToolCalls) > 0 {
		calls := make([]object, 0, len(m.ToolCalls))
		for _, c := range m.ToolCalls {
			calls = append(calls, object{{"id", c.ID}, {"type", "function"},
				{"function", object{{"name", c.Name}, {"arguments", c.Arguments}}}})
		}
		o = append(o, field{"tool_calls", calls})
	}
	return o
}

// ChatMessageBytes are ChatMessages(ms), each written as JSON.
func ChatMessageBytes(ms []Message) [][]byte {
	var out [][]byte
	for _, o := range ChatMessages(ms) {
		out = append(out, o.bytes())
	}
	return out
}
