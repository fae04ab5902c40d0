package fidelity

import (
	"strings"

	"kompact"
	"kompact/internal/artifacts"
)

// MeasureFidelity reports which of arts (ranked, as Artifacts returns them)
// summary keeps. An artifact is kept when its text appears in the
// summary, both with white space runs made one space; errors and TODO
// items are compared without regard to case.
func MeasureFidelity(arts []kompact.Artifact, summary string) kompact.Fidelity {
	return fidelityOf(arts, newKeptCheck(summary).flags(arts, nil))
}

// fidelityOf counts the report of arts, kept[i] saying whether the summary
// keeps arts[i].
func fidelityOf(arts []kompact.Artifact, kept []bool) kompact.Fidelity {
	f := kompact.Fidelity{Artifacts: len(arts), Classes: make(map[kompact.ArtifactClass]kompact.ClassFidelity, len(kompact.ArtifactClasses())), Lost: []kompact.Artifact{}}
	for _, c := range kompact.ArtifactClasses() {
		f.Classes[c] = kompact.ClassFidelity{}
	}
	for i, a := range arts {
		cf := f.Classes[a.Class]
		cf.Artifacts++
		if !a.Sent {
			cf.NotSent++
			f.NotSent++
		}
		if kept[i] {
			cf.Kept++
			f.Kept++
			if a.Sent {
				f.SentKept++
			}
		} else if len(f.Lost) < kompact.MaxLost {
			f.Lost = append(f.Lost, a)
		}
		f.Classes[a.Class] = cf
	}
	f.Recall = kompact.Recall(f.Kept, f.Artifacts)
	f.SentRecall = kompact.Recall(f.SentKept, f.Artifacts-f.NotSent)
	return f
}

// keptCheck tells whether a summary holds an artifact.
type keptCheck struct {
	norm   string
	exact  *artifacts.Haystack
	folded *artifacts.Haystack
}

func newKeptCheck(summary string) *keptCheck {
	norm := artifacts.Clean(summary)
	return &keptCheck{norm: norm, exact: artifacts.NewHaystack(norm)}
}

// flags says of each of arts whether the summary keeps it. When known is
// not nil, it says the same of a summary this one extends by a line break
// and more (the summary before its appendix): what that one keeps this one
// keeps too (TestKeptCarriesOver), and is not looked for again.
func (k *keptCheck) flags(arts []kompact.Artifact, known []bool) []bool {
	kept := make([]bool, len(arts))
	for i, a := range arts {
		kept[i] = known != nil && known[i] || k.kept(a)
	}
	return kept
}

func (k *keptCheck) kept(a kompact.Artifact) bool {
	if a.Class == kompact.ArtifactError || a.Class == kompact.ArtifactTodo {
		if k.folded == nil {
			k.folded = artifacts.NewHaystack(strings.ToLower(k.norm))
		}
		return k.folded.Contains(strings.ToLower(a.Text))
	}
	return k.exact.Contains(a.Text)
}
