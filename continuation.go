package kompact

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// claudeCodeContinuation is the SHA-256, in hex, of the first paragraph of
// the user message Claude Code 2.1.332 opens a history with after a
// compaction ("This session is being continued …", then the summary; see
// ../shared/claude-code/README.md). Only the digest is kept here: the
// text is Claude Code's.
const claudeCodeContinuation = "3a400c3c7217ffb16d79b4277bc347b63e52724e4c201d8752015c00c005568f"

// maxContinuationOpening bounds the first paragraph ClaudeCodeContinuation
// digests: the known one is 150 bytes.
const maxContinuationOpening = 1024

// ClaudeCodeContinuation reports whether text is Claude Code's
// continuation after a compaction: its first paragraph (up to the first
// blank line) is the one Claude Code opens it with. It returns the rest,
// which holds the summary.
func ClaudeCodeContinuation(text string) (rest string, ok bool) {
	head, rest, found := strings.Cut(text, "\n\n")
	if !found || len(head) > maxContinuationOpening {
		return "", false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(head)))
	if hex.EncodeToString(sum[:]) != claudeCodeContinuation {
		return "", false
	}
	return rest, true
}

// IsClaudeCodeContinuation reports whether m is Claude Code's
// continuation message: a user message one of whose texts is
// (ClaudeCodeContinuation; Claude Code sends its reminders before it in
// the same message).
func IsClaudeCodeContinuation(m Message) bool {
	if m.Role != RoleUser {
		return false
	}
	for _, p := range m.Content {
		if _, ok := ClaudeCodeContinuation(p.Text); ok && p.Type == PartText {
			return true
		}
	}
	return false
}
