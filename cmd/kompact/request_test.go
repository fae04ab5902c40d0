package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"kompact/internal/golden"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/vectors"
)

// runCLI runs the command line in-process with the given environment.
func runCLI(t *testing.T, stdin string, environ map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(k string) string { return environ[k] }}
	status := run(context.Background(), args, e)
	return status, out.String(), errb.String()
}

// TestRequestMatchesVectors checks that "kompact request" prints exactly
// kimi-cli's llm_request.messages for every vector (KCP-001, 002, 003, 010,
// 011), and exits 3 with nothing on stdout where kimi-cli makes no request.
func TestRequestMatchesVectors(t *testing.T) {
	shared := vectors.SharedDir(t)
	environ := map[string]string{"KIMI_CLI_PATH": filepath.Join(shared, "kimi-cli", "compact.md")}
	dir := t.TempDir()
	for _, v := range vectors.Load(t) {
		t.Run(v.Name(), func(t *testing.T) {
			path := filepath.Join(dir, v.File)
			if err := os.WriteFile(path, v.InputJSON(), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"request", "--max-preserved", itoa(v.Params.MaxPreserved), "--model", "kimi-parity-model"}
			if !v.Params.CustomInstructionDefault {
				args = append(args, "--instructions", v.Params.CustomInstruction)
			}
			status, stdout, stderr := runCLI(t, "", environ, append(args, path)...)
			if !strings.Contains(stderr, "the genuine kimi-cli prompt") {
				t.Errorf("stderr does not say the genuine prompt is in effect:\n%s", stderr)
			}
			if v.Expected.LLMRequest == nil {
				if status != exitNoop || stdout != "" || !strings.Contains(stderr, "nothing to compact: ") {
					t.Fatalf("status %d, stdout %q, stderr %q; want 3, nothing, a reason", status, stdout, stderr)
				}
				return
			}
			if status != exitOK {
				t.Fatalf("status %d: %s", status, stderr)
			}
			var body map[string]json.RawMessage
			if err := json.Unmarshal([]byte(stdout), &body); err != nil {
				t.Fatalf("stdout is not JSON: %v", err)
			}
			if ok, diff := vectors.JSONEqual(body["messages"], v.Expected.LLMRequest.Messages); !ok {
				t.Fatalf("messages differ:\n%s", diff)
			}
			if _, ok := body["tools"]; ok {
				t.Error("the request carries tools")
			}
			if _, ok := body["tool_choice"]; ok {
				t.Error("the request carries tool_choice")
			}
			if string(body["model"]) != `"kimi-parity-model"` {
				t.Errorf("model %s", body["model"])
			}
		})
	}
}

// TestRequestGolden pins the bytes "kompact request examples/session.json"
// writes, with the built-in prompt: the request body on stdout, and the
// prompt and range on stderr.
func TestRequestGolden(t *testing.T) {
	noKimi := map[string]string{"HOME": t.TempDir()}
	status, stdout, stderr := runCLI(t, "", noKimi, "request", filepath.Join("..", "..", "examples", "session.json"))
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	golden.Check(t, "request-session.stdout", []byte(stdout))
	golden.Check(t, "request-session.stderr", []byte(stderr))
}

func TestRequestStdinAndSelection(t *testing.T) {
	doc := `{"compaction_model":"session-model","messages":[
	 {"id":"s","role":"system","content":"sys"},
	 {"id":"u1","role":"user","content":"one"},
	 {"id":"a1","role":"assistant","content":"two"},
	 {"id":"u2","role":"user","content":"three"},
	 {"id":"a2","role":"assistant","content":"four"}]}`
	noKimi := map[string]string{"HOME": t.TempDir()}
	status, stdout, stderr := runCLI(t, doc, noKimi, "request", "--up-to", "u1", "-")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(stdout), &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "session-model" {
		t.Errorf("model %q, want the session's compaction_model", body.Model)
	}
	user := string(body.Messages[1].Content)
	if !strings.Contains(user, "Role: system") || !strings.Contains(user, `"one"`) || strings.Contains(user, `"two"`) {
		t.Errorf("--up-to u1 should compact exactly [s, u1]: %s", user)
	}
	if !strings.Contains(stderr, "built-in prompt") {
		t.Errorf("stderr should name the built-in prompt: %s", stderr)
	}
	// --model wins over the session's compaction_model.
	_, stdout, _ = runCLI(t, doc, noKimi, "request", "--model", "flag-model", "--start", "u2", "--end", "#5", "-")
	if !strings.Contains(stdout, `"model":"flag-model"`) || strings.Contains(stdout, `"one"`) {
		t.Errorf("range u2..#5 with --model: %s", stdout)
	}
	// A prompt file replaces the prompt body.
	pf := filepath.Join(t.TempDir(), "p.md")
	os.WriteFile(pf, []byte("MY PROMPT\r\n"), 0o644)
	_, stdout, stderr = runCLI(t, doc, noKimi, "request", "--prompt-file", pf, "-")
	if !strings.Contains(stdout, `"\nMY PROMPT\n"`) || !strings.Contains(stderr, "prompt file ("+pf+")") {
		t.Errorf("prompt file not used: %s\n%s", stdout, stderr)
	}
}

