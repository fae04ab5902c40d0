package anthropic

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// This file reads what a Claude Code compaction request asks beyond the
// compaction itself (docs/gateway.md, "Claude Code"): the user's own
// instructions (/compact TEXT), whether Claude Code would have compacted
// by itself at the session's size, and what it sends again by itself
// after the summary. Claude Code's texts are known by their SHA-256 and
// their place, never kept here (../shared/claude-code/README.md).

// instructionsLabelSHA256 is the SHA-256 of the line with which Claude
// Code 2.1.332 opens the user's instructions in its compaction prompt;
// the instructions follow on the next lines, up to the prompt's last
// paragraph (its closing reminder).
const instructionsLabelSHA256 = "071b11e611a13547a94efdf0c7161aa54e2f0e360900986c2bc9e7d4e7aac00f"

// CompactionInstructions returns the user's instructions a Claude Code
// compaction request carries (what follows /compact), "" for none: the
// lines after the prompt's instructions label, up to its last paragraph.
// Only meaningful when IsCompaction.
func (r *Request) CompactionInstructions() string {
	if len(r.messages) == 0 {
		return ""
	}
	text, ok := lastUserText(r.messages[len(r.messages)-1])
	if !ok {
		return ""
	}
	return instructionsIn(text)
}

// instructionsIn finds the user's instructions in a compaction prompt
// (see CompactionInstructions).
func instructionsIn(prompt string) string {
	end := strings.LastIndex(prompt, "\n\n")
	if end < 0 {
		return ""
	}
	at := -1
	for i := 0; i < end; {
		j := strings.IndexByte(prompt[i:end], '\n')
		line := prompt[i:end]
		if j >= 0 {
			line = prompt[i : i+j]
		}
		if sum := sha256.Sum256([]byte(line)); hex.EncodeToString(sum[:]) == instructionsLabelSHA256 {
			at = i + len(line)
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	if at < 0 {
		return ""
	}
	return strings.TrimSpace(prompt[at:end])
}

// claudeCodeBuffer is how far below its context window Claude Code 2.1.332
// compacts by itself (README: with a window of 1,000,000 tokens, 976,020
// reported tokens did not trigger it and 977,020 did).
const claudeCodeBuffer = 23000

// ClaudeCodeCompactsAt says whether Claude Code compacts by itself at a
// session's token count, for its model's context window: from the
// window less claudeCodeBuffer, or four fifths of it for a small window.
// An unknown window (0) says yes: every request is taken for its own.
// A compaction request below it is a person's /compact.
func ClaudeCodeCompactsAt(tokens, window int) bool {
	if window <= 0 {
		return true
	}
	return tokens >= max(window-claudeCodeBuffer, window/5*4)
}

// ClaudeCodeRestates says whether Claude Code sends a call of the named
// tool again by itself after a compaction: it re-attaches the files it
// read (a Read call and its result, as reminders) to the turn after it.
func ClaudeCodeRestates(tool string) bool { return tool == "Read" }

// RestatedResults returns the request's messages that hold only results
// of tool calls Claude Code restates (ClaudeCodeRestates), by index.
func (r *Request) RestatedResults() map[int]bool {
	restated := map[string]bool{}
	blocks := make([][]wireBlock, len(r.messages))
	for i, raw := range r.messages {
		var m struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) != nil || json.Unmarshal(m.Content, &blocks[i]) != nil {
			continue
		}
		for _, b := range blocks[i] {
			if b.Type == "tool_use" && ClaudeCodeRestates(b.Name) {
				restated[b.ID] = true
			}
		}
	}
	out := map[int]bool{}
	for i, bs := range blocks {
		only := len(bs) > 0
		for _, b := range bs {
			only = only && b.Type == "tool_result" && restated[b.ToolUseID]
		}
		if only {
			out[i] = true
		}
	}
	return out
}
