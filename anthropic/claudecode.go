package anthropic

import (
	"encoding/json"
	"strings"

	"kompact"
)

// This file recognises Claude Code's own compaction request (its /compact
// and its automatic compaction alike): the last user message opens with
// the instruction Claude Code sends. Only that short opening is kept
// here, per Claude Code version (../shared/claude-code/README.md says
// what the whole request holds); the prompt itself is Claude Code's.

// compactionOpenings are the openings of Claude Code's compaction
// instruction, by the Claude Code version that sends them (its
// User-Agent's claude-cli/VERSION).
var compactionOpenings = []struct{ version, opening string }{
	{"2.1.332", "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."},
}

// ClaudeCodeVersion is the version in a Claude Code User-Agent
// ("claude-cli/2.1.332 (external, sdk-cli)"), "" for another client.
func ClaudeCodeVersion(userAgent string) string {
	v, ok := strings.CutPrefix(userAgent, "claude-cli/")
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, " ")
	return v
}

// IsCompaction reports whether the request is Claude Code's compaction
// request: its last message is a user message whose text (a string, or
// its last text block) opens with the compaction instruction of the
// client's version, or of any version the table knows when the client's
// is not in it.
func (r *Request) IsCompaction(userAgent string) bool {
	if len(r.messages) == 0 {
		return false
	}
	text, ok := lastUserText(r.messages[len(r.messages)-1])
	if !ok {
		return false
	}
	text = strings.TrimLeft(text, " \t\r\n")
	version := ClaudeCodeVersion(userAgent)
	known := false
	for _, o := range compactionOpenings {
		known = known || o.version == version
	}
	for _, o := range compactionOpenings {
		if (!known || o.version == version) && strings.HasPrefix(text, o.opening) {
			return true
		}
	}
	return false
}

// lastUserText is a user message's text: its string content, or its last
// text block's.
func lastUserText(raw json.RawMessage) (string, bool) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Role != "user" {
		return "", false
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s, true
	}
	var blocks []wireBlock
	if json.Unmarshal(m.Content, &blocks) != nil {
		return "", false
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].Type == "text" {
			return blocks[i].Text, true
		}
	}
	return "", false
}

// CompactionHistory is a compaction request's history: the request
// without Claude Code's instruction. The instruction is the last message
// when that holds nothing else (the automatic compaction's own string
// message); else it is the last message's last text block (a /compact's,
// appended after the tool_result the history ended with), and the history
// ends with that message without it, as the turn before sent it.
func (r *Request) CompactionHistory() *Request {
	n := len(r.messages)
	if n == 0 {
		return r
	}
	var m wireMessage
	if json.Unmarshal(r.messages[n-1], &m) != nil {
		return r.Head(n - 1)
	}
	blocks, err := contentBlocks(m.Content)
	if err != nil || len(blocks) < 2 {
		return r.Head(n - 1)
	}
	last := len(blocks) - 1
	for last >= 0 && string(blocks[last]["type"]) != `"text"` {
		last--
	}
	if last < 0 {
		return r.Head(n - 1)
	}
	content, _ := json.Marshal(append(blocks[:last:last], blocks[last+1:]...))
	rest, _ := json.Marshal(wireMessage{Role: m.Role, Content: content})
	h := r.Head(n - 1)
	h.messages = append(h.messages[:n-1:n-1], rest)
	return h
}

// ResentForms are the forms the turns may have sent a compaction
// history in, when it ends as Claude Code 2.1.332's /compact re-sends it:
// an assistant message then a user message holding a tool_result, where
// the assistant message opens with the text of the answer that followed
// the tool result (which the turns never sent back) merged in before its
// own blocks. Each form is the history with that assistant message
// without its first k blocks, for each k whose blocks are all text and
// leave at least one block that is not (the turns' form is one of them);
// the last message and the ones before the assistant message are as
// sent. None for a history that does not end so.
func (r *Request) ResentForms() []kompact.Conversation {
	n := len(r.messages)
	if n < 2 || !holdsToolResult(r.messages[n-1]) {
		return nil
	}
	var m wireMessage
	if json.Unmarshal(r.messages[n-2], &m) != nil || m.Role != "assistant" {
		return nil
	}
	blocks, err := contentBlocks(m.Content)
	if err != nil {
		return nil
	}
	texts := 0 // the leading text blocks
	for texts < len(blocks) && string(blocks[texts]["type"]) == `"text"` {
		texts++
	}
	if texts == len(blocks) {
		return nil
	}
	var forms []kompact.Conversation
	for k := 1; k <= texts; k++ {
		content, _ := json.Marshal(blocks[k:])
		resent, _ := json.Marshal(wireMessage{Role: m.Role, Content: content})
		h := r.Head(n)
		h.messages = append(h.messages[:n-2:n-2], resent, r.messages[n-1])
		forms = append(forms, h)
	}
	return forms
}

// holdsToolResult reports whether a message is a user message with a
// tool_result block.
func holdsToolResult(raw json.RawMessage) bool {
	var m wireMessage
	if json.Unmarshal(raw, &m) != nil || m.Role != "user" {
		return false
	}
	blocks, err := contentBlocks(m.Content)
	if err != nil {
		return false
	}
	for _, b := range blocks {
		if string(b["type"]) == `"tool_result"` {
			return true
		}
	}
	return false
}
