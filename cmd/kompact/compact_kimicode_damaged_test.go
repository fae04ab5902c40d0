package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// kimiCodeSessionDir writes a Kimi Code session folder whose wire.jsonl is wire.
func kimiCodeSessionDir(t *testing.T, wire string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sessions", "ws", "session_1")
	if err := os.MkdirAll(filepath.Join(dir, "agents", "main"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(`{"id":"session_1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agents", "main", "wire.jsonl"), []byte(wire), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestKimiCodeDamagedWire (issue 39 §3): a wire.jsonl whose last line is torn, or whose
// line in the middle is not a record, is reported as damaged at its line and byte offset,
// by request, compact and sessions import --kimi-code alike, not as a file of another Kimi
// Code version to "compact with Kimi Code itself"; a record of another version still is.
func TestKimiCodeDamagedWire(t *testing.T) {
	head := `{"type":"metadata","protocol_version":"1.5"}` + "\n" +
		`{"type":"context.append_message","message":{"role":"user","content":[{"type":"text","text":"hi"}],"origin":{"kind":"user"}}}` + "\n"
	at := strconv.Itoa(len(head))
	for _, c := range []struct {
		name, wire string
		want       []string
	}{
		{"torn last line", head + `{"type":"context.append_mess`, []string{"last line (line 3, at byte offset " + at + ") is cut short", "Kimi Code may still be writing", "truncate -s " + at}},
		{"damaged line", head + "{not json\n" + head, []string{"line 3 (at byte offset " + at + ") is not a record", "damaged at line 3 (byte offset " + at + ")"}},
		{"another version", head + `{"type":"context.new_thing"}` + "\n", []string{`"context.new_thing"`, "Compact this session with Kimi Code itself"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := kimiCodeSessionDir(t, c.wire)
			for _, args := range [][]string{
				{"request", "--kimi-code", "--max-context-size", "100000", dir},
				{"compact", "--kimi-code", dir},
				{"sessions", "import", "--kimi-code", "--url", "http://127.0.0.1:9", dir},
			} {
				status, _, stderr := runCLI(t, "", map[string]string{"KIMI_CODE_PATH": "/nonexistent"}, args...)
				if status != exitError {
					t.Fatalf("%v: status %d: %s", args[0], status, stderr)
				}
				for _, w := range c.want {
					if !strings.Contains(stderr, w) {
						t.Errorf("%v: %q lacks %q", args[0], stderr, w)
					}
				}
				if c.name != "another version" && strings.Contains(stderr, "Kimi Code itself") {
					t.Errorf("%v: a damaged file told to be compacted with Kimi Code itself: %s", args[0], stderr)
				}
			}
		})
	}
}
