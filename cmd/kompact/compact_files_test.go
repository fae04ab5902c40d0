package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/fakellm"
)

// kimiContext is a small kimi-cli context.jsonl with two turns.
const kimiContext = `{"role":"user","content":"first question"}
{"role":"assistant","content":"first answer"}
{"role":"user","content":"second question"}
{"role":"assistant","content":"second answer"}
{"role":"user","content":"third question"}
{"role":"assistant","content":"third answer"}
`

// kimiContextFile writes data as context.jsonl in a folder of its own and
// returns the folder and the file's path.
func kimiContextFile(t *testing.T, data string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "context.jsonl")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// checkKimiUntouched fails unless the context.jsonl in dir holds want and
// was not rotated.
func checkKimiUntouched(t *testing.T, dir, want string) {
	t.Helper()
	if got := mustRead(t, filepath.Join(dir, "context.jsonl")); got != want {
		t.Errorf("context.jsonl = %q, want %q", got, want)
	}
	if _, err := os.Lstat(filepath.Join(dir, "context_1.jsonl")); err == nil {
		t.Error("context.jsonl was rotated")
	}
}

// appendDuringCall makes the fake LLM append line to path while it
// answers, as kimi-cli (or an editor) writing to the file mid-compaction.
func appendDuringCall(t *testing.T, srv *fakellm.Server, path, line string) {
	t.Helper()
	srv.SetFunc(func(fakellm.Request) fakellm.Reply {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
		} else {
			f.WriteString(line)
			f.Close()
		}
		return fakellm.Answer(fakellm.Text("<current_focus>\nQ2\n</current_focus>"))
	})
}

