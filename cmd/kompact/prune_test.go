package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/sessionjson"
	"kompact/toolprune"
)

// pruneFile writes a session of three tool exchanges, each result n
// characters long, and returns its path.
func pruneFile(t *testing.T, n int) (string, *kompact.Session) {
	t.Helper()
	s := &kompact.Session{Messages: []kompact.Message{{ID: "u", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("go")}}}}
	for i := range 3 {
		args := fmt.Sprintf(`{"command":"cat f%d.go"}`, i)
		s.Messages = append(s.Messages,
			kompact.Message{ID: fmt.Sprint("a", i), Role: kompact.RoleAssistant, ToolCalls: []kompact.ToolCall{{ID: fmt.Sprint("c", i), Name: "bash", Arguments: &args}}},
			kompact.Message{ID: fmt.Sprint("t", i), Role: kompact.RoleTool, ToolCallID: fmt.Sprint("c", i), HasToolCallID: true,
				Content: []kompact.Part{kompact.TextPart(fmt.Sprintf("pkg/f%d.go\n", i) + strings.Repeat("y", n))}})
	}
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, s.AppendJSON(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, s
}

// TestPruneCommand (issue 33 §3): kompact prune clears the old, long
// results of a session file in place (keeping a backup) with its flags'
// settings and reports it; run again, it has nothing to prune (exit 3,
// nothing written); --json prints the outcome the API answers.
func TestPruneCommand(t *testing.T) {
	path, orig := pruneFile(t, 3000)
	status, stdout, stderr := runCLI(t, "", nil, "prune", "--keep-recent", "1", "--min-chars", "1000", path)
	if status != exitOK || !strings.Contains(stdout, "pruned 2 tool results (6020 chars) older than the last 1 tool exchange") ||
		!strings.Contains(stdout, "artifacts the markers keep: 2 of 2 (paths 2/2)") || !strings.Contains(stdout, "(the original is in ") {
		t.Fatalf("status %d\n%s%s", status, stdout, stderr)
	}
	data, _ := os.ReadFile(path)
	s, err := sessionjson.DecodeSession(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range s.Messages {
		text := ""
		m.Texts(func(x string) { text += x })
		cleared := m.ID == "t0" || m.ID == "t1"
		if cleared != strings.HasPrefix(text, toolprune.MarkerPrefix) || !cleared && string(m.AppendJSON(nil)) != string(orig.Messages[i].AppendJSON(nil)) {
			t.Errorf("%s: %s", m.ID, m.AppendJSON(nil))
		}
	}
	status, stdout, _ = runCLI(t, "", nil, "prune", "--keep-recent", "1", "--min-chars", "1000", "--json", path)
	var out map[string]any
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || status != exitNoop || out["status"] != "noop" {
		t.Fatalf("second prune: status %d %v %s", status, err, stdout)
	}
	if again, _ := os.ReadFile(path); string(again) != string(data) {
		t.Error("a prune with nothing to clear wrote the file")
	}
}

// TestPruneFlagBounds (issue 40 §3): a flag value out of the pruning's
// bounds is a usage error (exit 2) naming the flag, as one that is no
// number is, not an error naming the configuration's field; nothing is
// written.
func TestPruneFlagBounds(t *testing.T) {
	path, orig := pruneFile(t, 3000)
	for _, args := range [][]string{
		{"--keep-recent", "-3"}, {"--min-chars", "1000001"}, {"--min-chars", "abc"},
	} {
		status, stdout, stderr := runCLI(t, "", nil, append(append([]string{"prune"}, args...), path)...)
		if status != exitUsage || stdout != "" || !strings.Contains(stderr, `invalid value "`+args[1]+`" for `+args[0]) ||
			strings.Contains(stderr, "keep_recent") || strings.Contains(stderr, "min_chars") {
			t.Errorf("%v: status %d, stderr %s", args, status, stderr)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != string(orig.AppendJSON(nil)) {
		t.Error("the session file changed")
	}
}
