package main

import (
	"fmt"
	"strings"

	"kompact"
)

// classPlurals name the artifact classes in the report line.
var classPlurals = map[kompact.ArtifactClass]string{
	kompact.ArtifactPath: "paths", kompact.ArtifactCommand: "commands", kompact.ArtifactError: "errors",
	kompact.ArtifactURL: "urls", kompact.ArtifactIdentifier: "identifiers", kompact.ArtifactTodo: "todos",
}

// notSentWhere says where the artifacts not sent appeared.
const notSentWhere = "tool calls, reasoning or other parts the request does not send"

// fidelityLine is the report's line on what the summary kept. It leads
// with the model's figure on what it was sent, then the share it was not
// sent, then the counts in all, e.g. "artifacts kept: 25 of the 45 sent to
// the model (55%); 12 more appeared only in tool calls, reasoning or other
// parts the request does not send; 31 of 57 in all (paths 10/20, commands
// 2/9, errors 5/5)". Classes without artifacts are left out.
func fidelityLine(f *kompact.Fidelity) string {
	if f.Artifacts == 0 {
		return "artifacts kept: none to keep (no paths, commands, errors, urls, identifiers or todos in the compacted messages)"
	}
	var parts []string
	for _, c := range kompact.ArtifactClasses() {
		if cf := f.Classes[c]; cf.Artifacts > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", classPlurals[c], cf.Kept, cf.Artifacts))
		}
	}
	classes := strings.Join(parts, ", ")
	sent := f.Artifacts - f.NotSent
	kept, sentRecall := f.SentKept, f.SentRecall
	if a := f.Appendix; a != nil {
		kept, sentRecall = a.ModelSentKept, a.ModelSentRecall
	}
	var b strings.Builder
	b.WriteString("artifacts kept: ")
	switch {
	case sent == 0:
		b.WriteString("none was sent to the model")
	case f.Appendix != nil:
		fmt.Fprintf(&b, "the model's summary kept %d of the %d sent to it (%s)", kept, sent, percent(sentRecall))
	case f.NotSent == 0:
		fmt.Fprintf(&b, "%d of the %d sent to the model (%s; %s)", kept, sent, percent(sentRecall), classes)
		return b.String()
	default:
		fmt.Fprintf(&b, "%d of the %d sent to the model (%s)", kept, sent, percent(sentRecall))
	}
	if f.NotSent > 0 {
		more := " more"
		if sent == 0 {
			more = ""
		}
		fmt.Fprintf(&b, "; %d%s appeared only in %s", f.NotSent, more, notSentWhere)
	}
	b.WriteString("; ")
	if a := f.Appendix; a != nil {
		fmt.Fprintf(&b, "the preserved_artifacts appendix added %d: ", a.Lines)
	}
	fmt.Fprintf(&b, "%d of %d in all (%s)", f.Kept, f.Artifacts, classes)
	return b.String()
}

// percent writes a share as a whole percentage, rounded down: 100% only
// when nothing was lost.
func percent(r float64) string { return fmt.Sprintf("%d%%", int(r*100)) }
