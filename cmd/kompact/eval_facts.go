package main

import (
	"strings"

	"kompact"
	"kompact/fidelity"
	"kompact/service"
)

// checkFacts makes sure each planted fact of sc occurs, as an artifact of
// its class, in the messages a compaction of sc replaces, and notes
// whether the request sends it: a fact that does not occur could never be
// kept, and would be counted as lost (issue 28 §2).
func checkFacts(comp *service.Compactor, agent *kompact.Agent, sc *scenario) error {
	job, err := comp.NewJob(agent, sc.session, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		return err
	}
	var arts []kompact.Artifact
	if info := job.Plan.About(); !info.Noop {
		arts = fidelity.SpanArtifacts(&info.Span)
	}
	sc.sent = make([]bool, len(sc.facts))
	for i, ft := range sc.facts {
		a, other := findFact(arts, ft)
		switch {
		case a != nil:
			sc.sent[i] = a.Sent
		case other != nil:
			return kompact.Errorf(kompact.EInvalid, "%s: planted fact %q is a %s in the compacted messages, not a %s", sc.name, ft.Text, other.Class, ft.Class).
				WithFixes("Give the fact the class " + string(other.Class) + " (docs/fidelity.md says what makes each class).")
		default:
			return kompact.Errorf(kompact.EInvalid, "%s: planted fact %q (%s) does not occur in the messages the compaction replaces", sc.name, ft.Text, ft.Class).
				WithFixes("Plant only facts the session's compacted range holds, written as kompact finds them (docs/fidelity.md); the last messages, which compaction keeps, are not compacted.")
		}
	}
	return nil
}

// noteSent adds sc's facts to the report's counts of sent facts and list
// of facts not sent.
func (rep *evalReport) noteSent(sc *scenario) {
	for i, ft := range sc.facts {
		if sc.sent[i] {
			rep.SentPlanted++
		} else {
			rep.NotSent = append(rep.NotSent, plantedFact{Scenario: sc.name, Class: ft.Class, Text: ft.Text})
		}
	}
}

// findFact returns the artifact of arts that is ft (its class and text,
// white space runs made one space; errors and TODO items in any case), or
// else one of another class with its text.
func findFact(arts []kompact.Artifact, ft fact) (same, other *kompact.Artifact) {
	text := strings.Join(strings.Fields(ft.Text), " ")
	for i := range arts {
		a := &arts[i]
		if a.Text != text && !(foldable(a.Class) && strings.EqualFold(a.Text, text)) {
			continue
		}
		if a.Class == ft.Class {
			return a, nil
		}
		other = a
	}
	return nil, other
}

// foldable reports whether a class's artifacts are kept in any case.
func foldable(c kompact.ArtifactClass) bool {
	return c == kompact.ArtifactError || c == kompact.ArtifactTodo
}
