package service

import (
	"fmt"
	"strings"
	"testing"

	"kompact"
)

// TestAnsweredMark (issue 39 §2): the mark of an answered summary is
// found in a text that holds the summary's words, whatever framing is
// around them (kompact's summary prefix, tags rewritten, Claude Code's
// own lines), and not in a text that holds another summary.
func TestAnsweredMark(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "Step %d: the assistant ran go test ./pkg%d/ and fixed line %d. ", i, i*7, i*13)
	}
	long := b.String()
	for _, summary := range []string{"The user asked to fix /src/a_test.go; the assistant fixed it.", long} {
		m := markOf(kompact.SummaryPrefix + "\n" + summary + "\n\n<fidelity>kept 9 of 10</fidelity>")
		if m == nil {
			t.Fatalf("no mark of %.40q", summary)
		}
		if !m.foundIn("Claude Code's opening.\n\nSummary:\n[summary]" + summary + "[/summary]\n\nContinue.") {
			t.Errorf("the mark of %.40q is not found in a continuation that holds it", summary)
		}
		if m.foundIn("Claude Code's opening.\n\nSummary:\nanother conversation's summary, " + summary[:len(summary)/3]) {
			t.Errorf("the mark of %.40q is found in another summary", summary)
		}
	}
	if markOf("<a></a>") != nil || markOf("<summary>ok</summary>") != nil {
		t.Errorf("a text of tags only, or of a word, has a mark")
	}
}
