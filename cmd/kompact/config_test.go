package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
)

// runConfig runs "kompact config ARGS..." in-process.
func runConfig(t *testing.T, args ...string) (int, string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	status, err := (&configCommand{env: e}).Run(context.Background(), args)
	return status, out.String(), errb.String(), err
}

func writeConfigTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

const configTwoAgents = `default_agent: a
agents:
  b:
    llm: {base_url: 'http://localhost:11434/v1', model: qwen3}
    compaction: {enabled: true, type: claude}
  a:
    llm: {base_url: 'https://api.moonshot.ai/v1', model: kimi-k2-turbo-preview, api_key_env: MOONSHOT_API_KEY}
    compaction: {enabled: true, type: kimi, prompt_file: compact.md}
`

func TestConfigReference(t *testing.T) {
	status, stdout, stderr, err := runConfig(t, "reference")
	if status != exitOK || err != nil || stderr != "" {
		t.Fatalf("status %d, err %v, stderr %q", status, err, stderr)
	}
	if want := string(config.ReferenceMarkdown(config.Default())); stdout != want {
		t.Error("config reference does not print ReferenceMarkdown(Default())")
	}
	if !strings.Contains(stdout, "| `kimi-thinking` | `kimi-k2-thinking` |") {
		t.Errorf("the reference lacks the kimi-thinking row:\n%s", stdout)
	}
	if status, _, _, err := runConfig(t, "reference", "extra"); status != exitUsage || err == nil {
		t.Errorf("reference with an argument: status %d, err %v", status, err)
	}
}

func TestConfigShow(t *testing.T) {
	status, stdout, stderr, err := runConfig(t, "show")
	if status != exitOK || err != nil || stderr != "" {
		t.Fatalf("status %d, err %v, stderr %q", status, err, stderr)
	}
	if !strings.HasPrefix(stdout, "# The effective configuration of kompact's built-in configuration") {
		t.Errorf("no header:\n%s", stdout)
	}
	c, err := config.Parse([]byte(stdout), "shown.yaml")
	if err != nil {
		t.Fatalf("the output does not parse: %v\n%s", err, stdout)
	}
	if c.DefaultAgent != "kimi" || strings.Join(c.Names(), ",") != "kimi,kimi-thinking" || !c.Agents["kimi-thinking"].CompactionEnabled() {
		t.Errorf("shown default: %q %v", c.DefaultAgent, c.Names())
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "agents.yaml")
	writeConfigTestFile(t, path, configTwoAgents)
	writeConfigTestFile(t, filepath.Join(dir, "compact.md"), "Summarize.\n")
	status, stdout, stderr, err = runConfig(t, "show", "--config", path)
	if status != exitOK || err != nil {
		t.Fatalf("status %d, err %v", status, err)
	}
	if !strings.Contains(stdout, "prompt_file: "+filepath.Join(dir, "compact.md")) {
		t.Errorf("the prompt file is not resolved:\n%s", stdout)
	}
	if strings.Index(stdout, "\n  a:") > strings.Index(stdout, "\n  b:") {
		t.Errorf("agents are not in name order:\n%s", stdout)
	}
	if !strings.Contains(stdout, "compaction: # actions: none (compaction disabled)") {
		t.Errorf("agent b is not shown as without actions:\n%s", stdout)
	}
	if !strings.Contains(stderr, "warning: "+path+":5: agents.b.compaction: compaction is enabled but type is \"claude\"") {
		t.Errorf("stderr %q lacks the warning", stderr)
	}

	if status, stdout, _, err := runConfig(t, "show", "--config", filepath.Join(dir, "missing.yaml")); status != exitError || err == nil || stdout != "" {
		t.Errorf("show of a missing file: status %d, err %v, stdout %q", status, err, stdout)
	}
	if status, _, _, err := runConfig(t, "show", path); status != exitUsage || err == nil || !strings.Contains(err.Error(), "--config FILE") {
		t.Errorf("show FILE: status %d, err %v", status, err)
	}
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agents.yaml")
	writeConfigTestFile(t, path, configTwoAgents)
	writeConfigTestFile(t, filepath.Join(dir, "compact.md"), "Summarize.\n")
	status, stdout, stderr, err := runConfig(t, "check", path)
	if status != exitOK || err != nil || stdout != "ok: 2 agents (a, b)\n" {
		t.Errorf("status %d, err %v, stdout %q", status, err, stdout)
	}
	if !strings.Contains(stderr, "warning: ") {
		t.Errorf("stderr %q lacks the warning about type claude", stderr)
	}

	one := filepath.Join(dir, "one.yaml")
	writeConfigTestFile(t, one, "agents:\n  solo:\n    llm: {base_url: 'http://h', model: m}\n")
	if _, stdout, _, _ := runConfig(t, "check", one); stdout != "ok: 1 agent (solo)\n" {
		t.Errorf("one agent: stdout %q", stdout)
	}

	bad := filepath.Join(dir, "bad.yaml")
	writeConfigTestFile(t, bad, "agents:\n  kimi:\n    llm:\n      base_url: https://api.moonshot.ai/v1\n      model: m\n      temperature: hot\n")
	status, stdout, _, err = runConfig(t, "check", bad)
	if status != exitError || err == nil || stdout != "" {
		t.Fatalf("invalid file: status %d, err %v, stdout %q", status, err, stdout)
	}
	if kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("code %q", kompact.ErrorCodeOf(err))
	}
	var report bytes.Buffer
	reportError(&report, err)
	want := "kompact: " + bad + ":6: agents.kimi.llm.temperature: must be a number, got \"hot\"\n  fix: "
	if !strings.HasPrefix(report.String(), want) {
		t.Errorf("report %q\nwant prefix %q", report.String(), want)
	}

	if status, _, _, err := runConfig(t, "check"); status != exitUsage || err == nil {
		t.Errorf("check without a file: status %d, err %v", status, err)
	}
	if status, _, _, err := runConfig(t, "check", path, path); status != exitUsage || err == nil {
		t.Errorf("check with two files: status %d, err %v", status, err)
	}
}

