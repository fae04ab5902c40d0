package kimicode

// Kimi Code 2.1.0's automatic compaction (its DEFAULT_COMPACTION_CONFIG): a step starts
// with a compaction when the context holds 85% of the window, or when fewer than
// ReserveTokens would be left.
const (
	TriggerRatio  = 0.85
	ReserveTokens = 50000
	// MaxCompletionTokens caps the compaction request's max_tokens.
	MaxCompletionTokens = 131072
)

// Due says whether Kimi Code compacts a context of used tokens in a window of window
// tokens (≤ 0: unknown, never due).
func Due(used, window int) bool {
	if window <= 0 {
		return false
	}
	return float64(used) >= TriggerRatio*float64(window) || used+ReserveTokens >= window
}

// MaxTokens is the compaction request's max_tokens for a model of window tokens.
func MaxTokens(window int) int {
	return min(window, MaxCompletionTokens)
}
