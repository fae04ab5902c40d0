package kimicode

import "encoding/json"

// Message is one message of a Kimi Code agent's context, as its wire.jsonl records it.
type Message struct {
	Role       string
	Parts      []Part
	ToolCalls  []ToolCall
	ToolCallID string
	Origin     Origin
	// Note and Failed are a tool result's note and error flag: Kimi Code sends them with
	// the output (ToolContent) but does not count them in its estimate.
	Note   string
	Failed bool
}

// ToolContent is a tool result as Kimi Code sends it: the error line, the output, the
// note.
func (m *Message) ToolContent() string {
	out := m.Text()
	if m.Note != "" {
		out += "\n" + m.Note
	}
	if m.Failed {
		out = toolErrorPrefix + out
	}
	return out
}

// Part is one content part: text, thinking, or another kind kept as recorded.
type Part struct {
	Type  string
	Text  string
	Think string
	Raw   json.RawMessage
}

// ToolCall is one call of an assistant message; Arguments is the JSON text sent.
type ToolCall struct {
	ID, Name, Arguments string
}

// Origin says where a user message came from (kind "" is a message without one).
type Origin struct {
	Kind    string `json:"kind"`
	Variant string `json:"variant,omitempty"`
	Trigger string `json:"trigger,omitempty"`
}

// Todo is one item of the agent's TODO list.
type Todo struct {
	Title  string `json:"title"`
	Status string `json:"status"`
}

// Text is the concatenation of m's text parts.
func (m *Message) Text() string {
	s := ""
	for _, p := range m.Parts {
		if p.Type == "text" {
			s += p.Text
		}
	}
	return s
}

// userText is a user message of one text part.
func userText(text string, origin Origin) Message {
	return Message{Role: "user", Parts: []Part{{Type: "text", Text: text}}, Origin: origin}
}
