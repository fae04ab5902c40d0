package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/golden"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
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
	// The range is numbered and counted as compact and the page do: the
	// kept system message is not among the compacted ones.
	if !strings.Contains(stderr, "compacts 1 message (#2 of 5) into one summary") || !strings.Contains(stderr, "; 1 kept before it, 3 after it") {
		t.Errorf("--up-to u1 should say it compacts message #2, one message: %s", stderr)
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

// TestReadmeRequestExample runs the README's "kompact request --up-to m4"
// example and checks that the README shows what it prints: the notes on
// stderr, then the first lines jq -r '.messages[1].content[].text' shows.
func TestReadmeRequestExample(t *testing.T) {
	readme := mustRead(t, filepath.Join("..", "..", "README.md"))
	const cmdline = "$ kompact request --up-to m4 examples/session.json | jq -r '.messages[1].content[].text' | head -5\n"
	_, block, ok := strings.Cut(readme, cmdline)
	if !ok {
		t.Fatalf("the README lacks the example %q", cmdline)
	}
	want, _, _ := strings.Cut(block, "```")
	status, stdout, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir()},
		"request", "--up-to", "m4", filepath.Join("..", "..", "examples", "session.json"))
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var body struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(stdout), &body); err != nil || len(body.Messages) != 2 {
		t.Fatalf("%v: %s", err, stdout)
	}
	if err := json.Unmarshal(body.Messages[1].Content, &parts); err != nil {
		t.Fatal(err)
	}
	// jq -r prints each text on a line of its own; head -5 keeps five lines.
	var jq strings.Builder
	for _, p := range parts {
		jq.WriteString(p.Text + "\n")
	}
	lines := strings.SplitAfter(jq.String(), "\n")
	got := stderr + strings.Join(lines[:5], "")
	if got != want {
		t.Errorf("the README shows:\n%s\nthe command prints:\n%s", want, got)
	}
}

