package kimicode_test

import (
	"testing"

	"kompact"
	"kompact/internal/kcvectors"
	_ "kompact/kimi" // the default type, which computes the trigger
	"kompact/kimicode"
)

// TestDue: Kimi Code 2.1.0's trigger, as recorded (../shared/kimi-code/README.md): 96000 of
// 100000 fires (the 50,000 reserve), 30000 and 45000 do not; 345000 of 400000 fires (85%),
// 330000 does not; an unknown window never fires. And in every recorded automatic
// compaction the session's last measured count was due.
func TestDue(t *testing.T) {
	for _, tc := range []struct {
		used, window int
		due          bool
	}{{96000, 100000, true}, {50000, 100000, true}, {49999, 100000, false}, {30000, 100000, false}, {45000, 100000, false},
		{345000, 400000, true}, {340000, 400000, true}, {339999, 400000, false}, {330000, 400000, false}, {10, 0, false}} {
		if got := kimicode.Due(tc.used, tc.window); got != tc.due {
			t.Errorf("Due(%d, %d) = %v", tc.used, tc.window, got)
		}
	}
	_, raw := sharedTexts(t)
	n := 0
	for _, c := range kcvectors.Cases(t) {
		for _, cp := range c.Compactions {
			if cp.Source != "auto" {
				continue
			}
			w := readWire(t, c, raw, cp.Dir+"/session_before/agents/main/wire.jsonl")
			if n++; !kimicode.Due(w.Measured, c.MaxContextSize) {
				t.Errorf("%s: %d of %d is not due", c.Name, w.Measured, c.MaxContextSize)
			}
		}
	}
	if n != 5 {
		t.Fatalf("%d automatic compactions, want 5", n)
	}
	if kimicode.MaxTokens(100000) != 100000 || kimicode.MaxTokens(400000) != 131072 {
		t.Fatal("MaxTokens")
	}
	// The type's ContextStatus says the same, with the default thresholds.
	for _, tc := range []struct {
		used, window int
		due          bool
	}{{96000, 100000, true}, {45000, 100000, false}, {345000, 400000, true}, {330000, 400000, false}} {
		st := kimicode.Type{}.ContextStatus(kompact.TokenAccount{TokenCount: tc.used}, tc.window, kompact.AutoCompaction{})
		if st.ShouldCompact != tc.due || st.MaxContextSize != tc.window {
			t.Errorf("ContextStatus(%d, %d) = %+v", tc.used, tc.window, st)
		}
	}
}
