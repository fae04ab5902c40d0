package kimicode

// Kimi Code 2.1.0's automatic compaction (its DEFAULT_COMPACTION_CONFIG) is kimi-cli's
// trigger with kimi-cli's defaults: a step starts with a compaction when the context holds
// 85% of the window (kompact.DefaultTriggerRatio), or when fewer than 50,000 tokens
// (kompact.DefaultReservedContextSize) would be left. The type's ContextStatus computes it
// through the default type (kimi.ShouldAutoCompact), the one implementation, which
// TestTrigger holds to the recorded sessions.
const (
	// MaxCompletionTokens caps the compaction request's max_tokens.
	MaxCompletionTokens = 131072
)

// MaxTokens is the compaction request's max_tokens for a model of window tokens.
func MaxTokens(window int) int {
	return min(window, MaxCompletionTokens)
}
