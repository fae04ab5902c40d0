package openai_test

import (
	"encoding/json"
	"testing"

	"kompact"
	"kompact/openai"
)

// TestWireContentBlankIsPythons: an assistant message with tool calls
// loses its content when its text is white space by Python's str.strip()
// (as kosong decides), U+001C-U+001F included, which Go's
// strings.TrimSpace keeps; a zero-width space is text to both.
func TestWireContentBlankIsPythons(t *testing.T) {
	for text, omitted := range map[string]bool{"\x1c\x1d\x1e\x1f \u3000": true, "\u200b": false} {
		m := kompact.Message{
			Role:      kompact.RoleAssistant,
			Content:   []kompact.Part{kompact.TextPart(text)},
			ToolCalls: []kompact.ToolCall{{ID: "r1", Name: "f", Arguments: strp("{}")}},
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(openai.AppendWireMessage(nil, &m), &obj); err != nil {
			t.Fatal(err)
		}
		if _, ok := obj["content"]; ok == omitted {
			t.Errorf("text %q: content present %v, want %v", text, ok, !omitted)
		}
	}
}
