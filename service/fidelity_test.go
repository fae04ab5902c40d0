package service_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"kompact"
	"kompact/fidelity"
	"kompact/internal/testing/testllm"
	"kompact/internal/testing/testmsg"
	"kompact/kimi"
	"kompact/service"
)

// fidelityRun compacts artifactSession through a Job for agent a with req
// and returns the outcome and the request the LLM got.
func fidelityRun(t *testing.T, a *kompact.Agent, req kompact.ActionRequest, summary string) (kompact.Outcome, []kompact.Message) {
	t.Helper()
	llm := &testllm.LLM{Answer: testllm.Reply(summary)}
	comp := &service.Compactor{LLM: llm}
	if req.Action == "" {
		req.Action = kompact.ActionCompactConversation
		req.End = "t1"
	}
	out := comp.Execute(context.Background(), a, testmsg.ArtifactSession(), req, nil)
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %s: %v", out.Status, out.Err)
	}
	return out, llm.Requests[0]
}

func codesOf(o kompact.Outcome) []kompact.WarningCode {
	var out []kompact.WarningCode
	for _, w := range o.Warnings() {
		out = append(out, w.Code)
	}
	return out
}

func TestLowFidelityWarning(t *testing.T) {
	a := testllm.Agent()
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
		ws[len(ws)-1].Message != "the summary kept 1 of the 5 artifacts the model was sent (sent_recall 0.20, below compaction.fidelity.min_recall 0.5); 4 more appeared only in parts the request does not send" {
		t.Errorf("warnings %+v", ws)
	}
	// A preview keeps the threshold and the report.
	back := previewRoundTrip(t, out)
	if back.Result.Fidelity.Kept != 1 || !slices.Contains(codesOf(back), kompact.WarnLowFidelity) {
		t.Errorf("decoded preview: %+v, %v", back.Result.Fidelity, codesOf(back))
	}
	// An edited summary is measured again.
	edited := kimi.WithSummary(back.Result, "summary.go, https://go.dev/doc, TestApply, cfg.go, data/only.json, keep the parity")
	if edited.Fidelity.Kept != 6 || slices.Contains(codesOf(kompact.Outcome{Result: edited}), kompact.WarnLowFidelity) {
		t.Errorf("edited: %+v", edited.Fidelity)
	}
}

// TestLowFidelityJudgesSent: min_recall judges what the summary kept of
// the artifacts the request sent (sent_recall), not of those the model
// never saw (issue 28 §2: kept 10 of 10 sent, recall 0.59, warned).
func TestLowFidelityJudgesSent(t *testing.T) {
	a := testllm.Agent()
	a.Compaction.Fidelity.MinRecall = 0.9
	out, _ := fidelityRun(t, a, kompact.ActionRequest{}, "summary.go, https://go.dev/doc, TestApply, cfg.go, keep the parity")
	f := out.Result.Fidelity
	if f.Artifacts != 9 || f.NotSent != 4 || f.Kept != 5 || f.SentKept != 5 || f.SentRecall != 1 || f.Recall != 5.0/9 {
		t.Fatalf("fidelity %+v", f)
	}
	if codes := codesOf(out); slices.Contains(codes, kompact.WarnLowFidelity) {
		t.Errorf("every sent artifact kept, yet warned: %v", out.Warnings())
	}
	// Not sent, kept anyway: it counts in kept, not in sent_kept.
	out, _ = fidelityRun(t, a, kompact.ActionRequest{}, "summary.go and internal/secret.go")
	if f := out.Result.Fidelity; f.Kept != 2 || f.SentKept != 1 || f.SentRecall != 0.2 || !slices.Contains(codesOf(out), kompact.WarnLowFidelity) {
		t.Errorf("fidelity %+v, warnings %v", f, out.Warnings())
	}
	// Nothing sent: sent_recall is 1.
	if f := fidelity.MeasureFidelity([]kompact.Artifact{{Class: kompact.ArtifactPath, Text: "a/b.go"}}, "x"); f.SentRecall != 1 || f.Recall != 0 {
		t.Errorf("nothing sent: %+v", f)
	}
}

func TestAppendix(t *testing.T) {
	const summary = "<current_focus>summary.go</current_focus>"
	a := testllm.Agent()
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
		"- todo: keep the parity\n- error: TestApply\n- url: https://go.dev/doc\n- path: cfg.go\n- path: data/only.json\n" +
		"- command: go test ./internal/...\n- path: internal/secret.go\n</preserved_artifacts>" // not Plan.Apply, only thought of
	r := on.Result
	if r.Summary != want {
		t.Fatalf("summary:\n%s\nwant:\n%s", r.Summary, want)
	}
	if got := r.SummaryMessage.Content[0].Text; got != kompact.SummaryPrefix+"\n"+want {
		t.Errorf("summary message %q", got)
	}
	var kimiText strings.Builder
	for _, p := range r.KimiMessages[0].Content[1:] { // kimi-cli keeps no leading system message
		kimiText.WriteString(p.Text)
	}
	if kimiText.String() != want {
		t.Errorf("kimi-cli summary %q", kimiText.String())
	}
	f := r.Fidelity
	if f.Kept != 8 || f.Recall != 8.0/9 || f.Appendix == nil || *f.Appendix != (kompact.AppendixFidelity{Lines: 7, ModelKept: 1, ModelRecall: 1.0 / 9, ModelSentKept: 1, ModelSentRecall: 0.2}) {
		t.Errorf("fidelity %+v, appendix %+v", f, f.Appendix)
	}
	// The action's appendix_tokens overrides the agent's: a small budget
	// keeps the best-ranked lines only; 0 turns it off.
	small, _ := fidelityRun(t, a, kompact.ActionRequest{AppendixTokens: new(20)}, summary)
	if a := small.Result.Fidelity.Appendix; a == nil || a.Lines != 1 || kimi.EstimateStringTokens(strings.TrimPrefix(small.Result.Summary, summary)) > 20 {
		t.Errorf("20 tokens: %+v\n%s", a, small.Result.Summary)
	}
	none, _ := fidelityRun(t, a, kompact.ActionRequest{AppendixTokens: new(0)}, summary)
	if none.Result.Summary != summary {
		t.Errorf("appendix_tokens 0: %q", none.Result.Summary)
	}
	if _, err := (&service.Compactor{LLM: &testllm.LLM{}}).NewJob(a, testmsg.ArtifactSession(), kompact.ActionRequest{Action: kompact.ActionCompactConversation, AppendixTokens: new(-1)}); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("appendix_tokens -1: %v", err)
	}
}
