package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionsImportSuggestsKimi checks that importing a kimi-cli
// context.jsonl without --kimi says to pass --kimi, whatever the file is
// called, and that other malformed files keep the session document error.
func TestSessionsImportSuggestsKimi(t *testing.T) {
	// Lines as kimi-cli's Context class writes them.
	kimi := `{"role": "_system_prompt", "content": "You are Kimi Code CLI."}
{"role": "_checkpoint", "id": 0}
{"role":"user","content":"list the files"}
{"role":"assistant","content":"Listing."}
{"role": "_usage", "token_count": 42}
`
	dir := t.TempDir()
	// Named .json on purpose: the content decides.
	path := filepath.Join(dir, "exported.json")
	if err := os.WriteFile(path, []byte(kimi), 0o644); err != nil {
		t.Fatal(err)
	}
	// The check happens before the server is asked: no server runs here.
	environ := map[string]string{"KOMPACT_URL": "http://127.0.0.1:1"}
	status, stdout, stderr := runCLI(t, "", environ, "sessions", "import", path)
	want := "kompact: " + path + " is a kimi-cli context.jsonl file, not a session JSON document\n" +
		"  fix: Pass --kimi to read it as kimi-cli's session file: kompact sessions import --kimi " + path + "\n"
	if status != exitError || stdout != "" || stderr != want {
		t.Errorf("status %d, stdout %q, stderr:\n%s\nwant:\n%s", status, stdout, stderr, want)
	}
	// From stdin, with a blank line first and a message as the first record.
	lines := strings.SplitN(kimi, "\n", 3)
	status, _, stderr = runCLI(t, "\n"+lines[2], environ, "sessions", "import", "-")
	if status != exitError || !strings.Contains(stderr, "stdin is a kimi-cli context.jsonl file") || !strings.Contains(stderr, "sessions import --kimi -\n") {
		t.Errorf("stdin: status %d, stderr %s", status, stderr)
	}
	// Not a kimi-cli file: the session document's own error.
	for _, doc := range []string{`{"messages":[`, "{\"role\":\"bot\"}\n{\"role\":\"bot\"}\n", "[1,2]"} {
		status, _, stderr = runCLI(t, doc, environ, "sessions", "import", "-")
		if status != exitError || strings.Contains(stderr, "--kimi") || !strings.Contains(stderr, "stdin: ") {
			t.Errorf("%q: status %d, stderr %s", doc, status, stderr)
		}
	}
}

// TestCompactAndRequestSuggestKimi checks that compact and request, given a
// kimi-cli context.jsonl without --kimi, also say to pass --kimi.
func TestCompactAndRequestSuggestKimi(t *testing.T) {
	path := filepath.Join(t.TempDir(), "context.jsonl")
	if err := os.WriteFile(path, []byte("{\"role\": \"_checkpoint\", \"id\": 0}\n{\"role\":\"user\",\"content\":\"hi\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"compact", "request"} {
		status, _, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir()}, cmd, path)
		want := "kompact: " + path + " is a kimi-cli context.jsonl file, not a session JSON document\n  fix: Pass --kimi to read it as kimi-cli's session file.\n"
		if status != exitError || stderr != want {
			t.Errorf("%s: status %d, stderr:\n%s\nwant:\n%s", cmd, status, stderr, want)
		}
	}
}

// TestKimiFlagOnSessionDocument checks that --kimi with a session JSON
// document says to leave it out, and writes nothing, instead of reading
// every line as a malformed kimi-cli record.
func TestKimiFlagOnSessionDocument(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "context.jsonl") // named like a kimi-cli file: the content decides
	doc := "{\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"assistant\", \"content\": \"hello\"}\n ]\n}\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "kompact: " + path + " is a session JSON document, not a kimi-cli context.jsonl file\n  fix: Leave out --kimi to read it as a session document.\n"
	environ := map[string]string{"HOME": t.TempDir(), "KOMPACT_URL": "http://127.0.0.1:1"}
	for _, args := range [][]string{{"compact", "--kimi", path}, {"request", "--kimi", path}, {"sessions", "import", "--kimi", path}} {
		status, stdout, stderr := runCLI(t, "", environ, args...)
		if status != exitError || stdout != "" || stderr != want {
			t.Errorf("%v: status %d, stdout %q, stderr:\n%s\nwant:\n%s", args, status, stdout, stderr, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if got := mustRead(t, path); got != doc || len(entries) != 1 {
		t.Errorf("the folder or the file changed: %d entries", len(entries))
	}
}
