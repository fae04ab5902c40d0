package anthropic

import (
	"encoding/json"
	"strings"
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