// TestRequestIsWhatCompactSends checks that "kompact request" with compact's
// flags prints, byte for byte, the body "kompact compact" sends to the LLM:
// the agent chosen with --agent from the --config file (not the session's
// agent), its model, prompt, request settings and max_preserved_messages, and
// --max-preserved, --model, --instructions and the range flags meaning the
// same in both commands.
func TestRequestIsWhatCompactSends(t *testing.T) {
	srv := fakellm.New(t)
	dir := t.TempDir()
	prompt := filepath.Join(dir, "prompt.md")
	writeConfigTestFile(t, prompt, "Summarise for the other agent.\n")
	cfg := filepath.Join(dir, "agents.yaml")
	writeConfigTestFile(t, cfg, `default_agent: chat
agents:
  chat:
    llm: {base_url: `+srv.URL()+`, model: chat-model, api_key_env: FAKE_KEY}
    compaction: {enabled: true, type: kimi}
  other:
    llm:
      base_url: `+srv.URL()+`
      model: other-model
      api_key_env: FAKE_KEY
      temperature: 0.6
      max_tokens: 4000
      extra_body: {top_k: 5}
    compaction:
      enabled: true
      type: kimi
      max_preserved_messages: 3
      compaction_model: other-compaction-model
      prompt_file: prompt.md
      settings_overrides: {temperature: 0.2}
`)
	sess := filepath.Join(dir, "session.json")
	var msgs []string
	for i := 1; i <= 5; i++ {
		msgs = append(msgs, fmt.Sprintf(`{"id":"u%d","role":"user","content":"question %d"}`, i, i),
			fmt.Sprintf(`{"id":"a%d","role":"assistant","content":"answer %d"}`, i, i))
	}
	writeConfigTestFile(t, sess, `{"agent":"chat","messages":[{"id":"sys","role":"system","content":"You are an agent."},`+strings.Join(msgs, ",")+`]}`)
	environ := map[string]string{"FAKE_KEY": "sk-test", "HOME": t.TempDir()}
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the body
	}{
		{"agent's settings", nil, []string{`"model":"other-compaction-model"`, `"temperature":0.2`, `"max_tokens":4000`, `"top_k":5`, "Summarise for the other agent.", `"answer 2"`}},
		{"max-preserved", []string{"--max-preserved", "1"}, []string{`"answer 4"`}},
		{"max-preserved 0 compacts nothing", []string{"--max-preserved", "0"}, nil},
		{"range, model, instructions", []string{"--start", "u2", "--end", "a3", "--model", "flag-model", "--instructions", "Keep the numbers."},
			[]string{`"model":"flag-model"`, "Keep the numbers.", `"question 2"`}},
		{"up-to", []string{"--up-to", "#4"}, []string{`"question 2"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--config", cfg, "--agent", "other"}, tc.args...)
			rstatus, body, rerr := runCLI(t, "", environ, append(append([]string{"request"}, args...), sess)...)
			before := len(srv.Requests())
			srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nsummary\n</current_focus>")))
			out := filepath.Join(t.TempDir(), "out.json")
			cstatus, _, cerr := runCLI(t, "", environ, append(append([]string{"compact", "-o", out}, args...), sess)...)
			reqs := srv.Requests()[before:]
			if tc.want == nil {
				if rstatus != exitNoop || cstatus != exitNoop || body != "" || len(reqs) != 0 {
					t.Fatalf("request %d %q, compact %d with %d requests; want both no-ops", rstatus, body, cstatus, len(reqs))
				}
				return
			}
			if rstatus != exitOK || cstatus != exitOK || len(reqs) != 1 {
				t.Fatalf("request %d (%s), compact %d (%s), %d requests sent", rstatus, rerr, cstatus, cerr, len(reqs))
			}
			if body != string(reqs[0].Body)+"\n" {
				t.Errorf("request prints\n%s\ncompact sent\n%s", body, reqs[0].Body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("the body lacks %s:\n%s", w, body)
				}
			}
			if strings.Contains(body, `"chat-model"`) {
				t.Errorf("the session's agent was used instead of --agent: %s", body)
			}
		})
	}
}

// TestRequestCompletionBudget: with a context size (--max-context-size, or
// the agent's llm.max_context_size) the body carries kimi-cli's completion
// budget as compact would send it: for the built-in Kimi agent
// max_completion_tokens = size − (input estimate + 1024), at least 1; stderr
// shows the figure. Without a size, none.
func TestRequestCompletionBudget(t *testing.T) {
	noKimi := map[string]string{"HOME": t.TempDir()}
	path := filepath.Join("..", "..", "examples", "session.json")
	budget := func(size int) (float64, string) {
		t.Helper()
		status, stdout, stderr := runCLI(t, "", noKimi, "request", "--max-context-size", strconv.Itoa(size), path)
		if status != exitOK {
			t.Fatalf("status %d: %s", status, stderr)
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(stdout), &body); err != nil {
			t.Fatal(err)
		}
		n, _ := body["max_completion_tokens"].(float64)
		return n, stderr
	}
	a, stderr := budget(262144)
	b, _ := budget(262144 + 100)
	if a <= 0 || a >= 262144-1024 || b-a != 100 {
		t.Fatalf("max_completion_tokens %v and %v for sizes 262144 and 262244", a, b)
	}
	if want := fmt.Sprintf("completion budget: %d tokens of a 262144-token context", int(a)); !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
	if c, _ := budget(100); c != 1 {
		t.Errorf("a context too small for the input: max_completion_tokens %v, want 1", c)
	}
	_, stdout, _ := runCLI(t, "", noKimi, "request", path)
	if strings.Contains(stdout, "max_completion_tokens") {
		t.Error("a request without a context size carries a completion budget")
	}
}

// A no-op names the prompt the run would use, as other runs do (issue 19
// §4), and a plan of the library names it too.
func TestRequestNoopNamesThePrompt(t *testing.T) {
	doc := `{"messages":[{"id":"u1","role":"user","content":"one"},{"id":"a1","role":"assistant","content":"two"}]}`
	status, stdout, stderr := runCLI(t, doc, map[string]string{"HOME": t.TempDir()}, "request", "-")
	if status != exitNoop || stdout != "" {
		t.Fatalf("status %d, stdout %q", status, stdout)
	}
	want := kimi.DescribePrompt(kimi.BuiltinPrompt()) + "\nnothing to compact: "
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("stderr %q, want it to start with %q", stderr, want)
	}
}

// A session file's JSON syntax error names its line and column, as the
// configuration's errors do (issue 19 §4).
func TestRequestSyntaxErrorNamesLineAndColumn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.json")
	doc := "{\"id\": \"x\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"é\" \"id\": \"u1\"}]}"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	status, _, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir()}, "request", path)
	want := "kompact: " + path + ": session is not valid JSON at line 3, column 35: invalid character '\"' after object key:value pair\n"
	if status != exitError || !strings.HasPrefix(stderr, want) {
		t.Errorf("status %d, stderr:\n%s\nwant it to start with:\n%s", status, stderr, want)
	}
}

// TestRequestStandingInstructions: the agent's compaction.instructions and
// --instructions are joined, in that order, into the request's one custom
// instruction (KCP-011, issue 33 §2), and request says the joined text on
// stderr; without either, stderr says nothing of instructions.
func TestRequestStandingInstructions(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "agents.yaml")
	writeConfigTestFile(t, cfg, `agents:
  chat:
    llm: {base_url: "http://127.0.0.1:1/v1", model: chat-model}
    compaction: {enabled: true, type: kimi, instructions: "Keep the schema."}
  plain:
    llm: {base_url: "http://127.0.0.1:1/v1", model: chat-model}
    compaction: {enabled: true, type: kimi}
`)
	path := filepath.Join("..", "..", "examples", "session.json")
	env := map[string]string{"HOME": t.TempDir()}
	const intro = "**User's Custom Compaction Instruction:**\nThe user has specifically requested the following focus during compaction. You MUST prioritize this instruction above the default compression priorities:\n"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"agent", []string{"--agent", "chat"}, "Keep the schema."},
		{"agent and run", []string{"--agent", "chat", "--instructions", "The login bug."}, "Keep the schema.\n\nThe login bug."},
		{"run", []string{"--agent", "plain", "--instructions", "The login bug."}, "The login bug."},
		{"none", []string{"--agent", "plain"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"request", "--config", cfg}, tc.args...), path)
			status, stdout, stderr := runCLI(t, "", env, args...)
			if status != exitOK {
				t.Fatalf("status %d: %s", status, stderr)
			}
			var body struct {
				Messages []struct {
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			var parts []struct{ Text string }
			if err := json.Unmarshal([]byte(stdout), &body); err != nil || len(body.Messages) != 2 {
				t.Fatalf("%v: %s", err, stdout)
			}
			if err := json.Unmarshal(body.Messages[1].Content, &parts); err != nil || len(parts) == 0 {
				t.Fatalf("%v: %s", err, stdout)
			}
			last := parts[len(parts)-1].Text
			line := fmt.Sprintf("custom instruction: %q\n", tc.want)
			if tc.want == "" {
				if strings.Contains(last, "Custom Compaction Instruction") || strings.Contains(stderr, "custom instruction") {
					t.Fatalf("no instructions, yet: %q / %q", last, stderr)
				}
				return
			}
			if !strings.HasSuffix(last, intro+tc.want) || !strings.Contains(stderr, line) {
				t.Fatalf("prompt part ends %q, stderr %q; want %q and %q", last[max(0, len(last)-200):], stderr, tc.want, line)
			}
		})
	}
}
