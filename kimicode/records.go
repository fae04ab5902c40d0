package kimicode

import (
	"bytes"
	"encoding/json"
)

// Outcome is what a compaction's records say of it.
type Outcome struct {
	// Source is "manual" or "auto"; Instruction the user's ("" for none).
	Source, Instruction string
	// Summary is the model's answer; ContextSummary the summary message's text.
	Summary, ContextSummary string
	// PromptTokens, CachedTokens and CompletionTokens are the model's usage.
	PromptTokens, CachedTokens, CompletionTokens int
	// MessageCount is the request's messages but the system prompt; CompactedCount the
	// context messages replaced.
	MessageCount, CompactedCount int
	// TokensBefore and TokensAfter estimate the context before and after.
	TokensBefore, TokensAfter, SummaryOutputTokens int
	Handoff                                        Handoff
	// MaxTokens is the request's max_tokens.
	MaxTokens int
	// WireStart and WireEnd are the window the summary covers.
	WireStart, WireEnd int
	// Time is the records' time, in Unix milliseconds.
	Time int64
}

// Records are the six records a Kimi Code compaction appends to wire.jsonl, each with its
// newline, keys in Kimi Code's order.
func Records(w *Wire, o *Outcome) []byte {
	t := json.RawMessage(itoa64(o.Time))
	begin := object{{"type", "full_compaction.begin"}, {"source", o.Source}}
	if o.Instruction != "" {
		begin = append(begin, field{"instruction", o.Instruction})
	}
	begin = append(begin, field{"agentId", "main"}, field{"time", t})
	apply := object{{"type", "context.apply_compaction"}, {"agentId", "main"}, {"summary", o.Summary},
		{"contextSummary", o.ContextSummary}, {"compactedCount", o.CompactedCount}, {"tokensBefore", o.TokensBefore},
		{"tokensAfter", o.TokensAfter}, {"summaryOutputTokens", o.SummaryOutputTokens},
		{"keptUserMessageCount", o.Handoff.Kept}}
	if o.Handoff.Elided {
		apply = append(apply, field{"keptHeadUserMessageCount", o.Handoff.KeptHead})
	}
	apply = append(apply, field{"wireLines", object{{"start", o.WireStart}, {"end", o.WireEnd}}}, field{"time", t})
	var b bytes.Buffer
	for _, r := range []object{
		begin,
		{{"type", "llm.request"}, {"agentId", "main"}, {"kind", "compaction"}, {"provider", w.Provider}, {"model", w.Model},
			{"modelAlias", w.ModelAlias}, {"thinkingEffort", w.ThinkingEffort}, {"maxTokens", o.MaxTokens}, {"toolSelect", false},
			{"systemPromptHash", w.SystemPromptHash}, {"toolsHash", w.ToolsHash}, {"messageCount", o.MessageCount},
			{"droppedCount", 0}, {"time", t}},
		{{"type", "usage.record"}, {"agentId", "main"}, {"model", w.ModelAlias}, {"usage", object{
			{"inputOther", o.PromptTokens - o.CachedTokens}, {"output", o.CompletionTokens},
			{"inputCacheRead", o.CachedTokens}, {"inputCacheCreation", 0}}}, {"usageScope", "session"}, {"time", t}},
		apply,
		{{"type", "token_counting.rebased"}, {"agentId", "main"}, {"length", len(o.Handoff.Messages)},
			{"tokens", o.TokensAfter}, {"measured", false}, {"time", t}},
		{{"type", "full_compaction.complete"}, {"agentId", "main"}, {"time", t}},
	} {
		r.write(&b)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
