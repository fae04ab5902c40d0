package kimi

import (
	"kompact"
)

// ShouldAutoCompact is kimi-cli's should_auto_compact
// (src/kimi_cli/soul/compaction.py): compaction is due when tokenCount ≥
// maxContextSize × triggerRatio (in floating point, as Python computes it)
// or tokenCount + reservedContextSize ≥ maxContextSize. Like kimi-cli's, it
// does not look at whether maxContextSize is known; ContextStatus does.
func ShouldAutoCompact(tokenCount, maxContextSize int, triggerRatio float64, reservedContextSize int) bool {
	return byRatio(tokenCount, maxContextSize, triggerRatio) || byReserve(tokenCount, maxContextSize, reservedContextSize)
}

func byRatio(tokenCount, maxContextSize int, triggerRatio float64) bool {
	return float64(tokenCount) >= float64(maxContextSize)*triggerRatio
}

func byReserve(tokenCount, maxContextSize, reservedContextSize int) bool {
	return tokenCount+reservedContextSize >= maxContextSize
}

// NewContextStatus evaluates account against a context of maxContextSize
// tokens (≤ 0: unknown) with the thresholds of auto (zero thresholds mean
// kimi-cli's defaults): ShouldCompact is ShouldAutoCompact's verdict, the
// one the parity tests hold to kimi-cli's.
func NewContextStatus(account kompact.TokenAccount, maxContextSize int, auto kompact.AutoCompaction) kompact.ContextStatus {
	st := kompact.ContextStatus{TokenCount: account.TokenCount, PendingTokens: account.PendingTokens}
	if maxContextSize <= 0 {
		st.Reason = kompact.ReasonUnknownContextSize
		return st
	}
	auto = auto.Effective()
	n := account.WithPending()
	st.MaxContextSize = maxContextSize
	st.UsageRatio = float64(n) / float64(maxContextSize)
	st.ShouldCompact = ShouldAutoCompact(n, maxContextSize, auto.TriggerRatio, auto.ReservedContextSize)
	ratio := byRatio(n, maxContextSize, auto.TriggerRatio)
	reserve := byReserve(n, maxContextSize, auto.ReservedContextSize)
	switch {
	case ratio && reserve:
		st.Reason = kompact.ReasonBoth
	case ratio:
		st.Reason = kompact.ReasonTriggerRatio
	case reserve:
		st.Reason = kompact.ReasonReservedContext
	default:
		st.Reason = kompact.ReasonBelowThreshold
	}
	return st
}
