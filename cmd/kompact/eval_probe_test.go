package main

import (
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/fakellm"
)

// isCompactionRequest tells a compaction request from a chat one (a
// probe's question).
func isCompactionRequest(req fakellm.Request) bool {
	msgs := req.Messages()
	return len(msgs) > 0 && msgs[0]["content"] == "You are a helpful assistant that compacts conversation context."
}

// lastText is the text of the request's last message.
func lastText(req fakellm.Request) string {
	msgs := req.Messages()
	if len(msgs) == 0 {
		return ""
	}
	switch c := msgs[len(msgs)-1]["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			if pm, ok := p.(map[string]any); ok {
				s, _ := pm["text"].(string)
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// recallPaths summarises as keepSentPathsAndErrors does, and answers a
// probe with its fact when the fact is a path the compacted session holds;
// any other question gets an answer without the fact.
func recallPaths(req fakellm.Request) fakellm.Reply {
	if isCompactionRequest(req) {
		return keepSentPathsAndErrors(req)
	}
	q := lastText(req)
	for _, sc := range builtinScenarios() {
		for _, f := range sc.facts {
			if q == probeQuestion(f, sc.facts) && f.Class == kompact.ArtifactPath && strings.Contains(req.Text(), f.Text) {
				return fakellm.Answer(fakellm.Text("It was " + f.Text + "."))
			}
		}
	}
	return fakellm.Answer(fakellm.Text("I do not remember that."))
}

// TestEvalProbeFake: with --probe each planted fact gets one question on
// the compacted session, through the continue path (the agent's own
// model); against a fake that recalls exactly the paths the summaries
// kept, the probe figures are exactly those, beside the summaries' own.
func TestEvalProbeFake(t *testing.T) {
	srv := fakellm.New(t)
	srv.SetFunc(recallPaths)
	cfg := evalFixture(t, srv.URL(), "chat-model", "")
	rep := runEval(t, cfg, "--runs", "2", "--probe")
	if rep.Probe == nil {
		t.Fatalf("no probe figures: %+v", rep)
	}
	if n := len(srv.Requests()); n != 6+6*18 {
		t.Errorf("%d requests, want 6 compactions and 18 questions after each", n)
	}
	for _, c := range kompact.ArtifactClasses() {
		w := classSurvival{Planted: 9}
		if c == kompact.ArtifactPath {
			w = classSurvival{Planted: 9, Survival: 2.0 / 3, Min: 2.0 / 3, Max: 2.0 / 3}
		}
		if got := rep.Probe.Classes[c]; got != w {
			t.Errorf("probe %s: %+v, want %+v", c, got, w)
		}
	}
	if rep.Probe.Survival != 6.0/54 || rep.Survival != 15.0/54 {
		t.Errorf("probe survival %v, want 6/54; summaries %v, want 15/54", rep.Probe.Survival, rep.Survival)
	}
	// A question names its fact by its first third, never the fact itself;
	// it goes to the agent's chat model after the compacted session.
	for _, req := range srv.Requests() {
		if isCompactionRequest(req) {
			continue
		}
		q := lastText(req)
		for _, sc := range builtinScenarios() {
			for _, f := range sc.facts {
				if strings.Contains(q, f.Text) {
					t.Fatalf("question %q holds the fact %q", q, f.Text)
				}
			}
		}
		if msgs := req.Messages(); len(msgs) < 3 || !strings.HasPrefix(lastText(fakellm.Request{JSON: map[string]any{"messages": []any{msgs[0]}}}), kompact.SummaryPrefix) {
			t.Fatalf("a question does not follow the compacted session: %v", msgs)
		}
	}
	// Without the flag: null.
	if rep := runEval(t, cfg, "--runs", "1"); rep.Probe != nil {
		t.Errorf("probe without --probe: %+v", rep.Probe)
	}
}

func TestProbeHint(t *testing.T) {
	facts := []fact{{kompact.ArtifactPath, "internal/parser/cache_123.go"}, {kompact.ArtifactPath, "internal/parser/quota_456.go"},
		{kompact.ArtifactURL, "internal/parser/x"}, {kompact.ArtifactPath, "ab"}, {kompact.ArtifactPath, "abc"}, {kompact.ArtifactPath, "x"},
		{kompact.ArtifactTodo, "héllo wörld!"}}
	want := []string{"internal/parser/c", "internal/parser/q", "inter", "a", "ab", "", "héll"}
	for i, f := range facts {
		if got := probeHint(f, facts); got != want[i] {
			t.Errorf("probeHint(%q) = %q, want %q", f.Text, got, want[i])
		}
	}
}
