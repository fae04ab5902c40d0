// Package claudecode holds the facts kompact knows of Claude Code's wire
// that more than one package needs: the message it opens a history with
// after a compaction.
package claudecode

import (
	"crypto/sha256"
	"encoding/hex"
	"kompact"
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

// Continuation reports whether text is Claude Code's
// continuation after a compaction: its first paragraph (up to the first
// blank line) is the one Claude Code opens it with. It returns the rest,
// which holds the summary.
func Continuation(text string) (rest string, ok bool) {
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

// IsContinuation reports whether m is Claude Code's
// continuation message: a user message one of whose texts is
// (Continuation; Claude Code sends its reminders before it in
// the same message).
func IsContinuation(m kompact.Message) bool {
	if m.Role != kompact.RoleUser {
		return false
	}
	for _, p := range m.Content {
		if _, ok := Continuation(p.Text); ok && p.Type == kompact.PartText {
			return true
		}
	}
	return false
}
