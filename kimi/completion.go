package kimi

// ComputeMaxCompletionTokens is kimi-cli's compute_max_completion_tokens
// (src/kimi_cli/llm.py). With a known context size (> 0) it is
// max(1, min(budget, max(1, maxContextSize − max(0, inputTokens)))), where a
// nil budget means maxContextSize; with an unknown size it is
// max(1, budget), where a nil budget means fallback.
func ComputeMaxCompletionTokens(maxContextSize, inputTokens int, budget *int, fallback int) int {
	if maxContextSize <= 0 {
		if budget != nil {
			return max(1, *budget)
		}
		return max(1, fallback)
	}
	remaining := max(1, maxContextSize-max(0, inputTokens))
	requested := maxContextSize
	if budget != nil {
		requested = *budget
	}
	return max(1, min(requested, remaining))
}

// CompactionCompletionTokens is the completion limit kimi-cli's
// _compute_completion_overrides (src/kimi_cli/soul/kimisoul.py) gives a
// compaction request: the input is the larger of the two request estimates
// (the compaction request, and the session's next request after
// compaction; see CompactionInputEstimates), plus CompletionSafetyMargin
// when the context size is known; with an unknown size the fallback is
// reserved_context_size. budget is the configured completion limit, nil when
// none.
func CompactionCompletionTokens(maxContextSize, requestTokens, nextRequestTokens int, budget *int, reservedContextSize int) int {
	input := max(requestTokens, nextRequestTokens)
	if maxContextSize > 0 {
		input += CompletionSafetyMargin
	}
	return ComputeMaxCompletionTokens(maxContextSize, input, budget, reservedContextSize)
}

// The constants of kimi-cli's completion budget (src/kimi_cli/llm.py).
const (
	// CompletionSafetyMargin is added to the estimated input of a
	// compaction request before the completion budget is derived
	// (DEFAULT_COMPLETION_TOKEN_SAFETY_MARGIN).
	CompletionSafetyMargin = 1024
	// MediaTokenEstimate is the request estimate of one image, audio or
	// video part (MEDIA_TOKEN_ESTIMATE).
	MediaTokenEstimate = 2000
)
