package service

import (
	"strings"
	"testing"

	"kompact"
	_ "kompact/kimi"
	"kompact/kimicode"
)

// TestSummaryGate (issue 39 §5; no KCP id covers the gate): the paths no person reviews
// refuse a summary that is empty, only an acknowledgement, lacks any of the
// sections its type's form requires for the prompt it was asked with, or
// keeps less of what it was sent than fidelity.min_recall; a summary with
// its sections and enough recall passes.
func TestSummaryGate(t *testing.T) {
	full := fullSummary()
	partial := "<current_focus>fix the test</current_focus>\n<environment>go 1.24</environment>\n<completed_tasks>-</completed_tasks>\n<active_issues>-</active_issues>\nthe user asked to fix a_test.go"
	own := kompact.Prompt{Body: "Summarise as <current_focus>…</current_focus> only.", Source: kompact.PromptInline}
	for _, c := range []struct {
		name   string
		res    kompact.Result
		want   string // in the error; "" for none
		reason string
	}{
		{"empty", kompact.Result{Summary: "  \n"}, "empty", kompact.RefusedEmpty},
		{"ack", kompact.Result{Summary: "ACK_21"}, `acknowledgement ("ACK_21")`, kompact.RefusedAcknowledgement},
		{"ack words", kompact.Result{Summary: "Understood, ok."}, "acknowledgement", kompact.RefusedAcknowledgement},
		{"no sections", kompact.Result{Summary: "a long summary without any of the tags at all"}, "none of the 6 required sections (current_focus, environment", kompact.RefusedMissingSections},
		{"two sections missing", kompact.Result{Type: "kimi", Summary: partial}, "lacks 2 of the 6 required sections (code_state, important_context)", kompact.RefusedMissingSections},
		{"an unclosed section", kompact.Result{Summary: strings.Replace(full, "</code_state>", "", 1)}, "lacks 1 of the 6 required sections (code_state)", kompact.RefusedMissingSections},
		{"low recall", kompact.Result{Summary: full, Fidelity: &kompact.Fidelity{SentRecall: 0.2}, MinRecall: 0.5}, "sent_recall 0.20, below compaction.fidelity.min_recall 0.5", kompact.RefusedLowRecall},
		{"good", kompact.Result{Summary: full, Fidelity: &kompact.Fidelity{SentRecall: 0.9}, MinRecall: 0.5}, "", ""},
		{"recall off", kompact.Result{Summary: full, Fidelity: &kompact.Fidelity{SentRecall: 0}}, "", ""},
		{"the agent's own prompt asks for one section", kompact.Result{Summary: "<current_focus>fix it</current_focus> and more", Prompt: own}, "", ""},
		{"the agent's own prompt's section missing", kompact.Result{Summary: "fix the test in a_test.go", Prompt: own}, "none of the 1 required sections (current_focus)", kompact.RefusedMissingSections},
		{"kimi-code's free-form summary", kompact.Result{Type: kimicode.Name, Summary: "The user asked to fix a_test.go; next: run go test."}, "", ""},
		{"kimi-code's empty summary", kompact.Result{Type: kimicode.Name, Summary: ""}, "empty", kompact.RefusedEmpty},
	} {
		r := summaryGate(&kompact.Agent{}, &c.res)
		switch {
		case c.want == "" && r != nil:
			t.Errorf("%s: refused: %v", c.name, r.err)
		case c.want != "" && (r == nil || !strings.Contains(r.err.Message, c.want) || !strings.Contains(r.err.Message, "not committed")):
			t.Errorf("%s: %+v, want an error saying %q", c.name, r, c.want)
		case c.want != "" && r.reason != c.reason:
			t.Errorf("%s: reason %q, want %q", c.name, r.reason, c.reason)
		}
	}
}

// fullSummary has every section of kimi's form.
func fullSummary() string {
	var b strings.Builder
	for _, name := range kompact.SectionNames {
		b.WriteString("<" + name + ">x</" + name + ">\n")
	}
	return b.String()
}

// TestSummaryGateOff: an agent with compaction.fidelity.gate: false commits
// what the model wrote, even an empty summary or an acknowledgement.
func TestSummaryGateOff(t *testing.T) {
	off := &kompact.Agent{Compaction: kompact.CompactionConfig{Fidelity: kompact.FidelityOptions{NoGate: true}}}
	for _, res := range []kompact.Result{{Summary: ""}, {Summary: "ACK_21"}, {Summary: "no tags"}, {Summary: "<current_focus>x</current_focus>"}} {
		if r := summaryGate(off, &res); r != nil {
			t.Errorf("gate off refused %q: %v", res.Summary, r.err)
		}
	}
}
