package kimicode_test

import (
	"testing"

	"kompact"
	"kompact/internal/testing/kcvectors"
	_ "kompact/kimi" // the default type, which computes the trigger
	"kompact/kimicode"
)

// due is the type's ContextStatus verdict with the default thresholds: what the service
// computes for a kimi-code agent.
func due(used, window int) bool {
	return kimicode.Type{}.ContextStatus(kompact.TokenAccount{TokenCount: used}, window, kompact.AutoCompaction{}).ShouldCompact
}

// TestTrigger: Kimi Code 2.1.0's trigger, as recorded (../shared/kimi-code/README.md), is
// what the type's ContextStatus computes: 96000 of 100000 fires (the 50,000 reserve), 30000
// and 45000 do not; 345000 of 400000 fires (85%), 330000 does not; an unknown window never
// fires. And in every recorded automatic compaction the session's last measured count was
// due.
func TestTrigger(t *testing.T) {
	if kompact.DefaultTriggerRatio != 0.85 || kompact.DefaultReservedContextSize != 50000 {
		t.Fatalf("the default thresholds %v, %d are not Kimi Code's 0.85, 50000", kompact.DefaultTriggerRatio, kompact.DefaultReservedContextSize)
	}
	for _, tc := range []struct {
		used, window int
		due          bool
	}{{96000, 100000, true}, {50000, 100000, true}, {49999, 100000, false}, {30000, 100000, false}, {45000, 100000, false},
		{345000, 400000, true}, {340000, 400000, true}, {339999, 400000, false}, {330000, 400000, false}, {10, 0, false}} {
		if got := due(tc.used, tc.window); got != tc.due {
			t.Errorf("due(%d, %d) = %v", tc.used, tc.window, got)
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
			if n++; !due(w.Measured, c.MaxContextSize) {
				t.Errorf("%s: %d of %d is not due", c.Name, w.Measured, c.MaxContextSize)
			}
		}
	}
	if n != 6 {
		t.Fatalf("%d automatic compactions, want 6", n)
	}
	if kimicode.MaxTokens(100000) != 100000 || kimicode.MaxTokens(400000) != 131072 {
		t.Fatal("MaxTokens")
	}
	// The status names the window it was computed against.
	if st := (kimicode.Type{}).ContextStatus(kompact.TokenAccount{TokenCount: 96000}, 100000, kompact.AutoCompaction{}); st.MaxContextSize != 100000 {
		t.Errorf("ContextStatus(96000, 100000) = %+v", st)
	}
}
