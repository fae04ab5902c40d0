package fidelity

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/artifacts"
)

// TestKeptCarriesOver checks what withAppendix relies on: what a summary
// keeps, the summary with a line break and more text after it (as the
// appendix adds) keeps too, so the final report need not look for it
// again. Texts and summaries hold what could
// break it: white space at the join, upper case, invalid UTF-8, runes
// whose lower case has another length.
func TestKeptCarriesOver(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 6))
	bits := []string{"a", "B", "go.mod", " ", "\t", "\n", "\r", "é", "İ", "ẞ", "\xe6\x95", "\x95", "\xff", "x/y", "-", ":"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(bits[r.IntN(len(bits))])
		}
		return b.String()
	}
	classes := kompact.ArtifactClasses()
	for i := range 3000 {
		arts := make([]kompact.Artifact, 20)
		for j := range arts {
			arts[j] = kompact.Artifact{Class: classes[r.IntN(len(classes))], Text: artifacts.Clean(gen(1 + r.IntN(3)))}
		}
		model := gen(r.IntN(12))
		final := model + "\n" + gen(r.IntN(12))
		known := newKeptCheck(model).flags(arts, nil)
		if got, want := newKeptCheck(final).flags(arts, known), newKeptCheck(final).flags(arts, nil); !slices.Equal(got, want) {
			t.Fatalf("case %d: model %q, final %q:\n got %v\nwant %v", i, model, final, got, want)
		}
	}
}
