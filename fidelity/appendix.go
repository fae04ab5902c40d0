package fidelity

import (
	"slices"
	"strings"

	"kompact"
)

// The tags of the appendix's section.
const (
	appendixOpen  = "<" + kompact.AppendixSection + ">"
	appendixClose = "</" + kompact.AppendixSection + ">"
)

// WithAppendix measures the model's summary against arts and, when
// budget (compaction.fidelity.appendix_tokens) asks for the appendix and it has lines, returns the summary with
// the section appended, the section, and the final summary's report with
// the model's own figures in its Appendix. The model's summary is looked
// through once: the appendix and the final report start from what it
// keeps.
func WithAppendix(arts []kompact.Artifact, model string, budget int) (summary, section string, f kompact.Fidelity) {
	kept := newKeptCheck(model).flags(arts, nil)
	f = fidelityOf(arts, kept)
	section, lines := appendix(arts, kept, f.Kept, model, budget)
	if lines == 0 {
		return model, "", f
	}
	own := f
	summary = model + section
	f = fidelityOf(arts, newKeptCheck(summary).flags(arts, kept))
	f.Appendix = &kompact.AppendixFidelity{Lines: lines, ModelKept: own.Kept, ModelRecall: own.Recall,
		ModelSentKept: own.SentKept, ModelSentRecall: own.SentRecall}
	return summary, section, f
}

// appendix returns the preserved_artifacts section to append to summary
// when budget asks for one (budget > 0) and the summary
// lost artifacts (it keeps arts[i] when kept[i], nKept of them): one line
// "- CLASS: TEXT" per lost artifact, as many as fit with the tags in
// AppendixTokens estimated tokens (EstimateStringTokens), and the number
// of lines. Errors and TODO items come first, then paths, commands and
// URLs, then identifiers, each in rank order: a small budget keeps the
// task's state before the names in its code. An artifact found only in
// think parts is left out: the model's reasoning is no fact. The section
// is never sent to the compaction model: the request is the same with or
// without it.
func appendix(arts []kompact.Artifact, kept []bool, nKept int, summary string, budget int) (string, int) {
	if budget <= 0 || nKept == len(arts) {
		return "", 0
	}
	sep := "\n\n"
	if strings.HasSuffix(summary, "\n") {
		sep = "\n"
	}
	var b strings.Builder
	b.WriteString(sep + appendixOpen + "\n")
	est := tokenCount{}
	est.add(b.String())
	est.add(appendixClose)
	if est.tokens() > budget {
		return "", 0
	}
	lines := 0
	for _, i := range appendixOrder(arts, kept) {
		a := arts[i]
		line := "- " + string(a.Class) + ": " + a.Text + "\n"
		next := est
		next.add(line)
		if next.tokens() > budget {
			break
		}
		est = next
		b.WriteString(line)
		lines++
	}
	if lines == 0 {
		return "", 0
	}
	b.WriteString(appendixClose)
	return b.String(), lines
}

// appendixTier ranks the classes in the appendix: errors and TODO items,
// then paths, commands and URLs, then identifiers.
func appendixTier(c kompact.ArtifactClass) int {
	switch c {
	case kompact.ArtifactError, kompact.ArtifactTodo:
		return 0
	case kompact.ArtifactIdentifier:
		return 2
	}
	return 1
}

// appendixOrder returns the indexes of the lost artifacts of arts the
// appendix may hold (not kept, not found only in think parts), by tier,
// each tier in rank order.
func appendixOrder(arts []kompact.Artifact, kept []bool) []int {
	var tiers [3][]int
	for i, a := range arts {
		if !kept[i] && !a.Thought {
			t := appendixTier(a.Class)
			tiers[t] = append(tiers[t], i)
		}
	}
	return slices.Concat(tiers[0], tiers[1], tiers[2])
}

// tokenCount adds up texts for EstimateStringTokens: the estimate of the
// texts joined.
type tokenCount struct{ ascii, other int }

func (t *tokenCount) add(s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x80:
			t.ascii++
		case c&0xC0 != 0x80:
			t.other++
		}
	}
}

func (t tokenCount) tokens() int { return (t.ascii+3)/4 + t.other }
