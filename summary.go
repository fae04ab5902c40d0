package kompact

import (
	"slices"
	"strings"
)

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

// The messages of kimi-cli's APIEmptyResponseError, which kompact reports
// unchanged.
const (
	EmptyResponseMessage = "The API returned an empty response."
	ThinkOnlyMessage     = "The API returned a response containing only thinking content without any text or tool calls. " +
		"This usually indicates the stream was interrupted or the output token budget was exhausted during reasoning."
	// ToolCallOnlyMessage is kompact's own: kimi-cli would accept such an
	// answer and replace the history with an empty summary.
	ToolCallOnlyMessage = "The model answered with a tool call and no summary text."
)

// Result is a successful compaction.
type Result struct {
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
	// plan is the plan this result applies: its base session, its range and
	// what its request left out.
	plan *Plan
	// arts are the plan's artifacts (Plan.Artifacts), nil until listed.
	arts []Artifact
}

// artifacts returns the artifacts of the range r replaces, listed once.
func (r *Result) artifacts() []Artifact {
	if r.arts == nil {
		r.arts = r.plan.Artifacts()
	}
	return r.arts
}

// Dropped counts the oldest messages of the range that were left out of the
// request to fit the model's context window (the plan's Dropped). The
// summary replaces them too, but does not cover them.
func (r *Result) Dropped() int {
	if r.plan == nil {
		return 0
	}
	return r.plan.Dropped
}

// Counts are the counts of the plan r applies (Plan.Counts).
func (r *Result) Counts() PlanCounts { return r.plan.Counts() }

// summaryAt returns the index of the summary message in r.Session.
func (r *Result) summaryAt() int { return len(r.plan.Kept()) }

// Base returns the session messages the compaction read.
func (r *Result) Base() []Message { return r.plan.Session.Messages }

// Replacement returns the messages that replace Base()[:End of the range]:
// the kept messages, then the summary message.
func (r *Result) Replacement() []Message { return r.Session.Messages[:r.summaryAt()+1] }

// replaced counts the messages the summary replaces (Counts().Replaced): a
// kept leading system message is not among them, though the request shows
// it to the model (and Compacted counts it).
func (r *Result) replaced() int {
	if r.plan == nil {
		return r.Compacted
	}
	return r.Counts().Replaced
}

// Commit returns the commit that stores r: the base's messages up to the
// end of the compacted range are replaced by Replacement().
func (r *Result) Commit() Commit {
	return Commit{
		Base:        r.Base(),
		End:         r.plan.End,
		Replacement: r.Replacement(),
		Kind:        RevisionCompaction,
		Note:        "compacted " + CountOf(r.replaced(), "message"),
		TokenCount:  r.EstimatedTokenCount,
		Fidelity:    r.Fidelity,
		Kimi:        r.kimiAfter(),
	}
}

// kimiAfter is the kimi-cli context of a kimi-cli session after r is
// committed (what kimi-cli writes after /compact), nil for a kompact
// session.
func (r *Result) kimiAfter() *KimiContext {
	k := r.plan.Session.Kimi
	if k == nil {
		return nil
	}
	return k.compacted(r.Session.Messages, r.EstimatedTokenCount)
}

// WithSummary returns a copy of r whose summary is summary (a person's
// edit): the summary message, the summary, the missing sections, the
// fidelity report and the estimates follow it, as they would for a
// compaction that answered summary. r is not modified.
func (r *Result) WithSummary(summary string) *Result {
	out := *r
	at := r.summaryAt()
	p := r.plan
	msgs := slices.Clone(r.Session.Messages)
	var kimi []Message
	if p.Session.Kimi != nil { // the session is in kimi-cli's form
		msgs[at] = kimiSummaryMessage(summary)
		kimi = msgs
	} else {
		msgs[at] = summaryMessage(summary)
		base := p.Session.Messages
		kimi = slices.Concat(base[:p.Start], []Message{kimiSummaryMessage(summary)}, base[p.End:])
	}
	sess := *r.Session
	sess.Messages = msgs
	out.Session, out.KimiMessages = &sess, kimi
	out.SummaryMessage, out.Summary = msgs[at], summary
	out.MissingSections = MissingSections(summary)
	f := MeasureFidelity(r.artifacts(), summary)
	out.Fidelity = &f
	off := p.Session.Kimi.history(msgs)
	out.TokensAfter = EstimateTokens(msgs[off:])
	out.EstimatedTokenCount = EstimateTokens(kimi[off:])
	return &out
}

