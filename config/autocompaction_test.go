package config_test

import (
	"strconv"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
)

// compaction.auto's bounds are kimi-cli's: 0.5 ≤ trigger_ratio ≤ 0.99,
// reserved_context_size ≥ 1000; absent means the default. Checked by the
// configuration's parser, which production reads every agent with.
func TestKCPD01AutoCompactionValidate(t *testing.T) {
	cases := []struct {
		ratio, reserved string // YAML, "" when absent
		field           string // "" when valid
	}{
		{"0.5", "1000", ""}, {"0.99", "1000", ""}, {"0.85", "50000", ""}, {"", "", ""},
		{"0.49", "50000", "trigger_ratio"}, {"0.4999999", "50000", "trigger_ratio"}, {"0.991", "50000", "trigger_ratio"},
		{"1", "50000", "trigger_ratio"}, {"-0.85", "50000", "trigger_ratio"}, {".nan", "50000", "trigger_ratio"},
		{"0.85", "999", "reserved_context_size"}, {"0.85", "-1", "reserved_context_size"},
		{"0.85", strconv.Itoa(kompact.MaxTokenFigure), ""}, {"0.85", strconv.Itoa(kompact.MaxTokenFigure + 1), "reserved_context_size"},
	}
	for _, c := range cases {
		auto := "enabled: true"
		if c.ratio != "" {
			auto += ", trigger_ratio: " + c.ratio
		}
		if c.reserved != "" {
			auto += ", reserved_context_size: " + c.reserved
		}
		doc := "agents:\n  a:\n    llm: {base_url: 'https://x.example/v1', model: m}\n    compaction:\n      auto: {" + auto + "}\n"
		_, err := config.Parse([]byte(doc), "agents.yaml")
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s, %s: %v", c.ratio, c.reserved, err)
		case c.field != "" && (kompact.ErrorCodeOf(err) != kompact.EInvalid || !strings.Contains(err.Error(), c.field) || len(kompact.ErrorFixes(err)) == 0):
			t.Errorf("%s, %s: got %v, want an invalid_request error about %s with fixes", c.ratio, c.reserved, err, c.field)
		}
	}
	if got := (kompact.AutoCompaction{}).Effective(); got != kompact.DefaultAutoCompaction(false) {
		t.Errorf("Effective of zero = %+v", got)
	}
	if got := (kompact.AutoCompaction{TriggerRatio: 0.6, ReservedContextSize: 2000}).Effective(); got.TriggerRatio != 0.6 || got.ReservedContextSize != 2000 {
		t.Errorf("Effective changed explicit values: %+v", got)
	}
}

// TestAutoCompactionBoundsOneRule: the bounds are kimi-cli's figures,
// and so are the fixes that name them.
func TestAutoCompactionBoundsOneRule(t *testing.T) {
	for r, in := range map[float64]bool{0.49: false, 0.5: true, 0.85: true, 0.99: true, 0.991: false, 0: false, 1: false} {
		if config.TriggerRatioInBounds(r) != in {
			t.Errorf("trigger_ratio %v: in bounds %v, want %v", r, !in, in)
		}
	}
	for n, in := range map[int64]bool{-1: false, 999: false, 1000: true, 50000: true, kompact.MaxTokenFigure: true, kompact.MaxTokenFigure + 1: false} {
		if config.ReservedContextSizeInBounds(n) != in {
			t.Errorf("reserved_context_size %d: in bounds %v, want %v", n, !in, in)
		}
	}
	if got, want := config.TriggerRatioFix(), "Use a ratio between 0.5 and 0.99, or remove trigger_ratio to use kimi-cli's 0.85."; got != want {
		t.Errorf("TriggerRatioFix() = %q, want %q", got, want)
	}
	if got, want := config.ReservedContextSizeFix(), "Use at least 1000 tokens, or remove reserved_context_size to use kimi-cli's 50000."; got != want {
		t.Errorf("ReservedContextSizeFix() = %q, want %q", got, want)
	}
}
