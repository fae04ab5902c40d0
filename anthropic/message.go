package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"kompact"
)

// This file turns a Messages message into kompact's form, for the
// gateway's session: what the page shows and what kompact's own
// compaction reads. The forwarded body never goes through it.

// wireBlock is the fields of a content block that kompact's form keeps.
type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature *string         `json:"signature"`
	Data      *string         `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// messageOf reads a Messages message into kompact's form, one message for
// one: the role as it is (user, assistant, or Claude Code's system
// notes); text blocks as text parts; thinking as think parts with the
// signature (a redacted block: its data, no text); tool_use as a tool
// call with its input as the arguments; a tool_result as a text part
// holding its text (marked when it is an error); any other block (an
// image, a document, a server tool's block) as a data part of its JSON.
func messageOf(raw json.RawMessage) (kompact.Message, error) {
	var w wireMessage
	if err := json.Unmarshal(raw, &w); err != nil {
		return kompact.Message{}, err
	}
	m := kompact.Message{Role: kompact.Role(w.Role)}
	if !m.Role.Valid() || m.Role == kompact.RoleTool {
		return m, fmt.Errorf("the role %q is not one of user, assistant, system", w.Role)
	}
	if len(w.Content) > 0 && w.Content[0] == '"' {
		var s string
		_ = json.Unmarshal(w.Content, &s)
		m.Content = []kompact.Part{kompact.TextPart(s)}
		return m, nil
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(w.Content, &blocks); err != nil {
		return m, fmt.Errorf("content must be a string or a list of blocks")
	}
	for _, raw := range blocks {
		if err := addBlock(&m, raw); err != nil {
			return m, err
		}
	}
	return m, nil
}

// addBlock adds one content block to m (see messageOf).
func addBlock(m *kompact.Message, raw json.RawMessage) error {
	var b wireBlock
	if err := json.Unmarshal(raw, &b); err != nil {
		return fmt.Errorf("a content block is not an object")
	}
	switch b.Type {
	case "text":
		m.Content = append(m.Content, kompact.TextPart(b.Text))
	case "thinking":
		m.Content = append(m.Content, kompact.Part{Type: kompact.PartThink, Think: b.Thinking, Encrypted: b.Signature})
	case "redacted_thinking":
		m.Content = append(m.Content, kompact.Part{Type: kompact.PartThink, Encrypted: b.Data})
	case "tool_use":
		args := string(compactJSON(b.Input))
		m.ToolCalls = append(m.ToolCalls, kompact.ToolCall{ID: b.ID, Name: b.Name, Arguments: &args})
	case "tool_result":
		m.Content = append(m.Content, kompact.TextPart(toolResultText(b)))
	default:
		m.Content = append(m.Content, kompact.Part{Type: kompact.PartData, Data: compactJSON(raw)})
	}
	return nil
}

// toolResultText is a tool result as text: a line naming the call it
// answers (and whether it failed), then its text, or the text blocks of
// its content joined by blank lines.
func toolResultText(b wireBlock) string {
	head := "[tool result " + b.ToolUseID + "]"
	if b.IsError {
		head = "[tool error " + b.ToolUseID + "]"
	}
	var s string
	if json.Unmarshal(b.Content, &s) == nil {
		return head + "\n" + s
	}
	var parts []wireBlock
	_ = json.Unmarshal(b.Content, &parts)
	texts := []string{head}
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		} else {
			texts = append(texts, "["+p.Type+"]")
		}
	}
	return strings.Join(texts, "\n")
}
