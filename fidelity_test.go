package kompact_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"kompact"
)

// fidelityRun compacts artifactSession through a Job for agent a with req
// and returns the outcome and the request the LLM got.
func fidelityRun(t *testing.T, a *kompact.Agent, req kompact.ActionRequest, summary string) (kompact.Outcome, []kompact.Message) {
	t.Helper()
	llm := &fakeLLM{answer: replyWith(summary)}
	comp := &kompact.Compactor{LLM: llm}
	if req.Action == "" {
		req.Action = kompact.ActionCompactConversation
		req.End = "t1"
	}
	out := comp.Execute(context.Background(), a, artifactSession(), req, nil)
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %s: %v", out.Status, out.Err)
	}
	return out, llm.requests[0]
}

func codesOf(o kompact.Outcome) []kompact.WarningCode {
	var out []kompact.WarningCode
	for _, w := range o.Warnings() {
		out = append(out, w.Code)
	}
	return out
}

func TestLowFidelityWarning(t *testing.T) {
	a := enabledAgent()
	out, _ := fidelityRun(t, a, kompact.ActionRequest{}, "Edited summary.go")
	if f := out.Result.Fidelity; f == nil || f.Artifacts != 9 || f.Kept != 1 {
		t.Fatalf("fidelity %+v", f)
	}
	if slices.Contains(codesOf(out), kompact.WarnLowFidelity) {
		t.Error("low_fidelity without min_recall")
	}
	a.Compaction.Fidelity.MinRecall = 0.5
	out, _ = fidelityRun(t, a, kompact.ActionRequest{}, "Edited summary.go")
	ws := out.Warnings()
	if len(ws) == 0 || ws[len(ws)-1].Code != kompact.WarnLowFidelity ||
		ws[len(ws)-1].Message != "the summary kept 1 of the 9 artifacts of the range (recall 0.11, below compaction.fidelity.min_recall 0.5)" {
		t.Errorf("warnings %+v", ws)
	}
	// A preview keeps the threshold and the report.
	body, err := kompact.EncodePreview(out)
	if err != nil {
		t.Fatal(err)
	}
	back, err := kompact.DecodePreview(body)
	if err != nil {
		t.Fatal(err)
	}
	if back.Result.Fidelity.Kept != 1 || !slices.Contains(codesOf(back), kompact.WarnLowFidelity) {
		t.Errorf("decoded preview: %+v, %v", back.Result.Fidelity, codesOf(back))
	}
	// An edited summary is measured again.
	edited := back.Result.WithSummary("summary.go, https://go.dev/doc, TestApply, cfg.go, data/only.json, keep the parity")
	if edited.Fidelity.Kept != 6 || slices.Contains(codesOf(kompact.Outcome{Result: edited}), kompact.WarnLowFidelity) {
		t.Errorf("edited: %+v", edited.Fidelity)
	}
}

func TestAppendix(t *testing.T) {
	const summary = "<current_focus>summary.go</current_focus>"
	a := enabledAgent()
	off, offReq := fidelityRun(t, a, kompact.ActionRequest{}, summary)
	if off.Result.Summary != summary || off.Result.Fidelity.Appendix != nil {
		t.Fatalf("appendix off: summary %q", off.Result.Summary)
	}
	a.Compaction.Fidelity.AppendixTokens = 1000
	on, onReq := fidelityRun(t, a, kompact.ActionRequest{}, summary)
	if !slices.EqualFunc(offReq, onReq, func(x, y kompact.Message) bool { return string(x.AppendJSON(nil)) == string(y.AppendJSON(nil)) }) {
		t.Fatal("the appendix changed the request")
	}
	want := summary + "\n\n<preserved_artifacts>\n" +
		"- todo: keep the parity\n- url: https://go.dev/doc\n- error: TestApply\n- path: cfg.go\n- path: data/only.json\n" +
		"- command: go test ./internal/...\n- identifier: Plan.Apply\n- path: internal/secret.go\n</preserved_artifacts>"
	r := on.Result
	if r.Summary != want {
		t.Fatalf("summary:\n%s\nwant:\n%s", r.Summary, want)
	}
	if got := r.SummaryMessage.Content[0].Text; got != kompact.SummaryPrefix+"\n"+want {
		t.Errorf("summary message %q", got)
	}
	var kimi strings.Builder
	for _, p := range r.KimiMessages[0].Content[1:] { // kimi-cli keeps no leading system message
		kimi.WriteString(p.Text)
	}
	if kimi.String() != want {
		t.Errorf("kimi-cli summary %q", kimi.String())
	}
	f := r.Fidelity
	if f.Kept != 9 || f.Recall != 1 || f.Appendix == nil || *f.Appendix != (kompact.AppendixFidelity{Lines: 8, ModelKept: 1, ModelRecall: 1.0 / 9}) {
		t.Errorf("fidelity %+v, appendix %+v", f, f.Appendix)
	}
	// The action's appendix_tokens overrides the agent's: a small budget
	// keeps the best-ranked lines only; 0 turns it off.
	small, _ := fidelityRun(t, a, kompact.ActionRequest{AppendixTokens: new(20)}, summary)
	if a := small.Result.Fidelity.Appendix; a == nil || a.Lines != 1 || kompact.EstimateStringTokens(strings.TrimPrefix(small.Result.Summary, summary)) > 20 {
		t.Errorf("20 tokens: %+v\n%s", a, small.Result.Summary)
	}
	none, _ := fidelityRun(t, a, kompact.ActionRequest{AppendixTokens: new(0)}, summary)
	if none.Result.Summary != summary {
		t.Errorf("appendix_tokens 0: %q", none.Result.Summary)
	}
	if _, err := (&kompact.Compactor{LLM: &fakeLLM{}}).NewJob(a, artifactSession(), kompact.ActionRequest{Action: kompact.ActionCompactConversation, AppendixTokens: new(-1)}); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("appendix_tokens -1: %v", err)
	}
}
