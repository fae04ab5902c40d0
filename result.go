package kompact

import "strings"

// SummaryPrefix opens the summary message that replaces the compacted
// messages.
const SummaryPrefix = "<system>Previous context has been compacted. Here is the compaction output:</system>"

// IsSummary reports whether m is a summary message a compaction wrote, of
// any registered type: a user message whose text begins with SummaryPrefix
// (kompact's form and kimi-cli's), or one another type recognises as its
// own (CompactionType.IsSummary: a kimi-code summary).
func IsSummary(m Message) bool {
	if m.Role != RoleUser || len(m.Content) == 0 || m.Content[0].Type != PartText {
		return false
	}
	if strings.HasPrefix(m.Content[0].Text, SummaryPrefix) {
		return true
	}
	for name, t := range compactionTypes {
		if name != DefaultCompactionType && t.IsSummary(m) {
			return true
		}
	}
	return false
}

// PlanCounts divide a session's messages as a compaction does: Before
// stay before the summary, the summary replaces Replaced, Pinned (of the
// range) and After stay after it, verbatim. They add up to the session's length.
type PlanCounts struct {
	Before, Replaced, After, Pinned int
}

// First and Last are the 1-based numbers of the first and the last message
// the summary replaces, as every surface numbers them (the dry run, the
// page, the CLI): a kept leading system message is not among them.
func (c PlanCounts) First() int { return c.Before + 1 }

// Last: see First.
func (c PlanCounts) Last() int { return c.Before + c.Replaced + c.Pinned }

// PinnedNote is ", N pinned kept" when c keeps pinned messages, else "".
func (c PlanCounts) PinnedNote() string {
	if c.Pinned == 0 {
		return ""
	}
	return ", " + CountOf(c.Pinned, "pinned message") + " kept"
}

// Usage is the token usage of an LLM call, in kimi-cli's (kosong's) terms.
type Usage struct {
	// InputOther counts prompt tokens that were not read from a cache.
	InputOther int64 `json:"input_other"`
	// Output counts completion tokens.
	Output int64 `json:"output"`
	// InputCacheRead counts prompt tokens read from the provider's cache.
	InputCacheRead int64 `json:"input_cache_read"`
	// InputCacheCreation counts prompt tokens written to the cache.
	InputCacheCreation int64 `json:"input_cache_creation"`
}

// Input returns all prompt tokens.
func (u Usage) Input() int64 { return u.InputOther + u.InputCacheRead + u.InputCacheCreation }

// Result is a successful compaction.
type Result struct {
	// Type names the compaction type that made it (its compaction.type);
	// "" when not recorded (a preview kept before previews recorded it).
	Type string
	// Session is the compacted session: the kept messages, the summary
	// message, then the preserved or unselected messages, unchanged. It has
	// its own message slice, but the messages share their parts with the
	// input session: treat message contents as immutable.
	Session *Session
	// SummaryMessage is the user message that replaces the compacted range:
	// SummaryPrefix, a newline, then the summary body, as one text part.
	SummaryMessage Message
	// Summary is the summary body: the answer's text parts, concatenated.
	Summary string
	// KimiMessages is the compacted history in kimi-cli's own form, for
	// export to kimi-cli: the summary message has two or more parts (the
	// prefix, then the answer's non-think parts), and a leading system message
	// inside the range is not kept.
	KimiMessages []Message
	// MissingSections lists the required sections the summary lacks, in
	// order. The summary is kept anyway, as kimi-cli keeps it.
	MissingSections []string
	// Usage is the compaction call's usage, nil when none was reported.
	Usage *Usage
	// EstimatedTokenCount is kimi-cli's estimate for KimiMessages: the
	// summary's output tokens plus a quarter of the other messages' text
	// code points (all text when usage is unknown).
	EstimatedTokenCount int
	// Compacted and Preserved count the messages summarised and the
	// messages after the range kept verbatim.
	Compacted, Preserved int
	// TokensBefore and TokensAfter estimate the session's size (a quarter of
	// its text code points) before and after compaction.
	TokensBefore, TokensAfter int
	Prompt                    Prompt
	// Fidelity says which artifacts of the compacted range the summary
	// keeps (docs/fidelity.md).
	Fidelity *Fidelity
	// Span is what the result replaces: its base session, its range and
	// what its request left out. Nil in a Result built by hand.
	Span *Span
	// MinRecall is the low_fidelity threshold the result is judged by
	// (compaction.fidelity.min_recall; see Warnings).
	MinRecall float64
}

// Dropped counts the oldest messages of the range that were left out of the
// request to fit the model's context window (the plan's Dropped). The
// summary replaces them too, but does not cover them.
func (r *Result) Dropped() int {
	if r.Span == nil {
		return 0
	}
	return r.Span.Dropped
}

// Counts are the counts of the plan r applies (Plan.Counts).
func (r *Result) Counts() PlanCounts { return r.Span.Counts() }

// SummaryAt returns the index of the summary message in r.Session.
func (r *Result) SummaryAt() int { return len(r.Span.Kept()) + r.Span.Leading }

// Base returns the session messages the compaction read.
func (r *Result) Base() []Message { return r.Span.Session.Messages }

// Replacement replaces Base()[:End]: kept, Leading, summary, pinned, Trailing.
func (r *Result) Replacement() []Message {
	return r.Session.Messages[:r.SummaryAt()+1+len(r.Span.Pinned)+r.Span.Trailing]
}

// Replaced counts the messages the summary replaces (Counts().Replaced): a
// kept leading system message is not among them, though the request shows
// it to the model (and Compacted counts it).
func (r *Result) Replaced() int {
	if r.Span == nil {
		return r.Compacted
	}
	return r.Counts().Replaced
}

// Commit returns the commit that stores r: the base's messages up to the
// end of the compacted range are replaced by Replacement().
func (r *Result) Commit() Commit {
	return Commit{
		Base:        r.Base(),
		End:         r.Span.End,
		Replacement: r.Replacement(),
		Kind:        RevisionCompaction,
		Note:        "compacted " + CountOf(r.Replaced(), "message") + r.Counts().PinnedNote(),
		TokenCount:  r.EstimatedTokenCount,
		Fidelity:    r.Fidelity,
		Kimi:        r.kimiAfter(),
	}
}

// kimiAfter is the kimi-cli context of a kimi-cli session after r is
// committed (what kimi-cli writes after /compact), nil for a kompact
// session.
func (r *Result) kimiAfter() *KimiContext {
	k := r.Span.Session.Kimi
	if k == nil {
		return nil
	}
	return k.compacted(r.Session.Messages, r.EstimatedTokenCount)
}

// EstimateTokens is kimi-cli's token estimate: the code points of all text
// parts, divided by four.
func EstimateTokens(msgs []Message) int {
	chars := 0
	for i := range msgs {
		chars += msgs[i].TextLen()
	}
	return CharsToTokens(chars)
}

// CharsToTokens is kimi-cli's token estimate of chars code points of
// text: a quarter of them, rounded down.
func CharsToTokens(chars int) int { return chars / 4 }
