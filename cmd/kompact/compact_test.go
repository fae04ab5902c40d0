package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/golden"
	"kompact/internal/testing/vectors"
	"kompact/kimi"
)

const compactSession = `{"id":"s1","agent":"fake","messages":[
 {"id":"sys","role":"system","content":"You are an agent."},
 {"id":"u1","role":"user","content":"first question"},
 {"id":"a1","role":"assistant","content":"first answer"},
 {"id":"u2","role":"user","content":"second question"},
 {"id":"a2","role":"assistant","content":"second answer"}
]}`

// compactFixture writes a configuration whose agent talks to a fake LLM
// server, and a session file.
func compactFixture(t *testing.T, extra string) (srv *fakellm.Server, cfgPath, sessPath string) {
	t.Helper()
	srv = fakellm.New(t)
	dir := t.TempDir()
	cfgPath = filepath.Join(dir, "agents.yaml")
	cfg := `default_agent: fake
agents:
  fake:
    llm:
      base_url: ` + srv.URL() + `
      model: chat-model
      api_key_env: FAKE_KEY
    compaction:
      enabled: true
      type: kimi
` + extra
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	sessPath = filepath.Join(dir, "session.json")
	if err := os.WriteFile(sessPath, []byte(compactSession), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, cfgPath, sessPath
}

// runCompact runs "kompact compact ARGS..." in-process (runCLI), stdin empty.
func runCompact(t *testing.T, environ map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runCLI(t, "", environ, append([]string{"compact"}, args...)...)
}

func TestCompactInPlaceWithBackup(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	srv.Enqueue(fakellm.Answer(fakellm.Think("hmm"), fakellm.Text("<current_focus>\nQ2\n</current_focus>")).
		WithUsage(fakellm.Usage{PromptTokens: 300, CompletionTokens: 12}))
	environ := map[string]string{"FAKE_KEY": "sk-test-123", "HOME": t.TempDir()}
	status, stdout, stderr := runCompact(t, environ, "--config", cfg, path)
	if status != exitOK {
		t.Fatalf("status %d\n%s", status, stderr)
	}
	golden.Check(t, "compact_report", []byte(strings.ReplaceAll(stdout, filepath.Dir(path), "$DIR")))
	if strings.Contains(stdout+stderr, "sk-test-123") {
		t.Error("the API key was printed")
	}
	orig, _ := os.ReadFile(path + ".bak")
	if string(orig) != compactSession {
		t.Fatal("the backup is not the original file byte for byte")
	}
	data, _ := os.ReadFile(path)
	s, err := kompact.DecodeSession(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Messages) != 4 || s.Messages[0].ID != "sys" || s.Messages[2].ID != "u2" ||
		s.Messages[1].Content[0].Text != kompact.SummaryPrefix+"\n<current_focus>\nQ2\n</current_focus>" || s.Agent != "fake" {
		t.Fatalf("written session: %s", data)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Model() != "chat-model" || reqs[0].Header.Get("Authorization") != "Bearer sk-test-123" {
		t.Fatalf("requests %+v", reqs)
	}
	var body map[string]any
	json.Unmarshal(reqs[0].Body, &body)
	if _, ok := body["tools"]; ok {
		t.Error("the request carries tools")
	}
}

func TestCompactOutputsAndJSON(t *testing.T) {
	srv, cfg, path := compactFixture(t, "      compaction_model: small-model\n")
	srv.SetDefault(fakellm.Answer(fakellm.Text("S")))
	environ := map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}

	// -o OUT leaves the input alone.
	out := filepath.Join(t.TempDir(), "out.json")
	status, _, stderr := runCompact(t, environ, "--config", cfg, "--up-to", "a1", "-o", out, path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if in, _ := os.ReadFile(path); string(in) != compactSession {
		t.Fatal("-o changed the input")
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Fatal("-o made a backup")
	}
	written, _ := os.ReadFile(out)
	if !strings.Contains(string(written), `"id":"u2"`) || strings.Contains(string(written), `"id":"u1"`) {
		t.Fatalf("--up-to a1 output: %s", written)
	}
	if got := srv.Requests()[0].Model(); got != "small-model" {
		t.Errorf("model %q, want the agent's compaction_model", got)
	}

	// --json prints the outcome; --model wins over everything.
	status, stdout, stderr := runCompact(t, environ, "--config", cfg, "--json", "--model", "flag-model", "-o", out, path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var o struct {
		Status string `json:"status"`
		Model  string `json:"model"`
		Result struct {
			Compacted int `json:"compacted_messages"`
			Session   struct {
				Messages []json.RawMessage `json:"messages"`
			} `json:"session"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &o); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if o.Status != "compacted" || o.Model != "flag-model" || o.Result.Compacted != 3 || len(o.Result.Session.Messages) != 4 {
		t.Errorf("outcome %+v", o)
	}

	// stdin to stdout: the session on stdout, the report on stderr.
	status, sout, serr := runCLI(t, compactSession, environ, "compact", "--config", cfg, "-")
	if status != exitOK {
		t.Fatalf("stdin: status %d: %s", status, serr)
	}
	if _, err := kompact.DecodeSession([]byte(sout)); err != nil || !strings.Contains(serr, "compacted 2 messages into one summary (agent fake, model small-model); 1 kept before it, 2 after it") {
		t.Fatalf("stdin run: stdout %q stderr %q", sout, serr)
	}
}

func TestCompactNoopAndErrorsLeaveTheFile(t *testing.T) {
	srv, cfg, path := compactFixture(t, "      max_preserved_messages: 10\n")
	environ := map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}
	status, stdout, stderr := runCompact(t, environ, "--config", cfg, path)
	if status != exitNoop || stdout != "" || !strings.Contains(stderr, "nothing to compact") {
		t.Fatalf("no-op: status %d stdout %q stderr %q", status, stdout, stderr)
	}
	status, stdout, _ = runCompact(t, environ, "--config", cfg, "--json", path)
	if status != exitNoop {
		t.Fatalf("--json no-op: %d %s", status, stdout)
	}
	golden.Check(t, "compact_noop_json", []byte(stdout))

	srv.SetDefault(fakellm.Fail(401, "invalid api key"))
	status, _, stderr = runCompact(t, environ, "--config", cfg, "--max-preserved", "1", path)
	if status != exitError || !strings.Contains(stderr, "401") {
		t.Fatalf("401: status %d: %s", status, stderr)
	}
	srv.SetDefault(fakellm.Answer())
	status, _, stderr = runCompact(t, environ, "--config", cfg, "--max-preserved", "1", path)
	if status != exitError || !strings.Contains(stderr, kimi.EmptyResponseMessage) {
		t.Fatalf("empty answer: status %d: %s", status, stderr)
	}
	status, _, stderr = runCompact(t, map[string]string{"HOME": t.TempDir()}, "--config", cfg, "--max-preserved", "1", path)
	if status != exitError || !strings.Contains(stderr, "FAKE_KEY is not set") {
		t.Fatalf("missing key: status %d: %s", status, stderr)
	}
	status, _, stderr = runCompact(t, environ, "--config", cfg, "--agent", "nobody", path)
	if status != exitError || !strings.Contains(stderr, `no agent "nobody"`) {
		t.Fatalf("unknown agent: status %d: %s", status, stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != compactSession {
		t.Fatal("a no-op or a failure changed the session file")
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Fatal("a no-op or a failure left a backup")
	}
}

func TestCompactDisabledAgent(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	os.WriteFile(cfg, []byte(strings.Replace(mustRead(t, cfg), "enabled: true", "enabled: false", 1)), 0o644)
	status, _, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k"}, "--config", cfg, path)
	if status != exitError || !strings.Contains(stderr, "compaction is not enabled for agent fake") {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if len(srv.Requests()) != 0 {
		t.Fatal("a disabled agent called the LLM")
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCompactKimiContextFile compacts kimi-cli's example session file in
// place: the result is byte for byte kimi-cli's own, and the original is
// kept as context_1.jsonl.
func TestCompactKimiContextFile(t *testing.T) {
	example := filepath.Join(vectors.SharedDir(t), "kimi-parity", "context-example")
	before := mustRead(t, filepath.Join(example, "before.context.jsonl"))
	after := mustRead(t, filepath.Join(example, "after.context.jsonl"))
	srv, cfg, _ := compactFixture(t, "")
	srv.Enqueue(fakellm.Answer(fakellm.Text("<current_focus>\nDemo.\n</current_focus>")).
		WithUsage(fakellm.Usage{PromptTokens: 500, CompletionTokens: 12}))
	dir, path := kimiContextFile(t, before)
	status, stdout, stderr := runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "--kimi", path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if got := mustRead(t, path); got != after {
		t.Fatalf("context.jsonl:\n%s\nwant:\n%s", got, after)
	}
	if got := mustRead(t, filepath.Join(dir, "context_1.jsonl")); got != before {
		t.Fatal("context_1.jsonl is not the original")
	}
	if !strings.Contains(stdout, "the original is in "+filepath.Join(dir, "context_1.jsonl")) {
		t.Errorf("report: %s", stdout)
	}
	// The system prompt is not part of the transcript.
	if body := string(srv.Requests()[0].Body); strings.Contains(body, "Kimi Code CLI") {
		t.Error("the _system_prompt reached the compaction request")
	}
	// A malformed line is reported by number, and kept in the rotated copy.
	os.WriteFile(path, []byte(before+"{broken\n"), 0o644)
	srv.Enqueue(fakellm.Answer(fakellm.Text("S")))
	status, _, stderr = runCompact(t, map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}, "--config", cfg, "--kimi", path)
	if status != exitOK || !strings.Contains(stderr, "warning: "+path+": line 12: not valid JSON") {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if got := mustRead(t, filepath.Join(dir, "context_2.jsonl")); !strings.HasSuffix(got, "{broken\n") {
		t.Fatal("the rotated copy lost the malformed line")
	}
}

// Without the agent's API key, compact says so first and alone: it does
// not look up the model's context size first (a look-up that needs the key
// too, and only warns), and it sends nothing (issue 19 §4).
func TestCompactMissingKeyComesFirst(t *testing.T) {
	_, _, sessPath := compactFixture(t, "")
	data := strings.Replace(compactSession, `"agent":"fake"`, `"agent":"kimi"`, 1)
	if err := os.WriteFile(sessPath, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCompact(t, map[string]string{}, "-o", sessPath+".out", sessPath)
	if status != exitError || stdout != "" {
		t.Fatalf("status %d, stdout %q", status, stdout)
	}
	if !strings.HasPrefix(stderr, "kompact: MOONSHOT_API_KEY is not set") || strings.Contains(stderr, "warning") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if _, err := os.Stat(sessPath + ".out"); !os.IsNotExist(err) {
		t.Errorf("an output was written: %v", err)
	}
}

// A Kimi agent's compaction that sends nothing (here --max-preserved -1)
// looks nothing up either: no model-list request, so no warning about the
// context size, and no completion budget, only why nothing was compacted.
func TestCompactNoopLooksNothingUp(t *testing.T) {
	_, _, sessPath := compactFixture(t, "")
	data := strings.Replace(compactSession, `"agent":"fake"`, `"agent":"kimi"`, 1)
	if err := os.WriteFile(sessPath, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCompact(t, map[string]string{"MOONSHOT_API_KEY": "k"}, "--max-preserved", "-1", sessPath)
	if status != exitNoop || stdout != "" {
		t.Fatalf("status %d, stdout %q", status, stdout)
	}
	if !strings.HasPrefix(stderr, "nothing to compact: max_preserved_messages is -1") || strings.Contains(stderr, "warning") || strings.Contains(stderr, "budget") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if got := mustRead(t, sessPath); got != data {
		t.Error("the session file changed")
	}
}

// --json prints exactly one JSON document on stdout, also when the session
// would go there (-o -, or input -): the outcome, whose result holds the
// compacted session. With --kimi the file cannot go there: a usage error
// (issue 19 §4).
func TestCompactJSONIsOneDocument(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	srv.SetDefault(fakellm.Answer(fakellm.Text("S")))
	environ := map[string]string{"FAKE_KEY": "k", "HOME": t.TempDir()}
	for _, args := range [][]string{
		{"--config", cfg, "--json", "-o", "-", path},
		{"--config", cfg, "--json", "-"},
		{"--config", cfg, "--json", "-o", "-", "-"},
	} {
		status, stdout, serr := runCLI(t, compactSession, environ, append([]string{"compact"}, args...)...)
		if status != exitOK {
			t.Fatalf("%v: status %d: %s", args, status, serr)
		}
		sout := strings.NewReader(stdout)
		dec := json.NewDecoder(sout)
		var o struct {
			Status string `json:"status"`
			Result struct {
				Session struct {
					Messages []json.RawMessage `json:"messages"`
				} `json:"session"`
			} `json:"result"`
		}
		if err := dec.Decode(&o); err != nil || o.Status != "compacted" || len(o.Result.Session.Messages) != 4 {
			t.Fatalf("%v: %v, outcome %+v", args, err, o)
		}
		if rest, _ := io.ReadAll(dec.Buffered()); strings.TrimSpace(string(rest)) != "" || sout.Len() != 0 {
			t.Errorf("%v: more than one document on stdout: %q", args, string(rest)+stdout[len(stdout)-sout.Len():])
		}
	}
	if in, _ := os.ReadFile(path); string(in) != compactSession {
		t.Error("the input changed")
	}
	status, _, stderr := runCompact(t, environ, "--config", cfg, "--json", "--kimi", "-o", "-", path)
	if status != exitUsage || !strings.Contains(stderr, "give -o FILE") {
		t.Errorf("--json --kimi -o -: status %d, %s", status, stderr)
	}
}

// The README's compact examples on the tracked examples/ files write
// elsewhere (-o): following them must not rewrite a file of the checkout
// (issue 19 §4).
func TestReadmeCompactExamplesUseO(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\n", " ")
	n := 0
	for _, cmd := range strings.Split(text, "go run ./cmd/kompact compact")[1:] {
		cmd, _, _ = strings.Cut(cmd, "examples/")
		if len(cmd) > 120 { // not an example on examples/ files
			continue
		}
		n++
		if !strings.Contains(cmd, "-o ") {
			t.Errorf("a README compact example rewrites a tracked file: compact%sexamples/…", cmd)
		}
	}
	if n == 0 {
		t.Error("found no compact example in the README")
	}
}
