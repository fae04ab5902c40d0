package title

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/claudecode"
	"kompact/internal/testing/testenv"
)

// continuationOpening reads the first paragraph of Claude Code's
// continuation message from ../shared/claude-code/README.md (the project
// holds only its digest).
func continuationOpening(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "claude-code", "README.md"))
	testenv.Require(t, err == nil, "../shared/claude-code/README.md is not there", "check out the shared folder beside the repository")
	s := string(b)
	i := strings.Index(s, "`This session is being continued")
	j := strings.Index(s[i:], `\n\n`)
	if i < 0 || j < 0 {
		t.Fatal("the README no longer quotes the continuation's opening")
	}
	return strings.Join(strings.Fields(s[i+1:i+j]), " ")
}

func user(texts ...string) kompact.Message {
	m := kompact.Message{Role: kompact.RoleUser}
	for _, s := range texts {
		m.Content = append(m.Content, kompact.Part{Type: kompact.PartText, Text: s})
	}
	return m
}

// TestDefaultTitleSkipsClientNotes (issue 39 §2): a title is the user's
// words: Claude Code's <system-reminder> blocks are left out, and its
// continuation after a compaction (the summary, then messages that hold
// only re-stated tool calls as reminders) is skipped for the next user
// message that holds words of the user.
func TestDefaultTitleSkipsClientNotes(t *testing.T) {
	first := []kompact.Message{user("<system-reminder>\nAttribution for commits…\n</system-reminder>\n", "say hi")}
	if got := DefaultTitle(first); got != "say hi" {
		t.Errorf("first turn's title %q, want the user's prompt", got)
	}
	cont := []kompact.Message{
		user(continuationOpening(t) + "\n\n<system-reminder>\nx\n</system-reminder>\nSummary:\nthe work so far"),
		{Role: kompact.RoleAssistant, Content: []kompact.Part{{Type: kompact.PartText, Text: "done"}}},
		user("<system-reminder>\nCalled the Read tool\n</system-reminder>"),
		user("<system-reminder>\nResult of calling the Read tool\n</system-reminder>", "what now?"),
	}
	if got := DefaultTitle(cont); got != "what now?" {
		t.Errorf("continued session's title %q, want the user's prompt", got)
	}
	if !claudecode.IsContinuation(cont[0]) || claudecode.IsContinuation(first[0]) {
		t.Errorf("IsContinuation does not tell the continuation")
	}
}
