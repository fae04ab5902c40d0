package title

import (
	"testing"

	"kompact"
	"kompact/internal/claudecode"
	"kompact/internal/testing/testenv"
)

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
		user(testenv.ClaudeCodeContinuation(t) + "\n\n<system-reminder>\nx\n</system-reminder>\nSummary:\nthe work so far"),
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
