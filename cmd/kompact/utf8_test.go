package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusesInvalidUTF8 (issue 40 §1): a session file with a byte that is
// not UTF-8 (here in the last message, the tail compact keeps word for
// word) is refused by request, compact -o, prune and sessions import (from
// a file, streamed, and from stdin), with the byte's offset and the
// message it sits in; a kimi-cli file names the line. Nothing is written,
// nothing is stored, the file is untouched.
func TestRefusesInvalidUTF8(t *testing.T) {
	doc := strings.Replace(compactSession, `"agent":"fake"`, `"agent":"kimi"`, 1)
	last := strings.LastIndex(doc, `"content":"`) + len(`"content":"`)
	doc = doc[:last] + "caf\xe9 " + doc[last:]
	at := strings.Index(doc, "\xe9")
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	ts := sessionsServer(t)
	environ := map[string]string{"KOMPACT_URL": ts.URL, "KOMPACT_TOKEN": "tok"}
	want := fmt.Sprintf("%s is not valid UTF-8 (at byte %d, in messages[4])", path, at)
	for _, args := range [][]string{
		{"request", path},
		{"compact", "-o", out, path},
		{"prune", "-o", out, path},
		{"sessions", "import", path},
		{"sessions", "import", "--id", "other", path},
	} {
		status, stdout, stderr := runCLI(t, "", environ, args...)
		if status != exitError || !strings.Contains(stderr, want) || stdout != "" || !strings.Contains(stderr, "fix: Save the file as UTF-8") {
			t.Errorf("%v: status %d, stdout %q, stderr %s; want 1 and %q", args, status, stdout, stderr, want)
		}
	}
	status, _, stderr := runCLI(t, doc, environ, "sessions", "import", "-")
	if status != exitError || !strings.Contains(stderr, fmt.Sprintf("stdin is not valid UTF-8 (at byte %d, in messages[4])", at)) {
		t.Errorf("import from stdin: %d %s", status, stderr)
	}
	kimiFile := filepath.Join(dir, "context.jsonl")
	if err := os.WriteFile(kimiFile, []byte("{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"caf\xe9\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"request", "--kimi", kimiFile}, {"compact", "--kimi", "-o", out, kimiFile}, {"sessions", "import", "--kimi", kimiFile}} {
		status, _, stderr := runCLI(t, "", environ, args...)
		if status != exitError || !strings.Contains(stderr, "is not valid UTF-8 (at byte 65, in line 2)") {
			t.Errorf("%v: status %d, stderr %s", args, status, stderr)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was written: %v", out, err)
	}
	if data, _ := os.ReadFile(path); string(data) != doc {
		t.Error("the session file changed")
	}
	if status, _, stderr := runCLI(t, "", environ, "sessions", "list"); status != exitOK || !strings.Contains(stderr, "no sessions") {
		t.Errorf("the server stored something: %d %s", status, stderr)
	}
}
