package config

import (
	"fmt"

	"kompact"
)

// ValidateAutoCompaction checks c's thresholds against kimi-cli's bounds
// (src/kimi_cli/config.py; TriggerRatioInBounds,
// ReservedContextSizeInBounds): 0.5 ≤ trigger_ratio ≤ 0.99 and
// reserved_context_size ≥ 1000 (and at most MaxTokenFigure). Zero values
// are not checked: they mean the defaults. The error's code is EInvalid.
func ValidateAutoCompaction(c kompact.AutoCompaction) error {
	if c.TriggerRatio != 0 && !TriggerRatioInBounds(c.TriggerRatio) {
		return kompact.Errorf(kompact.EInvalid, "compaction.auto.trigger_ratio is %v; it must be between %v and %v", c.TriggerRatio, kompact.MinTriggerRatio, kompact.MaxTriggerRatio).
			WithFixes(TriggerRatioFix())
	}
	if n := c.ReservedContextSize; n != 0 && !ReservedContextSizeInBounds(int64(n)) {
		if n > kompact.MinReservedContextSize {
			return kompact.Errorf(kompact.EInvalid, "compaction.auto.reserved_context_size is %d; it must be at most %d tokens", n, int64(kompact.MaxTokenFigure)).
				WithFixes(ReservedContextSizeFix())
		}
		return kompact.Errorf(kompact.EInvalid, "compaction.auto.reserved_context_size is %d; it must be at least %d tokens", n, kompact.MinReservedContextSize).
			WithFixes(ReservedContextSizeFix())
	}
	return nil
}

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
