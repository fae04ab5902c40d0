package service_test

import (
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"
	"kompact/service"
)

// A window no larger than reserved_context_size makes compaction always
// due (kimi-cli's trigger, unchanged); the advice suggests window × (1 −
// trigger_ratio) in hundreds, and says when no value helps.
func TestReservedExceedsWindow(t *testing.T) {
	def := kompact.DefaultAutoCompaction(true)
	for _, tc := range []struct {
		auto      kompact.AutoCompaction
		window    int
		exceeds   bool
		suggested int
	}{
		{def, 32768, true, 4900},
		{def, 50000, true, 7500},
		{def, 50001, false, 7500},
		{def, 0, false, 1000},
		{kompact.AutoCompaction{Enabled: true}, 8192, true, 1200}, // zero thresholds: kimi-cli's
		{kompact.AutoCompaction{TriggerRatio: 0.5, ReservedContextSize: 1000}, 1000, true, 1000},
		{kompact.AutoCompaction{ReservedContextSize: 4000}, 32768, false, 4900},
	} {
		if got := service.ReservedExceedsWindow(tc.auto, tc.window); got != tc.exceeds {
			t.Errorf("ReservedExceedsWindow(%+v, %d) = %v", tc.auto, tc.window, got)
		}
		if got := service.SuggestedReservedContextSize(tc.auto, tc.window); got != tc.suggested {
			t.Errorf("SuggestedReservedContextSize(%+v, %d) = %d, want %d", tc.auto, tc.window, got, tc.suggested)
		}
		if n := tc.suggested; tc.exceeds && n < tc.window && kimi.ShouldAutoCompact(0, tc.window, def.TriggerRatio, n) {
			t.Errorf("with the suggested %d, an empty context of %d is still due", n, tc.window)
		}
	}
	// The shown thresholds follow the setting: a 32k window with the
	// default reserved_context_size is due at 0 tokens.
	if !kimi.ShouldAutoCompact(0, 32768, def.TriggerRatio, def.ReservedContextSize) {
		t.Error("kimi-cli's trigger changed: a 32k window with the default reserve is not due at 0 tokens")
	}
}

func TestSmallWindowWarning(t *testing.T) {
	agent := func(window int, auto kompact.AutoCompaction) *kompact.Agent {
		a := &kompact.Agent{Name: "small"}
		a.LLM.MaxContextSize = window
		a.Compaction.Enabled, a.Compaction.Type, a.Compaction.Auto = true, kompact.DefaultCompactionType, auto
		return a
	}
	on := kompact.DefaultAutoCompaction(true)
	w := service.SmallWindowWarning(agent(32768, on))
	for _, want := range []string{`agent "small"`, "32768", "(50000)", "after every turn", "reserved_context_size to 4900"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if w := service.SmallWindowWarning(agent(900, on)); !strings.Contains(w, "no reserved_context_size avoids it") {
		t.Errorf("a 900-token window: %q", w)
	}
	for _, a := range []*kompact.Agent{agent(32768, kompact.DefaultAutoCompaction(false)), agent(0, on), agent(200000, on)} {
		if w := service.SmallWindowWarning(a); w != "" {
			t.Errorf("agent window %d, auto %v: %q, want none", a.LLM.MaxContextSize, a.Compaction.Auto.Enabled, w)
		}
	}
}