func TestConfigUsage(t *testing.T) {
	if status, _, stderr, err := runConfig(t); status != exitUsage || err == nil || !strings.Contains(err.Error(), "reference, show or check") || stderr != "" {
		t.Errorf("no subcommand: status %d, err %v, stderr %q", status, err, stderr)
	}
	if status, _, _, err := runConfig(t, "frob"); status != exitUsage || err == nil || !strings.Contains(err.Error(), `"frob"`) {
		t.Errorf("unknown subcommand: status %d, err %v", status, err)
	}
	if status, stdout, _, err := runConfig(t, "help"); status != exitOK || err != nil || !strings.Contains(stdout, "kompact config show") {
		t.Errorf("help: status %d, err %v, stdout %q", status, err, stdout)
	}
	for _, sub := range []string{"reference", "show", "check"} {
		if status, _, stderr, err := runConfig(t, sub, "-h"); status != exitOK || err != nil || !strings.Contains(stderr, "Usage: kompact config "+sub) {
			t.Errorf("%s -h: status %d, err %v, stderr %q", sub, status, err, stderr)
		}
	}
	if status, _, _, err := runConfig(t, "show", "--nope"); status != exitUsage || err == nil {
		t.Errorf("bad flag: status %d, err %v", status, err)
	}
}

// TestDocsConfigExampleChecks extracts the example of docs/config.md and
// runs "kompact config check" on it, so that the example stays valid.
func TestDocsConfigExampleChecks(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## An example\n")
	_, example, ok2 := strings.Cut(section, "```yaml\n")
	example, _, ok3 := strings.Cut(example, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/config.md has no yaml block under \"## An example\"")
	}
	path := filepath.Join(t.TempDir(), "agents.yaml")
	writeConfigTestFile(t, path, example)
	status, stdout, stderr := runCLI(t, "", nil, "config", "check", path)
	if status != exitOK || stdout != "ok: 2 agents (kimi, local)\n" || stderr != "" {
		t.Errorf("config check of the docs' example: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	// The file may be named with --config, as the other commands name it;
	// one file, one way.
	status, stdout, stderr = runCLI(t, "", nil, "config", "check", "--config", path)
	if status != exitOK || stdout != "ok: 2 agents (kimi, local)\n" || stderr != "" {
		t.Errorf("config check --config: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	for _, args := range [][]string{{}, {path, path}, {"--config", path, path}} {
		status, stdout, stderr = runCLI(t, "", nil, append([]string{"config", "check"}, args...)...)
		if status != exitUsage || stdout != "" || !strings.Contains(stderr, "config check takes exactly one configuration file (FILE or --config FILE)") {
			t.Errorf("config check %q: status %d, stdout %q, stderr %q", args, status, stdout, stderr)
		}
	}
}

// config check (and show) says, once per agent, when an agent that compacts by itself
// has a window no larger than reserved_context_size (always due, as
// kimi-cli's trigger has it), and suggests a value; the check still
// passes.
func TestConfigCheckSmallWindow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agents.yaml")
	writeConfigTestFile(t, path, `agents:
  small:
    llm: {base_url: 'http://localhost:11434/v1', model: qwen3, max_context_size: 32768}
    compaction: {enabled: true, type: kimi, auto: {enabled: true}}
  tuned:
    llm: {base_url: 'http://localhost:11434/v1', model: qwen3, max_context_size: 32768}
    compaction: {enabled: true, type: kimi, auto: {enabled: true, reserved_context_size: 4900}}
  manual:
    llm: {base_url: 'http://localhost:11434/v1', model: qwen3, max_context_size: 32768}
    compaction: {enabled: true, type: kimi}
`)
	status, stdout, stderr, err := runConfig(t, "check", path)
	if status != exitOK || err != nil || stdout != "ok: 3 agents (manual, small, tuned)\n" {
		t.Fatalf("status %d, err %v, stdout %q", status, err, stdout)
	}
	if strings.Count(stderr, "warning: ") != 1 || !strings.HasPrefix(stderr, `warning: agent "small": llm.max_context_size is 32768 tokens, no more than compaction.auto.reserved_context_size (50000)`) ||
		!strings.Contains(stderr, "set compaction.auto.reserved_context_size to 4900") {
		t.Errorf("stderr %q", stderr)
	}
	if _, _, showErr, err := runConfig(t, "show", "--config", path); err != nil || showErr != stderr {
		t.Errorf("config show: err %v, stderr %q; want check's %q", err, showErr, stderr)
	}
}

// TestConfigCheckUnknownWindow (issue 28 §4): an agent that compacts
// automatically without llm.max_context_size, on a provider whose model
// list gives no context size (Ollama's, vLLM's, OpenAI's), would never
// compact: config check warns for it, and not for an agent with the size
// set, one without automatic compaction, or a Kimi agent (Moonshot's list
// gives it). The check still passes.
func TestConfigCheckUnknownWindow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agents.yaml")
	writeConfigTestFile(t, path, `agents:
  local:
    llm: {base_url: 'http://localhost:11434/v1', model: qwen3}
    compaction: {enabled: true, type: kimi, auto: {enabled: true}}
  sized:
    llm: {base_url: 'http://localhost:11434/v1', model: qwen3, max_context_size: 131072}
    compaction: {enabled: true, type: kimi, auto: {enabled: true}}
  manual:
    llm: {base_url: 'http://localhost:11434/v1', model: qwen3}
    compaction: {enabled: true, type: kimi}
  kimi:
    llm: {base_url: 'https://api.moonshot.ai/v1', model: kimi-k2-turbo-preview}
    compaction: {enabled: true, type: kimi, auto: {enabled: true}}
`)
	status, _, stderr, err := runConfig(t, "check", path)
	if status != exitOK || err != nil {
		t.Fatalf("status %d, err %v", status, err)
	}
	if strings.Count(stderr, "warning: ") != 1 || !strings.HasPrefix(stderr, `warning: agent "local": compaction.auto is on, but llm.max_context_size is not set`) ||
		!strings.Contains(stderr, "never runs; set llm.max_context_size") {
		t.Errorf("stderr %q", stderr)
	}
}