// TestCompactConflictWritesNothing: a session file that changes during
// the LLM call is left as the other program left it, with no backup, and
// the command fails with code conflict (exit 1), in the report and in
// --json.
func TestCompactConflictWritesNothing(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		srv, cfg, path := compactFixture(t, "")
		appendDuringCall(t, srv, path, "\n")
		args := []string{"--config", cfg, path}
		if asJSON {
			args = append([]string{"--json"}, args...)
		}
		status, stdout, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, args...)
		if status != exitError {
			t.Fatalf("json=%v: status %d, want %d\n%s", asJSON, status, exitError, stderr)
		}
		if got := mustRead(t, path); got != compactSession+"\n" {
			t.Fatalf("json=%v: the session file was changed: %q", asJSON, got)
		}
		if _, err := os.Lstat(path + ".bak"); err == nil {
			t.Errorf("json=%v: a backup was written", asJSON)
		}
		if asJSON {
			var out struct {
				Status string `json:"status"`
				Error  struct {
					Code    string `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(stdout), &out); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
			}
			if out.Status != "error" || out.Error.Code != string(kompact.EConflict) || !strings.Contains(out.Error.Message, "nothing was written") {
				t.Errorf("outcome %+v", out)
			}
			continue
		}
		if !strings.Contains(stderr, "changed while it was being compacted") || !strings.Contains(stderr, "nothing was written") ||
			!strings.Contains(stderr, "fix: ") {
			t.Errorf("stderr does not say what happened:\n%s", stderr)
		}
	}
}

// TestCompactKimiConflictRotatesNothing: a line kimi-cli appends to
// context.jsonl during the LLM call stays in context.jsonl; nothing is
// rotated and the command fails with a conflict.
func TestCompactKimiConflictRotatesNothing(t *testing.T) {
	srv, cfg, _ := compactFixture(t, "")
	dir, path := kimiContextFile(t, kimiContext)
	const late = `{"role":"user","content":"one more thing"}` + "\n"
	appendDuringCall(t, srv, path, late)
	status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "--kimi", path)
	if status != exitError || !strings.Contains(stderr, "changed while it was being compacted") {
		t.Fatalf("status %d: %s", status, stderr)
	}
	checkKimiUntouched(t, dir, kimiContext+late) // the appended line is kept
}

// TestCompactSymlinkWrittenThrough: compacting a symbolic link to a
// session writes the compacted session to the link's target; the link
// stays a link.
func TestCompactSymlinkWrittenThrough(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nQ2\n</current_focus>")))
	link := filepath.Join(t.TempDir(), "link.json")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, link)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	st, err := os.Lstat(link)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symbolic link (%v)", link, err)
	}
	checkCompacted(t, path)
	if got := mustRead(t, link+".bak"); got != compactSession {
		t.Errorf("backup %q", got)
	}
}

// TestCompactOutputNamingInput: -o naming the input itself, by the same
// path, another path or a symbolic link, replaces it in place with a
// backup.
func TestCompactOutputNamingInput(t *testing.T) {
	for _, name := range []string{"same path", "other path", "symlink"} {
		srv, cfg, path := compactFixture(t, "")
		srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nQ2\n</current_focus>")))
		out := path
		switch name {
		case "other path":
			// Not cleaned: a different string naming the same file.
			out = filepath.Dir(path) + "/./../" + filepath.Base(filepath.Dir(path)) + "//session.json"
		case "symlink":
			out = filepath.Join(t.TempDir(), "out.json")
			if err := os.Symlink(path, out); err != nil {
				t.Fatal(err)
			}
		}
		status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "-o", out, path)
		if status != exitOK {
			t.Fatalf("%s: status %d: %s", name, status, stderr)
		}
		if got := mustRead(t, path+".bak"); got != compactSession {
			t.Errorf("%s: no backup of the original (%q)", name, got)
		}
		if !strings.Contains(stderr, "is the input file itself") {
			t.Errorf("%s: stderr does not say -o is the input: %s", name, stderr)
		}
		checkCompacted(t, path)
	}
}

// TestCompactRemovesStaleTemporaryFiles: a temporary file an earlier,
// killed run left beside the session is removed by the next write.
func TestCompactRemovesStaleTemporaryFiles(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nQ2\n</current_focus>")))
	stale := filepath.Join(filepath.Dir(path), ".session.json.tmp-2147483646-123")
	os.WriteFile(stale, []byte("half"), 0o644)
	status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if _, err := os.Lstat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}
}

// checkCompacted fails unless path holds a compacted session.
func checkCompacted(t *testing.T, path string) {
	t.Helper()
	s, err := kompact.DecodeSession([]byte(mustRead(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Messages) != 4 {
		t.Fatalf("%s holds %d messages, want the compacted 4", path, len(s.Messages))
	}
}

// TestCompactKimiThinkAndBlankText: an answer of thinking and white
// space is kimi-cli's empty_response; context.jsonl is neither rewritten
// nor rotated.
func TestCompactKimiThinkAndBlankText(t *testing.T) {
	srv, cfg, _ := compactFixture(t, "")
	srv.SetDefault(fakellm.Answer(fakellm.Think("I thought about it."), fakellm.Text(" \n\x1c ")))
	dir, path := kimiContextFile(t, kimiContext)
	status, stdout, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "--kimi", "--json", path)
	if status != exitError || !strings.Contains(stdout, `"code": "empty_response"`) || !strings.Contains(stdout, "only thinking content") {
		t.Fatalf("status %d: %s %s", status, stdout, stderr)
	}
	checkKimiUntouched(t, dir, kimiContext)
}

// TestCompactKimiSymlink: a symlinked context.jsonl is written through to
// its target and stays a link; the old content is rotated beside the link.
func TestCompactKimiSymlink(t *testing.T) {
	srv, cfg, _ := compactFixture(t, "")
	srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nQ\n</current_focus>")))
	real := filepath.Join(t.TempDir(), "real.jsonl")
	os.WriteFile(real, []byte(kimiContext), 0o644)
	dir := t.TempDir()
	link := filepath.Join(dir, "context.jsonl")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "--kimi", link)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("context.jsonl is no longer a symbolic link (%v)", err)
	}
	if got := mustRead(t, real); got == kimiContext || !strings.Contains(got, "Previous context has been compacted") {
		t.Errorf("the target was not compacted: %q", got)
	}
	if got := mustRead(t, filepath.Join(dir, "context_1.jsonl")); got != kimiContext {
		t.Errorf("context_1.jsonl = %q", got)
	}
}

// TestCompactDeadline: an LLM that accepts the request and then stalls is
// given up on after the agent's compaction.timeout: exit 1, llm_error with
// a fix naming the setting, and the session file untouched.
func TestCompactDeadline(t *testing.T) {
	srv, cfg, path := compactFixture(t, "      timeout: 300ms\n")
	srv.SetDefault(fakellm.DefaultReply().WithDelay(time.Minute))
	status, stdout, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "--json", path)
	if status != exitError || !strings.Contains(stdout, `"code": "llm_error"`) || !strings.Contains(stdout, "did not finish within 300ms") ||
		!strings.Contains(stdout, "compaction.timeout") {
		t.Fatalf("status %d: %s %s", status, stdout, stderr)
	}
	if got := mustRead(t, path); got != compactSession {
		t.Errorf("the session file changed: %q", got)
	}
}

// TestCompactKimiOutputNamingInput: --kimi with -o naming context.jsonl
// itself is the in-place rewrite: the old file is rotated, not lost.
func TestCompactKimiOutputNamingInput(t *testing.T) {
	srv, cfg, _ := compactFixture(t, "")
	srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nQ\n</current_focus>")))
	dir, path := kimiContextFile(t, kimiContext)
	status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "--kimi", "-o", dir+"/./context.jsonl", path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if got := mustRead(t, filepath.Join(dir, "context_1.jsonl")); got != kimiContext {
		t.Errorf("context_1.jsonl = %q", got)
	}
	if got := mustRead(t, path); !strings.Contains(got, "Previous context has been compacted") {
		t.Errorf("context.jsonl was not compacted: %q", got)
	}
}
