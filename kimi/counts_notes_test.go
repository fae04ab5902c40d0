package kimi_test

import (
	"testing"

	"kompact"
	"kompact/kimi"
)

// TestCountNotes: the notes a compaction writes count in the singular and
// the plural, and number its range as the dry run and the page do
// (PlanCounts.First, Last: a kept leading system message is not among
// them).
func TestCountNotes(t *testing.T) {
	for n, want := range map[int]string{0: "0 messages", 1: "1 message", 2: "2 messages", 11: "11 messages"} {
		if got := kompact.CountOf(n, "message"); got != want {
			t.Errorf("CountOf(%d) = %q, want %q", n, got, want)
		}
	}
	for _, tc := range []struct {
		opt         kimi.Options
		note        string
		first, last int
	}{
		{kimi.Options{Start: "u2", End: "u2"}, "compacted 1 message", 4, 4},
		{kimi.Options{Start: "u2", End: "a2"}, "compacted 2 messages", 4, 5},
		{kimi.Options{MaxPreserved: 2}, "compacted 4 messages", 2, 5}, // the system message stays
	} {
		p, err := kimi.Prepare(conversation(), tc.opt)
		if err != nil || p.Noop {
			t.Fatalf("%+v: %v %+v", tc.opt, err, p)
		}
		if c := p.Counts(); c.First() != tc.first || c.Last() != tc.last {
			t.Errorf("%+v: messages %d-%d, want %d-%d", tc.opt, c.First(), c.Last(), tc.first, tc.last)
		}
		r, err := p.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart("S")}})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Commit().Note; got != tc.note {
			t.Errorf("%+v: note %q, want %q", tc.opt, got, tc.note)
		}
	}
}
