package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/fakellm"
	"kompact/internal/testenv"
)

// evalFixture writes a configuration whose agent talks to srv.
func evalFixture(t *testing.T, baseURL, model, extra string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "agents.yaml")
	data := "default_agent: fake\nagents:\n  fake:\n    llm:\n      base_url: " + baseURL + "\n      model: " + model +
		"\n      api_key_env: FAKE_KEY\n    compaction:\n      enabled: true\n      type: kimi\n" + extra
	if err := os.WriteFile(cfg, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// keepSentPathsAndErrors answers each compaction with a summary that
// holds the planted paths and errors the request shows, and nothing else.
func keepSentPathsAndErrors(req fakellm.Request) fakellm.Reply {
	text := req.Text()
	var kept []string
	for _, sc := range builtinScenarios() {
		for _, f := range sc.facts {
			if (f.Class == kompact.ArtifactPath || f.Class == kompact.ArtifactError) && strings.Contains(text, f.Text) {
				kept = append(kept, f.Text)
			}
		}
	}
	return fakellm.Answer(fakellm.Text("<current_focus>\n" + strings.Join(kept, "\n") + "\n</current_focus>"))
}

func runEval(t *testing.T, cfg string, args ...string) evalReport {
	t.Helper()
	status, stdout, stderr := runCLI(t, "", map[string]string{"FAKE_KEY": "k"}, append([]string{"eval", "--config", cfg, "--json"}, args...)...)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	return rep
}

// TestEvalFake: against a fake whose summaries keep exactly the sent
// paths and errors, eval reports exactly those figures: of each
// scenario's three paths, the middle one is only in a tool call.
func TestEvalFake(t *testing.T) {
	srv := fakellm.New(t)
	srv.SetFunc(keepSentPathsAndErrors)
	cfg := evalFixture(t, srv.URL(), "chat-model", "")
	rep := runEval(t, cfg, "--runs", "2")
	if rep.Agent != "fake" || rep.Model != "chat-model" || rep.Runs != 2 || rep.Scenarios != 3 || rep.Probe != nil {
		t.Fatalf("report %+v", rep)
	}
	if len(srv.Requests()) != 6 {
		t.Errorf("%d requests, want 3 scenarios × 2 runs", len(srv.Requests()))
	}
	want := map[kompact.ArtifactClass]classSurvival{
		kompact.ArtifactPath:  {Planted: 9, Survival: 2.0 / 3, Min: 2.0 / 3, Max: 2.0 / 3},
		kompact.ArtifactError: {Planted: 9, Survival: 1, Min: 1, Max: 1},
	}
	for _, c := range kompact.ArtifactClasses() {
		w, ok := want[c]
		if !ok {
			w = classSurvival{Planted: 9}
		}
		if got := rep.Classes[c]; got != w {
			t.Errorf("%s: %+v, want %+v", c, got, w)
		}
	}
	if rep.Survival != 15.0/54 {
		t.Errorf("survival %v, want 15/54", rep.Survival)
	}
	// The appendix keeps every planted fact, those the model never saw too.
	rep = runEval(t, cfg, "--runs", "1", "--appendix-tokens", "4000")
	if rep.Survival != 1 {
		t.Errorf("with the appendix: survival %v, classes %+v", rep.Survival, rep.Classes)
	}
}

// TestEvalOwnSession: a session and its facts file work the same way.
func TestEvalOwnSession(t *testing.T) {
	srv := fakellm.New(t)
	srv.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>kept.go</current_focus>")))
	cfg := evalFixture(t, srv.URL(), "chat-model", "")
	dir := t.TempDir()
	sess := filepath.Join(dir, "s.json")
	facts := filepath.Join(dir, "facts.json")
	os.WriteFile(sess, []byte(compactSession), 0o644)
	os.WriteFile(facts, []byte(`[{"class":"path","text":"kept.go"},{"class":"path","text":"lost.go"},{"class":"url","text":"https://x.org/a"}]`), 0o644)
	rep := runEval(t, cfg, "--runs", "1", sess, "--facts", facts)
	if rep.Scenarios != 1 || rep.Classes[kompact.ArtifactPath] != (classSurvival{Planted: 2, Survival: 0.5, Min: 0.5, Max: 0.5}) ||
		rep.Classes[kompact.ArtifactURL].Survival != 0 || rep.Survival != 1.0/3 {
		t.Errorf("report %+v", rep)
	}
	for _, args := range [][]string{{sess}, {"--facts", facts}, {"--runs", "0"}} {
		if status, _, _ := runCLI(t, "", nil, append([]string{"eval", "--config", cfg}, args...)...); status != exitUsage {
			t.Errorf("eval %v: status %d, want %d", args, status, exitUsage)
		}
	}
}

// TestEvalOllama runs eval end to end against the real Ollama test server
// (.ci/run starts it), probes included: its tiny model always answers the
// same sentence, so what is checked is the path and the report's shape.
func TestEvalOllama(t *testing.T) {
	endpoint, model := testenv.Ollama(t)
	cfg := evalFixture(t, endpoint, model, "")
	rep := runEval(t, cfg, "--runs", "1", "--probe")
	if rep.Model != model || rep.Runs != 1 || rep.Scenarios != 3 || rep.Probe == nil {
		t.Fatalf("report %+v", rep)
	}
	for what, fig := range map[string]evalFigures{"summaries": rep.evalFigures, "probe": *rep.Probe} {
		if len(fig.Classes) != 6 || fig.Survival < 0 || fig.Survival > 1 {
			t.Fatalf("%s: %+v", what, fig)
		}
		for c, cs := range fig.Classes {
			if cs.Planted != 9 || cs.Min > cs.Survival || cs.Survival > cs.Max || cs.Max > 1 {
				t.Errorf("%s, %s: %+v", what, c, cs)
			}
		}
	}
	t.Logf("Ollama %s: survival %.3f, classes %+v; probe %.3f, classes %+v", model, rep.Survival, rep.Classes, rep.Probe.Survival, rep.Probe.Classes)
}

// Without the agent's API key, eval says so first and alone, as compact
// does: before the context size is looked up (a look-up that needs the key
// too, and only warns) and before any scenario runs.
func TestEvalMissingKeyComesFirst(t *testing.T) {
	status, stdout, stderr := runCLI(t, "", map[string]string{"HOME": t.TempDir()}, "eval")
	if status != exitError || stdout != "" {
		t.Fatalf("status %d, stdout %q", status, stdout)
	}
	if !strings.HasPrefix(stderr, "kompact: MOONSHOT_API_KEY is not set") || strings.Contains(stderr, "warning") || strings.Contains(stderr, "scenario") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
