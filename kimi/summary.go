package kimi

import (
	"slices"
	"strings"

	"kompact"
	"kompact/fidelity"
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
func WithSummary(r *kompact.Result, summary string) *kompact.Result {
	out := *r
	at := r.SummaryAt()
	p := r.Span
	msgs := slices.Clone(r.Session.Messages)
	var kimi []kompact.Message
	if p.Session.Kimi != nil { // the session is in kimi-cli's form
		msgs[at] = kimiSummaryMessage(summary)
		kimi = msgs
	} else {
		msgs[at] = summaryMessage(summary)
		base := p.Session.Messages
		kimi = slices.Concat(base[:p.Start], []kompact.Message{kimiSummaryMessage(summary)}, base[p.End:])
	}
	sess := *r.Session
	sess.Messages = msgs
	out.Session, out.KimiMessages = &sess, kimi
	out.SummaryMessage, out.Summary = msgs[at], summary
	out.MissingSections = MissingSections(summary)
	f := fidelity.MeasureFidelity(fidelity.SpanArtifacts(p), summary)
	out.Fidelity = &f
	off := p.Session.Kimi.History(msgs)
	out.TokensAfter = kompact.EstimateTokens(msgs[off:])
	out.EstimatedTokenCount = kompact.EstimateTokens(kimi[off:])
	return &out
}

// kimiSummaryMessage returns kimi-cli's summary message for an edited
// summary: SummaryPrefix and summary, as two text parts.
func kimiSummaryMessage(summary string) kompact.Message {
	return kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(kompact.SummaryPrefix), kompact.TextPart(summary)}}
}

// summaryMessage returns the user message that replaces the compacted
// messages: SummaryPrefix, a newline, then summary.
func summaryMessage(summary string) kompact.Message {
	return kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(kompact.SummaryPrefix + "\n" + summary)}}
}

// Apply builds the compacted session from the LLM's answer. It fails with
// EEmptyResponse when the answer holds no summary (see CheckAnswer), and
// leaves p.Session untouched in every case.
func (p *Plan) Apply(a kompact.Answer) (*kompact.Result, error) {
	if p.Noop {
		return nil, kompact.Errorf(kompact.EInvalid, "nothing to apply: %s", p.Reason)
	}
	if err := CheckAnswer(a); err != nil {
		return nil, err
	}
	var body strings.Builder
	kimiSummary := kompact.Message{Role: kompact.RoleUser, Content: make([]kompact.Part, 1, len(a.Parts)+1)}
	kimiSummary.Content[0] = kompact.TextPart(kompact.SummaryPrefix)
	for i := range a.Parts {
		if a.Parts[i].Type == kompact.PartThink {
			continue
		}
		kimiSummary.Content = append(kimiSummary.Content, a.Parts[i])
		if a.Parts[i].Type == kompact.PartText {
			body.WriteString(a.Parts[i].Text)
		}
	}
	arts := p.Artifacts()
	summary, section, fid := fidelity.WithAppendix(arts, body.String(), p.Fidelity.AppendixTokens)
	if section != "" {
		kimiSummary.Content = append(kimiSummary.Content, kompact.TextPart(section))
	}
	msg := summaryMessage(summary)

	msgs := p.Session.Messages
	kept := p.Kept()
	after := msgs[p.End:]
	out := make([]kompact.Message, 0, len(kept)+1+len(after))
	out = append(out, kept...)
	out = append(out, msg)
	out = append(out, after...)

	kimi := make([]kompact.Message, 0, p.Start+1+len(after))
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
	r := &kompact.Result{
		Session:         &ns,
		SummaryMessage:  msg,
		Summary:         summary,
		KimiMessages:    kimi,
		MissingSections: MissingSections(summary),
		Usage:           a.Usage,
		Compacted:       p.End - p.Start,
		Preserved:       len(after),
		TokensBefore:    p.TokensBefore(),
		TokensAfter:     kompact.EstimateTokens(out[off:]),
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
		r.EstimatedTokenCount = kompact.EstimateTokens(kimi[off:])
	}
	return r, nil
}
