package main

import (
	"strings"

	"kompact"
	"kompact/fidelity"
	"kompact/service"
)

// checkFacts makes sure each planted fact of sc occurs in the messages a
// compaction of sc replaces, and notes whether the request sends it: a
// fact that does not occur could never be kept, and would be counted as
// lost (issue 28 §2). A fact occurs as an artifact of its class, or when
// its text is in what the request sends from the compacted range (part of
// a longer artifact: the core of an error line, of a TODO line).
func checkFacts(comp *service.Compactor, agent *kompact.Agent, sc *scenario) error {
	job, err := comp.NewJob(agent, sc.session, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		return err
	}
	var arts []kompact.Artifact
	if info := job.Plan.About(); !info.Noop {
		arts = fidelity.SpanArtifacts(&info.Span)
	}
	sent := sentText(job.Plan.RequestMessages())
	sc.sent = make([]bool, len(sc.facts))
	for i, ft := range sc.facts {
		a, other := findFact(arts, ft)
		switch {
		case a != nil:
			sc.sent[i] = a.Sent
		case other == nil && sent.holds(ft):
			// Part of a longer artifact (the core of an error line, of a
			// TODO line): it occurs, since the request sends its text.
			sc.sent[i] = true
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

// requestText is what a compaction request sends from the compacted
// range: the text of its messages but the system prompt, white space runs
// made one space, as is and lower-cased.
type requestText struct{ text, lower string }

// sentText is the requestText of the request messages msgs.
func sentText(msgs []kompact.Message) requestText {
	var b strings.Builder
	for i := range msgs {
		if msgs[i].Role == kompact.RoleSystem {
			continue
		}
		msgs[i].Texts(func(t string) { b.WriteString(t); b.WriteByte(' ') })
		for _, c := range msgs[i].ToolCalls {
			if c.Arguments != nil {
				b.WriteString(*c.Arguments)
				b.WriteByte(' ')
			}
		}
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	return requestText{text: text, lower: strings.ToLower(text)}
}

// holds reports whether the request sends ft's text (in any case for the
// classes kept in any case).
func (r requestText) holds(ft fact) bool {
	text := strings.Join(strings.Fields(ft.Text), " ")
	if text == "" {
		return false
	}
	if foldable(ft.Class) {
		return strings.Contains(r.lower, strings.ToLower(text))
	}
	return strings.Contains(r.text, text)
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
