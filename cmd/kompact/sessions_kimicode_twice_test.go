package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact/internal/testing/kcvectors"
	"kompact/kimicode"
)

// TestSessionsExportKimiCodeSecondFolder (issue 39 §3): exporting a session into a second
// working folder of a Kimi Code home that holds its id already (here the original Kimi Code
// session the kompact session was imported from) gives the export an id of its own and
// says so, leaves the original as it was, and names the same folder when repeated (then
// refused: an export does not overwrite). Before, the second folder got the same Kimi Code
// id, and the first no longer resumed. With real Kimi Code (KIMI_CODE_BIN), both resume.
func TestSessionsExportKimiCodeSecondFolder(t *testing.T) {
	raw := kcvectors.Texts(t)
	ts := sessionsServer(t)
	c := caseNamed(t, "manual_tools_instruction")
	srv, m, environ := kimiCodeFixture(t, c, "compaction_1", raw)
	environ["KOMPACT_URL"], environ["KOMPACT_TOKEN"], environ["KIMI_CODE_HOME"] = ts.URL, "tok", m.Home
	if status, _, stderr := runCLI(t, "", environ, "sessions", "import", "--kimi-code", "--agent", "kimi", m.SessionDir); status != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	original := mustRead(t, filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl"))
	second := filepath.Join(t.TempDir(), "second")
	if err := os.MkdirAll(second, 0o755); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCLI(t, "", environ, "sessions", "export", "--kimi-code", "--cwd", second, m.SessionID)
	id := kimicode.ExportIDIn(m.SessionID, kimicode.WorkspaceID(second))
	if status != exitOK || id == m.SessionID || !strings.Contains(stdout, "kimi -r "+id) ||
		!strings.Contains(stderr, "already holds session "+m.SessionID) || !strings.Contains(stderr, "this export is Kimi Code session "+id) {
		t.Fatalf("export into a second folder: %d %q %q (want the new id %s and a note)", status, stdout, stderr, id)
	}
	dir := filepath.Join(m.Home, "sessions", kimicode.WorkspaceID(second), id)
	if state := mustRead(t, filepath.Join(dir, "state.json")); !strings.Contains(state, `"id":"`+id+`"`) {
		t.Errorf("state.json: %s", state)
	}
	if mustRead(t, filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl")) != original {
		t.Error("the export changed the original session")
	}
	if status, _, stderr := runCLI(t, "", environ, "sessions", "export", "--kimi-code", "--cwd", second, m.SessionID); status != exitError || !strings.Contains(stderr, dir+" already exists") {
		t.Errorf("the same export again: %d %s", status, stderr)
	}
	if os.Getenv("KIMI_CODE_BIN") == "" {
		t.Log("KIMI_CODE_BIN is not set: the resumes are not tried")
		return
	}
	for _, r := range []struct{ work, id string }{{m.Work, m.SessionID}, {second, id}} {
		body := resumeKimiCode(t, srv, m.Home, r.work, r.id, "What next?")
		if msgs, _ := body["messages"].([]any); len(msgs) < 3 {
			t.Errorf("Kimi Code resumed %s with %d messages", r.id, len(msgs))
		}
	}
}