// kimiSummaryMessage returns kimi-cli's summary message for an edited
// summary: SummaryPrefix and summary, as two text parts.
func kimiSummaryMessage(summary string) Message {
	return Message{Role: RoleUser, Content: []Part{TextPart(SummaryPrefix), TextPart(summary)}}
}

// summaryMessage returns the user message that replaces the compacted
// messages: SummaryPrefix, a newline, then summary.
func summaryMessage(summary string) Message {
	return Message{Role: RoleUser, Content: []Part{TextPart(SummaryPrefix + "\n" + summary)}}
}

// Apply builds the compacted session from the LLM's answer. It fails with
// EEmptyResponse when the answer holds no summary (see CheckAnswer), and
// leaves p.Session untouched in every case.
func (p *Plan) Apply(a Answer) (*Result, error) {
	if p.Noop {
		return nil, Errorf(EInvalid, "nothing to apply: %s", p.Reason)
	}
	if err := CheckAnswer(a); err != nil {
		return nil, err
	}
	var body strings.Builder
	kimiSummary := Message{Role: RoleUser, Content: make([]Part, 1, len(a.Parts)+1)}
	kimiSummary.Content[0] = TextPart(SummaryPrefix)
	for i := range a.Parts {
		if a.Parts[i].Type == PartThink {
			continue
		}
		kimiSummary.Content = append(kimiSummary.Content, a.Parts[i])
		if a.Parts[i].Type == PartText {
			body.WriteString(a.Parts[i].Text)
		}
	}
	arts := p.Artifacts()
	summary, section, fid := p.withAppendix(arts, body.String())
	if section != "" {
		kimiSummary.Content = append(kimiSummary.Content, TextPart(section))
	}
	msg := summaryMessage(summary)

	msgs := p.Session.Messages
	kept := p.Kept()
	after := msgs[p.End:]
	out := make([]Message, 0, len(kept)+1+len(after))
	out = append(out, kept...)
	out = append(out, msg)
	out = append(out, after...)

	kimi := make([]Message, 0, p.Start+1+len(after))
	kimi = append(kimi, msgs[:p.Start]...)
	kimi = append(kimi, kimiSummary)
	kimi = append(kimi, after...)

	off := p.Session.Kimi.history(msgs)
	if p.Session.Kimi != nil {
		// A kimi-cli session keeps kimi-cli's form.
		out, msg = kimi, kimiSummary
	}
	ns := *p.Session
	ns.Messages = out
	r := &Result{
		Session:         &ns,
		SummaryMessage:  msg,
		Summary:         summary,
		KimiMessages:    kimi,
		MissingSections: MissingSections(summary),
		Usage:           a.Usage,
		Compacted:       p.End - p.Start,
		Preserved:       len(after),
		TokensBefore:    p.TokensBefore(),
		TokensAfter:     EstimateTokens(out[off:]),
		Prompt:          p.Prompt,
		Fidelity:        &fid,
		plan:            p,
		arts:            arts,
	}
	if a.Usage != nil {
		chars := 0
		for i := off; i < len(kimi); i++ {
			if i != p.Start {
				chars += kimi[i].TextLen()
			}
		}
		// The appendix is not among the output tokens.
		r.EstimatedTokenCount = int(a.Usage.Output) + EstimateStringTokens(section) + chars/4
	} else {
		r.EstimatedTokenCount = EstimateTokens(kimi[off:])
	}
	return r, nil
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

// MissingSections returns the names from SectionNames whose opening or
// closing tag does not appear in summary.
func MissingSections(summary string) []string {
	var missing []string
	for _, name := range SectionNames {
		if !strings.Contains(summary, "<"+name+">") || !strings.Contains(summary, "</"+name+">") {
			missing = append(missing, name)
		}
	}
	return missing
}
