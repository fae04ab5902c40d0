package kompact

import (
	"slices"
	"strings"
)

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

// WithSummary returns a copy of r, a result of this type, whose summary is summary (a person's
// edit): the summary message, the summary, the missing sections, the
// fidelity report and the estimates follow it, as they would for a
// compaction that answered summary. r is not modified.
func WithSummary(r *Result, summary string) *Result {
	out := *r
	at := r.SummaryAt()
	p := r.Span
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
	f := MeasureFidelity(SpanArtifacts(p), summary)
	out.Fidelity = &f
	off := p.Session.Kimi.History(msgs)
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
	summary, section, fid := WithAppendix(arts, body.String(), p.Fidelity.AppendixTokens)
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

	off := p.Session.Kimi.History(msgs)
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
		Span:            &p.Span,
		MinRecall:       p.Fidelity.MinRecall,
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
