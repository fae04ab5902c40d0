package service

import (
	"fmt"

	"kompact"
)

// This file is the advice for a model whose context window is no larger
// than reserved_context_size. kimi-cli's trigger (ShouldAutoCompact) then
// holds at every token count, right after a compaction too; kompact keeps
// that trigger as kimi-cli has it and only tells the user (kompact config
// check, the context route).

// ReservedExceedsWindow reports whether a context window of window tokens
// (0 or less: unknown) is no larger than auto's reserved_context_size
// (kimi-cli's default when unset): then token_count +
// reserved_context_size ≥ max_context_size whatever the token count, and
// compaction is always due.
func ReservedExceedsWindow(auto kompact.AutoCompaction, window int) bool {
	return window > 0 && auto.Effective().ReservedContextSize >= window
}

// SuggestedReservedContextSize returns a reserved_context_size for a
// window of window tokens with which the ratio condition decides, as it
// does for kimi-cli's default on large windows: window × (1 −
// trigger_ratio), rounded down to hundreds, and at least
// MinReservedContextSize (kimi-cli's bound).
func SuggestedReservedContextSize(auto kompact.AutoCompaction, window int) int {
	n := int(float64(window) * (1 - auto.Effective().TriggerRatio))
	return max(n-n%100, kompact.MinReservedContextSize)
}

// SmallWindowWarning returns what to tell the user when agent a compacts
// automatically and its llm.max_context_size is set and no larger than its
// reserved_context_size; "" otherwise.
func SmallWindowWarning(a *kompact.Agent) string {
	window, auto := a.LLM.MaxContextSize, a.Compaction.Auto
	if !a.AutoCompacts() || !ReservedExceedsWindow(auto, window) {
		return ""
	}
	msg := fmt.Sprintf("agent %q: llm.max_context_size is %d tokens, no more than compaction.auto.reserved_context_size (%d): "+
		"kimi-cli's trigger (token_count + reserved_context_size >= max_context_size) then holds at every token count, so automatic compaction is due after every turn, even right after a compaction",
		a.Name, window, auto.Effective().ReservedContextSize)
	if n := SuggestedReservedContextSize(auto, window); n < window {
		return msg + fmt.Sprintf("; set compaction.auto.reserved_context_size to %d (the window × (1 − trigger_ratio)), so that the trigger ratio decides", n)
	}
	return msg + fmt.Sprintf("; no reserved_context_size avoids it (kimi-cli's minimum is %d): use a model with a larger window, or turn compaction.auto off", kompact.MinReservedContextSize)
}

// UnknownWindowWarning returns what to tell the user when agent a compacts
// automatically without llm.max_context_size: kimi-cli's trigger needs the
// model's context size, so automatic compaction (the gateway's too) never
// runs unless the provider's model list gives it. cause is why a lookup
// found no size; nil when none was made (then a Kimi agent, whose
// provider's list gives the size, needs no warning). "" otherwise.
func UnknownWindowWarning(a *kompact.Agent, cause error) string {
	if !a.AutoCompacts() || a.LLM.MaxContextSize > 0 || cause == nil && a.LLM.IsKimi() {
		return ""
	}
	why := "the provider's model list may give none (Ollama's, vLLM's and OpenAI's do not)"
	if cause != nil {
		why = "the provider's model list gave none (" + cause.Error() + ")"
	}
	return fmt.Sprintf("agent %q: compaction.auto is on, but llm.max_context_size is not set and %s: without the context size of %q, automatic compaction (the gateway's too) never runs; set llm.max_context_size",
		a.Name, why, a.LLM.Model)
}
