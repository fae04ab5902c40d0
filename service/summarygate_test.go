package service

import (
	"strings"
	"testing"

	"kompact"
)

// TestSummaryGate (issue 39 §5): the paths no person reviews refuse a
// summary that is empty, only an acknowledgement, has none of the
// required sections, or keeps less of what it was sent than
// fidelity.min_recall; a summary with its sections and enough recall
// passes.
func TestSummaryGate(t *testing.T) {
	good := "<current_focus>fix the test</current_focus> the user asked to fix a_test.go"
	for _, c := range []struct {
		name string
		res  kompact.Result
		want string // in the error; "" for none
	}{
		{"empty", kompact.Result{Summary: "  \n"}, "empty"},
		{"ack", kompact.Result{Summary: "ACK_21"}, `acknowledgement ("ACK_21")`},
		{"ack words", kompact.Result{Summary: "Understood, ok."}, "acknowledgement"},
		{"no sections", kompact.Result{Summary: "a long summary without any of the tags at all", MissingSections: kompact.SectionNames}, "none of the 6 required sections"},
		{"low recall", kompact.Result{Summary: good, Fidelity: &kompact.Fidelity{SentRecall: 0.2}, MinRecall: 0.5}, "sent_recall 0.20, below compaction.fidelity.min_recall 0.5"},
		{"good", kompact.Result{Summary: good, MissingSections: kompact.SectionNames[1:], Fidelity: &kompact.Fidelity{SentRecall: 0.9}, MinRecall: 0.5}, ""},
		{"recall off", kompact.Result{Summary: good, Fidelity: &kompact.Fidelity{SentRecall: 0}}, ""},
	} {
		err := summaryGate(&kompact.Agent{}, &c.res)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Message, c.want) || !strings.Contains(err.Message, "not committed")):
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestSummaryGateOff: an agent with compaction.fidelity.gate: false commits
// what the model wrote, even an empty summary or an acknowledgement.
func TestSummaryGateOff(t *testing.T) {
	off := &kompact.Agent{Compaction: kompact.CompactionConfig{Fidelity: kompact.FidelityOptions{NoGate: true}}}
	for _, res := range []kompact.Result{{Summary: ""}, {Summary: "ACK_21"}, {Summary: "no tags", MissingSections: kompact.SectionNames}} {
		if err := summaryGate(off, &res); err != nil {
			t.Errorf("gate off refused %q: %v", res.Summary, err)
		}
	}
}
