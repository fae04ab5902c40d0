package kompact

import "strings"

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

// Answer is the LLM's reply to a compaction request: its content parts
// (text and think) in order, any tool calls, and the usage when reported.
type Answer struct {
	Parts     []Part
	ToolCalls []ToolCall
	Usage     *Usage
}

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
	// Dropped counts the oldest messages of the range that were left out of
	// the request to fit the model's context window.
	Dropped int
}

// CheckAnswer returns the error kimi-cli raises for an answer that carries no
// summary: nothing at all, or only thinking. kompact also refuses an answer
// that has tool calls and no text. The error's code is EEmptyResponse.
func CheckAnswer(a Answer) error {
	var text, think bool
	for i := range a.Parts {
		switch a.Parts[i].Type {
		case PartThink:
			think = true
		default:
			text = true
		}
	}
	switch {
	case text:
		return nil
	case len(a.ToolCalls) > 0:
		return (&Error{Code: EEmptyResponse, Message: ToolCallOnlyMessage}).
			WithFixes("Retry; the compaction request carries no tools, so this model ignored that. Try another compaction model.")
	case think:
		return (&Error{Code: EEmptyResponse, Message: ThinkOnlyMessage}).
			WithFixes("Retry, or raise the compaction request's max_tokens so the model has room to answer after reasoning.")
	default:
		return (&Error{Code: EEmptyResponse, Message: EmptyResponseMessage}).
			WithFixes("Retry; if it persists, check the model name and the provider's status.")
	}
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
	summary := body.String()
	msg := Message{Role: RoleUser, Content: []Part{TextPart(SummaryPrefix + "\n" + summary)}}

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
		TokensBefore:    EstimateTokens(msgs),
		TokensAfter:     EstimateTokens(out),
		Prompt:          p.Prompt,
	}
	if a.Usage != nil {
		chars := 0
		for i := range kimi {
			if i != p.Start {
				chars += kimi[i].TextLen()
			}
		}
		r.EstimatedTokenCount = int(a.Usage.Output) + chars/4
	} else {
		r.EstimatedTokenCount = EstimateTokens(kimi)
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
	return chars / 4
}

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
