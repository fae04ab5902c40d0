package kimicode

import "encoding/json"

// Answer is the model's answer to a compaction request.
type Answer struct {
	Text                                         string
	PromptTokens, CachedTokens, CompletionTokens int
}

// Overhead is Kimi Code's estimate of the request's system prompt and tools.
func (w *Wire) Overhead() int {
	n := EstimateText(w.SystemPrompt)
	for _, raw := range w.Tools {
		var t struct {
			Name, Description string
			Parameters        json.RawMessage
		}
		_ = json.Unmarshal(raw, &t)
		n += EstimateText(t.Name) + EstimateText(t.Description) + EstimateText(string(t.Parameters))
	}
	return n
}

// Apply is the compaction's outcome for the answer a, the session's wire.jsonl being at
// wirePath (absolute: the footer names it), source "manual" or "auto" and now in Unix
// milliseconds. The token figures follow Kimi Code's formulas as far as they are known
// (docs/kimi-code.md); the rest is exact.
func (r *Request) Apply(a Answer, wirePath, source string, now int64) *Outcome {
	w := r.Wire
	applyLine := w.Lines + RecordsBeforeApply + 1
	s := Summary{Model: a.Text, Todos: w.Todos, WirePath: wirePath, Applied: w.Applied, ApplyLine: applyLine}
	text := s.Text(r.Texts)
	h := Rebuild(w.Context, text, r.Texts)
	start := 1
	if n := len(w.Applied); n > 0 {
		start = w.Applied[n-1]
	}
	overhead := w.Overhead()
	// The footer counts as summary output.
	out := a.CompletionTokens + EstimateText(trimEnd(r.Texts.FooterText(wirePath, s.windowLines())))
	return &Outcome{
		Source: source, Instruction: r.Instruction, Summary: s.WithTodos(), ContextSummary: text,
		PromptTokens: a.PromptTokens, CachedTokens: a.CachedTokens, CompletionTokens: a.CompletionTokens,
		MessageCount: len(ChatMessages(w.Context)) + 1, CompactedCount: len(w.Context),
		TokensBefore: overhead + EstimateMessages(w.Context), SummaryOutputTokens: out,
		TokensAfter: overhead + out + EstimateMessages(h.Messages[:len(h.Messages)-2]) + EstimateMessage(&h.Messages[len(h.Messages)-1]),
		Handoff:     h, MaxTokens: MaxTokens(r.Window), WireStart: start, WireEnd: applyLine - 1, Time: now,
	}
}
