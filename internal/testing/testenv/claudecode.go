package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// ClaudeCodeContinuation is the first paragraph of the message Claude Code opens a history with
// after its compaction, from ../shared/claude-code/README.md (the project holds only its digest,
// internal/claudecode), with its white space folded. Without the shared folder tb skips (Require).
func ClaudeCodeContinuation(tb testing.TB) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "claude-code", "README.md"))
	Require(tb, err == nil, "../shared/claude-code/README.md is not there", "check out the shared folder beside the repository")
	s := string(b)
	i := strings.Index(s, "`This session is being continued")
	j := strings.Index(s[max(i, 0):], `\n\n`)
	if i < 0 || j < 0 {
		tb.Fatal("../shared/claude-code/README.md no longer quotes the continuation's opening")
	}
	return strings.Join(strings.Fields(s[i+1:i+j]), " ")
}
