package kimicode

import (
	"encoding/json"
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

// ChatMessages are ms as Kimi Code sends them: projected (see project: the user's
// consecutive messages merged, each tool result after its call), then lowered to Chat
// Completions messages: a content of one text part as a string, of several as parts; an
// assistant's tool calls; a tool result rendered as Kimi Code renders it (ToolContent).
func ChatMessages(ms []Message) []object {
	projected := project(ms)
	out := make([]object, 0, len(projected))
	for i := range projected {
		m := &projected[i]
		switch m.Role {
		case "assistant":
			out = append(out, assistantObject(m))
		case "tool":
			out = append(out, object{{"role", "tool"}, {"tool_call_id", m.ToolCallID}, {"content", m.ToolContent()}})
		default:
			content, _ := lowerContent(m.Parts)
			if content == nil {
				content = ""
			}
			out = append(out, object{{"role", m.Role}, {"content", content}})
		}
	}
	return out
}

// lowerContent is the content of parts as Kimi Code's OpenAI lowering writes it: one text
// part as a string, several parts as an array (text parts as {type, text}, others as
// recorded), none as nil; thinking is left out (think says whether there was some).
func lowerContent(parts []Part) (content any, think bool) {
	var kept []Part
	for _, p := range parts {
		if p.Type == "think" {
			think = true
			continue
		}
		kept = append(kept, p)
	}
	switch {
	case len(kept) == 1 && kept[0].Type == "text":
		return kept[0].Text, think
	case len(kept) == 0:
		return nil, think
	}
	out := make([]json.RawMessage, 0, len(kept))
	for _, p := range kept {
		if p.Type == "text" {
			out = append(out, object{{"type", "text"}, {"text", p.Text}}.bytes())
		} else {
			out = append(out, p.Raw)
		}
	}
	return out, think
}

func assistantObject(m *Message) object {
	content, think := lowerContent(m.Parts)
	if content == nil && think && len(m.ToolCalls) == 0 {
		content = ""
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
