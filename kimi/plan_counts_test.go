package kimi_test

import (
	"testing"

	"kompact"
	"kompact/kimi"
)

// TestPlanCounts: a compaction's counts, as every surface gives them (the
// HTTP dry run, the CLI's report): a leading system message the range
// starts with is kept before the summary, not replaced; the counts add up
// to the session's length and match the compacted session's layout.
func TestPlanCounts(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  kimi.Options
		want kompact.PlanCounts
	}{
		{"from the system message, two kept after", kimi.Options{MaxPreserved: 2}, kompact.PlanCounts{Before: 1, Replaced: 4, After: 2}},
		{"an explicit range after the system message", kimi.Options{Start: "u1", End: "a2"}, kompact.PlanCounts{Before: 1, Replaced: 4, After: 2}},
		{"a range in the middle", kimi.Options{Start: "u2", End: "a2"}, kompact.PlanCounts{Before: 3, Replaced: 2, After: 2}},
		{"up to the end", kimi.Options{Start: "a1", End: "a3"}, kompact.PlanCounts{Before: 2, Replaced: 5, After: 0}},
	} {
		s := conversation()
		p, err := kimi.Prepare(s, tc.opt)
		if err != nil || p.Noop {
			t.Fatalf("%s: %v %+v", tc.name, err, p)
		}
		got := p.Counts()
		if got != tc.want || got.Before+got.Replaced+got.After != len(s.Messages) {
			t.Errorf("%s: Counts() = %+v, want %+v", tc.name, got, tc.want)
		}
		r, err := p.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart("S")}})
		if err != nil {
			t.Fatal(err)
		}
		out := r.Session.Messages
		if r.Counts() != got || len(out) != got.Before+1+got.After || !kompact.IsSummary(out[got.Before]) {
			t.Errorf("%s: the result's counts %+v, %d messages, summary at %d: %s", tc.name, r.Counts(), len(out), got.Before, ids(out))
		}
		for i := 0; i < got.Before; i++ {
			if out[i].ID != s.Messages[i].ID {
				t.Errorf("%s: message %d before the summary is %s, want %s", tc.name, i, out[i].ID, s.Messages[i].ID)
			}
		}
	}
	p, err := kimi.Prepare(conversation(), kimi.Options{MaxPreserved: 10})
	if err != nil || !p.Noop {
		t.Fatalf("no-op: %v %+v", err, p)
	}
	if got := p.Counts(); got != (kompact.PlanCounts{After: 7}) {
		t.Errorf("no-op: Counts() = %+v", got)
	}
}
