package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompactOffersOfType (issue 39 §4): the CLI offers only what the agent's type does:
// --start, --end and --up-to with a kimi-code agent are usage errors (exit 2) naming the
// flag and the type, and the file is not touched.
func TestCompactOffersOfType(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "agents.yaml")
	if err := os.WriteFile(cfg, []byte("agents:\n  kc:\n    llm:\n      base_url: http://127.0.0.1:1/v1\n      model: m\n    compaction:\n      enabled: true\n      type: kimi-code\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	session := `{"id":"s","agent":"kc","messages":[{"id":"m1","role":"user","content":"a"},{"id":"m2","role":"assistant","content":"b"}]}` + "\n"
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte(session), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--start", "--end", "--up-to"} {
		status, _, stderr := runCLI(t, "", nil, "compact", "--config", cfg, flag, "m1", path)
		if status != exitUsage || !strings.Contains(stderr, flag+" does not go with agent kc: its compaction type kimi-code compacts the whole session") {
			t.Errorf("%s: status %d, stderr %s", flag, status, stderr)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != session {
		t.Errorf("the file changed: %s", got)
	}
}
