package anthropic

import (
	"encoding/json"
	"strings"

	"kompact"
)

// This file writes kompact's own Messages requests (a compaction's, a
// continue's): kompact's messages as Messages blocks. The kimi-cli
// request, a system prompt and one user message, becomes "system" and
// one user message.

// DefaultMaxTokens is the max_tokens of kompact's own requests when the
// agent's settings give none (the Messages API requires it).
const DefaultMaxTokens = 8192

// block is one content block of a request message.
type block map[string]any

// wireOut is a message of a request kompact sends.
type wireOut struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// requestBody returns the body of a streamed request of msgs with cfg:
// the model, max_tokens (the settings' max_tokens, else their
// max_completion_tokens, else DefaultMaxTokens), the system messages
// joined into "system", the other messages as Messages messages, and the
// settings' other fields as they are.
func requestBody(cfg kompact.RequestConfig, msgs []kompact.Message) ([]byte, error) {
	body := map[string]any{}
	for k, v := range cfg.Fields {
		body[k] = v
	}
	if _, ok := body["max_tokens"]; !ok {
		body["max_tokens"] = DefaultMaxTokens
		if v, ok := body["max_completion_tokens"]; ok {
			body["max_tokens"] = v
		}
	}
	delete(body, "max_completion_tokens")
	var system []string
	var out []wireOut
	for i := range msgs {
		m := &msgs[i]
		if m.Role == kompact.RoleSystem {
			m.Texts(func(s string) { system = append(system, s) })
			continue
		}
		role, blocks := wireBlocks(m)
		if len(blocks) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			continue
		}
		out = append(out, wireOut{Role: role, Content: blocks})
	}
	if len(system) > 0 {
		body["system"] = strings.Join(system, "\n\n")
	}
	body["model"], body["messages"], body["stream"] = cfg.Model, out, true
	return json.Marshal(body)
}

// wireBlocks returns the role and blocks of a message: a tool message is
// a user message's tool_result; an assistant's signed reasoning is a
// thinking block (unsigned reasoning, which the API refuses, is left
// out), its tool calls tool_use blocks; a data part is a text block of
// its JSON.
func wireBlocks(m *kompact.Message) (string, []block) {
	if m.Role == kompact.RoleTool {
		var text []string
		m.Texts(func(s string) { text = append(text, s) })
		return "user", []block{{"type": "tool_result", "tool_use_id": m.ToolCallID, "content": strings.Join(text, "\n")}}
	}
	var blocks []block
	for _, p := range m.Content {
		switch {
		case p.Type == kompact.PartText && p.Text != "":
			blocks = append(blocks, block{"type": "text", "text": p.Text})
		case p.Type == kompact.PartThink && p.Encrypted != nil && m.Role == kompact.RoleAssistant:
			if p.Think == "" {
				blocks = append(blocks, block{"type": "redacted_thinking", "data": *p.Encrypted})
			} else {
				blocks = append(blocks, block{"type": "thinking", "thinking": p.Think, "signature": *p.Encrypted})
			}
		case p.Type == kompact.PartData:
			blocks = append(blocks, block{"type": "text", "text": string(p.Data)})
		}
	}
	for _, c := range m.ToolCalls {
		input := json.RawMessage(`{}`)
		if c.Arguments != nil && json.Valid([]byte(*c.Arguments)) && strings.HasPrefix(strings.TrimSpace(*c.Arguments), "{") {
			input = json.RawMessage(*c.Arguments)
		}
		blocks = append(blocks, block{"type": "tool_use", "id": c.ID, "name": c.Name, "input": input})
	}
	role := "user"
	if m.Role == kompact.RoleAssistant {
		role = "assistant"
	}
	return role, blocks
}