func TestRequestErrors(t *testing.T) {
	noKimi := map[string]string{"HOME": t.TempDir()}
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		status int
		want   string
	}{
		{"bad json", `{"messages":[`, []string{"request", "-"}, exitError, "not valid JSON"},
		{"bad role", `{"messages":[{"role":"bot","content":"x"}]}`, []string{"request", "-"}, exitError, `stdin: invalid session: messages[0].role: unknown role "bot"`},
		{"missing file", "", []string{"request", "/nonexistent/s.json"}, exitError, "no such file"},
		{"no file", "", []string{"request"}, exitUsage, "exactly one session file"},
		{"two files", "", []string{"request", "a", "b"}, exitUsage, "exactly one session file"},
		{"up-to with end", "", []string{"request", "--up-to", "x", "--end", "y", "-"}, exitUsage, "cannot be combined"},
		{"unknown flag", "", []string{"request", "--bogus", "-"}, exitUsage, "bogus"},
		{"unknown message", `{"messages":[{"role":"user","content":"x"}]}`, []string{"request", "--end", "nope", "-"}, exitError, `no message has the id "nope"`},
		{"unknown command", "", []string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{"bad KIMI_CLI_PATH", `{"messages":[]}`, []string{"request", "-"}, exitError, "KIMI_CLI_PATH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			environ := noKimi
			if tc.name == "bad KIMI_CLI_PATH" {
				environ = map[string]string{"KIMI_CLI_PATH": "/nonexistent/kimi-cli"}
			}
			status, stdout, stderr := runCLI(t, tc.stdin, environ, tc.args...)
			if status != tc.status || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Fatalf("status %d (want %d), stdout %q, stderr %q (want %q)", status, tc.status, stdout, stderr, tc.want)
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestRequestCompletionBudget: with --max-context-size the request carries
// kimi-cli's completion budget as max_completion_tokens, and stderr says
// the figure; without it, none.
func TestRequestCompletionBudget(t *testing.T) {
	noKimi := map[string]string{"HOME": t.TempDir()}
	path := filepath.Join("..", "..", "examples", "session.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := kompact.DecodeSession(data)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := kompact.Prepare(sess, kompact.Options{MaxPreserved: kompact.DefaultMaxPreserved, Prompt: kompact.ResolvePrompt()})
	if err != nil {
		t.Fatal(err)
	}
	request, next := kompact.CompactionInputEstimates(plan, "", nil)
	for _, size := range []int{262144, max(request, next) + 1024 + 7} {
		want := size - (max(request, next) + 1024)
		status, stdout, stderr := runCLI(t, "", noKimi, "request", "--max-context-size", strconv.Itoa(size), path)
		if status != exitOK {
			t.Fatalf("status %d: %s", status, stderr)
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(stdout), &body); err != nil {
			t.Fatal(err)
		}
		if body["max_completion_tokens"] != float64(want) || !strings.Contains(stderr, fmt.Sprintf("completion budget: max_completion_tokens %d of a %d-token context", want, size)) {
			t.Errorf("size %d: max_completion_tokens %v, stderr %q; want %d", size, body["max_completion_tokens"], stderr, want)
		}
	}
	_, stdout, _ := runCLI(t, "", noKimi, "request", path)
	if strings.Contains(stdout, "max_completion_tokens") {
		t.Error("a request without a context size carries a completion budget")
	}
}
