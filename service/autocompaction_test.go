package service_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"
	"kompact/service"
)

// Claude Code's circuit breaker: three automatic failures in a row pause
// automatic compaction until a manual compaction succeeds.
func TestAutoCompactionCircuitBreaker(t *testing.T) {
	var b kompact.CompactionBreaker
	auto, manual := kompact.TriggerAuto, kompact.TriggerManual
	b = b.Record(auto, false).Record(auto, false)
	if b.Paused() {
		t.Fatal("paused after two failures")
	}
	b = b.Record(auto, true).Record(auto, false).Record(auto, false)
	if b.Paused() || b.AutoFailures != 2 {
		t.Fatalf("a success must reset the count: %+v", b)
	}
	b = b.Record(manual, false)
	if b.AutoFailures != 2 {
		t.Fatalf("a manual failure must not count: %+v", b)
	}
	b = b.Record(auto, false)
	if !b.Paused() {
		t.Fatalf("not paused after three failures in a row: %+v", b)
	}
	cfg := kompact.DefaultAutoCompaction(true)
	due := kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 99000}, 100000, cfg)
	if run, why := service.AutoCompactionDue(cfg, due, b); run || why != kompact.ReasonAutoPaused {
		t.Fatalf("paused breaker: %v %q", run, why)
	}
	b = b.Record(manual, false)
	if !b.Paused() {
		t.Fatal("a manual failure must not resume automatic compaction")
	}
	b = b.Record(manual, true)
	if b.Paused() || b.AutoFailures != 0 {
		t.Fatalf("a manual success must resume automatic compaction: %+v", b)
	}
	if run, why := service.AutoCompactionDue(cfg, due, b); !run || why != kompact.ReasonBoth {
		t.Fatalf("due: %v %q", run, why)
	}
	if run, why := service.AutoCompactionDue(kompact.DefaultAutoCompaction(false), due, b); run || why != kompact.ReasonAutoDisabled {
		t.Fatalf("disabled: %v %q", run, why)
	}
	below := kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 10}, 100000, cfg)
	if run, why := service.AutoCompactionDue(cfg, below, b); run || why != kompact.ReasonBelowThreshold {
		t.Fatalf("below: %v %q", run, why)
	}
	unknown := kimi.NewContextStatus(kompact.TokenAccount{TokenCount: 1 << 40}, 0, cfg)
	if run, why := service.AutoCompactionDue(cfg, unknown, b); run || why != kompact.ReasonUnknownContextSize {
		t.Fatalf("unknown size: %v %q", run, why)
	}
}

// Gemini CLI's guard: an automatic compaction that does not lower the token
// count is refused.
func TestAutoCompactionNoReductionGuard(t *testing.T) {
	if err := service.CheckReduction(1000, 999); err != nil {
		t.Errorf("999 < 1000: %v", err)
	}
	for _, after := range []int{1000, 1001} {
		err := service.CheckReduction(1000, after)
		if kompact.ErrorCodeOf(err) != kompact.ENotReduced || !strings.Contains(err.Error(), "1000 tokens before, ") {
			t.Errorf("after %d: %v", after, err)
		}
	}
}
