package config

import (
	"fmt"

	"kompact"
)

// compaction.auto's bounds are kimi-cli's (src/kimi_cli/config.py):
// 0.5 ≤ trigger_ratio ≤ 0.99 and reserved_context_size ≥ 1000 (and at most
// MaxTokenFigure). The parser (schema.go, auto) applies them with these
// functions and fixes; TestKCPD01AutoCompactionValidate holds the parser
// to kimi-cli's rules.

// TriggerRatioInBounds reports whether r is a compaction_trigger_ratio
// kimi-cli accepts: from MinTriggerRatio to MaxTriggerRatio, both
// inclusive (NaN is not).
func TriggerRatioInBounds(r float64) bool {
	return r >= kompact.MinTriggerRatio && r <= kompact.MaxTriggerRatio
}

// ReservedContextSizeInBounds reports whether n tokens is a
// reserved_context_size kompact accepts: at least MinReservedContextSize
// (kimi-cli's bound) and at most MaxTokenFigure.
func ReservedContextSizeInBounds(n int64) bool {
	return n >= kompact.MinReservedContextSize && n <= kompact.MaxTokenFigure
}

// TriggerRatioFix is the fix of a compaction_trigger_ratio out of bounds.
func TriggerRatioFix() string {
	return fmt.Sprintf("Use a ratio between %v and %v, or remove trigger_ratio to use kimi-cli's %v.", kompact.MinTriggerRatio, kompact.MaxTriggerRatio, kompact.DefaultTriggerRatio)
}

// ReservedContextSizeFix is the fix of a reserved_context_size out of
// bounds.
func ReservedContextSizeFix() string {
	return fmt.Sprintf("Use at least %d tokens, or remove reserved_context_size to use kimi-cli's %d.", kompact.MinReservedContextSize, kompact.DefaultReservedContextSize)
}
