package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/kcvectors"
	"kompact/kimicode"
)

// TestCompactKimiCodeKeepsConcurrentAppends (issue 38, Medium): a record another writer
// appends after compact --kimi-code checked wire.jsonl (the seam between the check and the
// write) is kept, before kompact's six records, and so is one written afterwards through a
// descriptor the writer kept open all along, as Kimi Code keeps its own. Before, the file
// was written anew and renamed over: both were lost.
func TestCompactKimiCodeKeepsConcurrentAppends(t *testing.T) {
	raw := kcvectors.Texts(t)
	c := caseNamed(t, "manual_tools_instruction")
	_, m, environ := kimiCodeFixture(t, c, c.Compactions[0].Dir, raw)
	wire := filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl")
	before := mustRead(t, wire)
	writer, err := os.OpenFile(wire, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	during := `{"type":"turn.prompt","agentId":"main","note":"appended while kompact wrote"}` + "\n"
	after := `{"type":"turn.prompt","agentId":"main","note":"appended after"}` + "\n"
	beforeKimiCodeAppend = func(string) {
		if _, err := writer.WriteString(during); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeKimiCodeAppend = func(string) {} }()
	status, _, stderr := runCLI(t, "", environ, "compact", "--kimi-code", m.SessionDir)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if _, err := writer.WriteString(after); err != nil {
		t.Fatal(err)
	}
	got := mustRead(t, wire)
	if !strings.HasPrefix(got, before+during) || !strings.HasSuffix(got, after) {
		t.Fatalf("the file does not hold what was there, the record appended during the compaction, then after it:\n%s", tail([]byte(got)))
	}
	recs := strings.Split(strings.TrimSuffix(got[len(before+during):len(got)-len(after)], "\n"), "\n")
	if len(recs) != 6 || !strings.Contains(recs[0], `"full_compaction.begin"`) || !strings.Contains(recs[5], `"full_compaction.complete"`) {
		t.Fatalf("kompact's records: %q", recs)
	}
}

// TestCompactKimiCodeFailureNamesRequestModel (issue 39 §3): a failing compact --kimi-code
// names the model its request carried (the session's), not the agent's llm.model.
func TestCompactKimiCodeFailureNamesRequestModel(t *testing.T) {
	raw := kcvectors.Texts(t)
	c := caseNamed(t, "manual_tools_instruction")
	srv, m, environ := kimiCodeFixture(t, c, c.Compactions[0].Dir, raw)
	srv.SetFunc(func(fakellm.Request) fakellm.Reply { return fakellm.Fail(404, "no such model") })
	// The agent names a model of its own; the request carries the session's.
	doc := "default_agent: kc\nagents:\n  kc:\n    llm:\n      base_url: " + srv.URL() + "\n      model: agents-own-model\n    compaction:\n      enabled: true\n"
	if err := os.WriteFile(environ["KOMPACT_CONFIG"], []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(m.SessionDir, "agents", "main", "wire.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, w, err := kimicode.ImportWireContext(t.Context(), data, kimicode.Builtin(), kimicode.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	model := w.Model
	status, _, stderr := runCLI(t, "", environ, "compact", "--kimi-code", m.SessionDir)
	if status != exitError {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if model == "" || !strings.Contains(stderr, "model "+model) || strings.Contains(stderr, "agents-own-model") {
		t.Errorf("the error names another model than the request's %q: %s", model, stderr)
	}
}

// TestCompactKimiCodeWarnsTokensNotReduced (issue 39 §3): a kimi-code compaction whose
// summary makes the context bigger is warned of (tokens_not_reduced), on stderr and in
// --json, as a kimi one is.
func TestCompactKimiCodeWarnsTokensNotReduced(t *testing.T) {
	raw := kcvectors.Texts(t)
	c := caseNamed(t, "manual_tools_instruction")
	srv, m, environ := kimiCodeFixture(t, c, c.Compactions[0].Dir, raw)
	long := strings.Repeat("The summary repeats itself at length. ", 40000)
	srv.SetFunc(func(fakellm.Request) fakellm.Reply { return fakellm.Answer(fakellm.Text(long)) })
	status, stdout, stderr := runCLI(t, "", environ, "compact", "--kimi-code", "--json", m.SessionDir)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if !strings.Contains(stderr, "(tokens_not_reduced)") {
		t.Errorf("stderr: %s", stderr)
	}
	var out struct {
		Warnings []struct{ Code string }
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Warnings) != 1 || out.Warnings[0].Code != "tokens_not_reduced" {
		t.Errorf("--json warnings %+v (%v)", out.Warnings, err)
	}
}
