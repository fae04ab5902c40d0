package main

import (
	"os"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
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
	// The model's figure on what it was sent leads (issue 28 §2).
	want := "artifacts kept: 1 of the 2 sent to the model (50%); 1 more appeared only in tool calls, reasoning or other parts the request does not send; 1 of 3 in all (paths 1/2, commands 0/1)\n"
	if status != exitOK || !strings.Contains(stdout, want) {
		t.Fatalf("status %d, report:\n%s%s", status, stdout, stderr)
	}
	status, stdout, stderr = runCompact(t, environ, "--config", cfg, "--appendix-tokens", "100", "-o", path+".out", path)
	if status != exitOK || !strings.Contains(stdout, "artifacts kept: the model's summary kept 1 of the 2 sent to it (50%); 1 more appeared only in tool calls, reasoning or other parts the request does not send; the preserved_artifacts appendix added 2: 3 of 3 in all (paths 2/2, commands 1/1)\n") {
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

// TestFidelityLineForms: the line leads with what the model was sent, in
// each case: everything sent, nothing sent, and issue 28's (kept 10 of 10
// sent, 7 more not sent).
func TestFidelityLineForms(t *testing.T) {
	paths := func(n, kept int) map[kompact.ArtifactClass]kompact.ClassFidelity {
		return map[kompact.ArtifactClass]kompact.ClassFidelity{kompact.ArtifactPath: {Artifacts: n, Kept: kept}}
	}
	for _, c := range []struct {
		f    kompact.Fidelity
		want string
	}{
		{kompact.Fidelity{Artifacts: 8, Kept: 5, SentKept: 5, SentRecall: 0.625, Classes: paths(8, 5)}, "artifacts kept: 5 of the 8 sent to the model (62%; paths 5/8)"},
		{kompact.Fidelity{Artifacts: 3, NotSent: 3, SentRecall: 1, Classes: paths(3, 0)},
			"artifacts kept: none was sent to the model; 3 appeared only in tool calls, reasoning or other parts the request does not send; 0 of 3 in all (paths 0/3)"},
		{kompact.Fidelity{Artifacts: 17, Kept: 10, NotSent: 7, SentKept: 10, SentRecall: 1, Classes: paths(17, 10)},
			"artifacts kept: 10 of the 10 sent to the model (100%); 7 more appeared only in tool calls, reasoning or other parts the request does not send; 10 of 17 in all (paths 10/17)"},
	} {
		if got := fidelityLine(&c.f); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
