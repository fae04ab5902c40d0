package main

import (
	"os"
	"strings"
	"testing"

	"kompact/internal/fakellm"
)

const fidelitySession = `{"id":"s1","agent":"fake","messages":[
 {"id":"u1","role":"user","content":"Fix summary.go and docs/fidelity.md"},
 {"id":"a1","role":"assistant","content":"Done.","tool_calls":[{"id":"c1","type":"function","function":{"name":"Shell","arguments":"{\"command\":\"go vet ./...\"}"}}]},
 {"id":"t1","role":"tool","tool_call_id":"c1","content":"ok"},
 {"id":"u2","role":"user","content":"thanks"},
 {"id":"a2","role":"assistant","content":"welcome"}
]}`

// TestCompactFidelityReport: the report says what the summary kept; with
// --appendix-tokens the summary gains the section and the request shown
// by kompact request does not change.
func TestCompactFidelityReport(t *testing.T) {
	srv, cfg, path := compactFixture(t, "")
	if err := os.WriteFile(path, []byte(fidelitySession), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>summary.go</current_focus>")))
	environ := map[string]string{"FAKE_KEY": "k"}
	status, stdout, stderr := runCompact(t, environ, "--config", cfg, "-o", path+".out", path)
	want := "artifacts kept: 1 of 3 (paths 1/2, commands 0/1); 1 appeared only in tool calls, reasoning or other parts the request does not send\n"
	if status != exitOK || !strings.Contains(stdout, want) {
		t.Fatalf("status %d, report:\n%s%s", status, stdout, stderr)
	}
	status, stdout, stderr = runCompact(t, environ, "--config", cfg, "--appendix-tokens", "100", "-o", path+".out", path)
	if status != exitOK || !strings.Contains(stdout, "artifacts kept: 3 of 3 (paths 2/2, commands 1/1); the model's summary kept 1, the preserved_artifacts appendix added 2;") {
		t.Fatalf("status %d, report:\n%s%s", status, stdout, stderr)
	}
	if data, _ := os.ReadFile(path + ".out"); !strings.Contains(string(data), `\n\n<preserved_artifacts>\n- path: docs/fidelity.md\n- command: go vet ./...\n</preserved_artifacts>`) {
		t.Errorf("the written summary lacks the appendix: %s", data)
	}
	_, plain, _ := runCLI(t, "", environ, "request", "--config", cfg, path)
	_, with, _ := runCLI(t, "", environ, "request", "--config", cfg, "--appendix-tokens", "100", path)
	if plain == "" || plain != with {
		t.Errorf("kompact request differs with --appendix-tokens:\n%s\n%s", plain, with)
	}
}
