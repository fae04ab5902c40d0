package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
	"kompact/internal/testing/testenv"
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
	// The model's figure on what it was sent: 16 facts a scenario, the
	// middle path and command not (issue 28 §2).
	if rep.SentPlanted != 48 || rep.SentSurvival != 15.0/48 || len(rep.NotSent) != 6 {
		t.Errorf("sent %d, sent survival %v, not sent %+v", rep.SentPlanted, rep.SentSurvival, rep.NotSent)
	}
	for i, nf := range rep.NotSent {
		sc := builtinScenarios()[i/2]
		if mid := sc.facts[6+i%2]; nf != (plantedFact{Scenario: sc.name, Class: mid.Class, Text: mid.Text}) {
			t.Errorf("not sent %d: %+v, want the middle %s of %s", i, nf, mid.Class, sc.name)
		}
	}
	// The appendix keeps every planted fact, those the model never saw too.
	rep = runEval(t, cfg, "--runs", "1", "--appendix-tokens", "4000")
	if rep.Survival != 1 {
		t.Errorf("with the appendix: survival %v, classes %+v", rep.Survival, rep.Classes)
	}
}

// evalSession holds kept.go and lost.go in its text, a URL only in a tool
// call's arguments, and a path in the messages compaction keeps.
const evalSession = `{"id":"s1","agent":"fake","messages":[
 {"id":"sys","role":"system","content":"You are an agent."},
 {"id":"u1","role":"user","content":"Fix kept.go and lost.go."},
 {"id":"a1","role":"assistant","content":"Fetching.","tool_calls":[{"id":"c1","type":"function","function":{"name":"Fetch","arguments":"{\"url\":\"see https://x.org/a\"}"}}]},
 {"id":"t1","role":"tool","tool_call_id":"c1","content":"ok"},
 {"id":"u2","role":"user","content":"And kept/later.go."},
 {"id":"a2","role":"assistant","content":"second answer"}
]}`

// TestEvalOwnSession: a session and its facts file work the same way; a
// planted fact the compacted messages do not hold is an error, not a
// lost fact, and the report says which facts the request does not send
// (issue 28 §2).
func TestEvalOwnSession(t *testing.T) {
	srv := fakellm.New(t)
	srv.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>kept.go</current_focus>")))
	cfg := evalFixture(t, srv.URL(), "chat-model", "")
	dir := t.TempDir()
	sess := filepath.Join(dir, "s.json")
	facts := filepath.Join(dir, "facts.json")
	os.WriteFile(sess, []byte(evalSession), 0o644)
	os.WriteFile(facts, []byte(`[{"class":"path","text":"kept.go"},{"class":"path","text":"lost.go"},{"class":"url","text":"https://x.org/a"}]`), 0o644)
	rep := runEval(t, cfg, "--runs", "1", sess, "--facts", facts)
	if rep.Scenarios != 1 || rep.Classes[kompact.ArtifactPath] != (classSurvival{Planted: 2, Survival: 0.5, Min: 0.5, Max: 0.5}) ||
		rep.Classes[kompact.ArtifactURL].Survival != 0 || rep.Survival != 1.0/3 || rep.SentPlanted != 2 || rep.SentSurvival != 0.5 ||
		len(rep.NotSent) != 1 || rep.NotSent[0] != (plantedFact{Scenario: sess, Class: kompact.ArtifactURL, Text: "https://x.org/a"}) {
		t.Errorf("report %+v", rep)
	}
	env := map[string]string{"FAKE_KEY": "k"}
	status, stdout, _ := runCLI(t, "", env, "eval", "--config", cfg, "--runs", "1", sess, "--facts", facts)
	if status != exitOK || !strings.Contains(stdout, "planted facts kept: 50% of the 2 sent to the model on average; 1 more sit only in parts the request does not send") ||
		!strings.Contains(stdout, "  not sent: "+sess+", url https://x.org/a\n") {
		t.Errorf("status %d:\n%s", status, stdout)
	}
	for _, c := range []struct{ facts, want string }{
		{`[{"class":"path","text":"nowhere.go"}]`, `planted fact "nowhere.go" (path) does not occur in the messages the compaction replaces`},
		{`[{"class":"path","text":"kept/later.go"}]`, `planted fact "kept/later.go" (path) does not occur`}, // in a kept message
		{`[{"class":"identifier","text":"kept.go"}]`, `planted fact "kept.go" is a path in the compacted messages, not a identifier`},
	} {
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, []byte(c.facts), 0o644)
		status, _, stderr := runCLI(t, "", env, "eval", "--config", cfg, "--runs", "1", sess, "--facts", bad)
		if status != exitError || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: status %d, stderr %s", c.facts, status, stderr)
		}
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

// TestEvalFactInsideArtifact (issue 40 §3): a planted fact that occurs in
// the compacted range as part of a longer artifact (the core of an error
// line, of a TODO line) occurs: its text is in what the request sends
// from the range. It used to be refused as a fact that "does not occur".
func TestEvalFactInsideArtifact(t *testing.T) {
	srv := fakellm.New(t)
	srv.SetDefault(fakellm.Answer(fakellm.Text("<current_focus>expected 1 got 2</current_focus>")))
	cfg := evalFixture(t, srv.URL(), "chat-model", "")
	dir := t.TempDir()
	sess, facts := filepath.Join(dir, "s.json"), filepath.Join(dir, "facts.json")
	doc := `{"id":"s1","agent":"fake","messages":[
 {"id":"u1","role":"user","content":"Run the tests."},
 {"id":"a1","role":"assistant","content":"FAIL pkg0/x_test.go:12: expected 1 got 2\nTODO: handle the empty config case"},
 {"id":"u2","role":"user","content":"next"},
 {"id":"a2","role":"assistant","content":"second answer"}
]}`
	os.WriteFile(sess, []byte(doc), 0o644)
	os.WriteFile(facts, []byte(`[{"class":"error","text":"expected 1 got 2"},{"class":"todo","text":"handle the empty config case"}]`), 0o644)
	rep := runEval(t, cfg, "--runs", "1", sess, "--facts", facts)
	if rep.SentPlanted != 2 || len(rep.NotSent) != 0 || rep.Classes[kompact.ArtifactError].Survival != 1 || rep.Classes[kompact.ArtifactTodo].Survival != 0 {
		t.Errorf("report %+v", rep)
	}
	// A text the request does not send still does not occur.
	os.WriteFile(facts, []byte(`[{"class":"error","text":"expected 3 got 4"}]`), 0o644)
	status, _, stderr := runCLI(t, "", map[string]string{"FAKE_KEY": "k"}, "eval", "--config", cfg, "--runs", "1", sess, "--facts", facts)
	if status != exitError || !strings.Contains(stderr, `planted fact "expected 3 got 4" (error) does not occur`) {
		t.Errorf("status %d, stderr %s", status, stderr)
	}
}
