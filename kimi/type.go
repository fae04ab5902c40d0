package kimi

import (
	"context"
	"strings"

	"kompact"
)

// Name is the compaction type's name, its compaction.type value.
const Name = "kimi"

// Type is kimi-cli's compaction (its SimpleCompaction), registered as
// "kimi": one synthetic transcript message and the compaction prompt,
// the summary in place of the range, and kimi-cli's trigger.
type Type struct{}

func init() { kompact.RegisterCompactionType(Type{}) }

// Name returns "kimi".
func (Type) Name() string { return Name }

// Plan selects what req compacts in s (Prepare) with the agent's
// max_preserved_messages, fidelity settings and prompt (prompt, or the
// agent's inline prompt, else the built-in one), and the instructions of
// the agent, the session and the run joined (JoinInstructions).
func (Type) Plan(a *kompact.Agent, s *kompact.Session, req kompact.ActionRequest, prompt kompact.Prompt) (kompact.CompactionPlan, error) {
	opt, err := optionsOf(a, req)
	if err != nil {
		return nil, err
	}
	opt.Fidelity.MinRecall = a.Compaction.Fidelity.MinRecall
	if req.AppendixTokens == nil {
		opt.Fidelity.AppendixTokens = a.Compaction.Fidelity.AppendixTokens
	}
	if prompt == (kompact.Prompt{}) {
		prompt = ResolvePrompt(kompact.Prompt{Body: a.Compaction.Prompt, Source: kompact.PromptInline})
	}
	opt.Prompt = prompt
	p, err := Prepare(s, opt)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Outline: see Outline.
func (Type) Outline(m *kompact.Message) kompact.Message { return Outline(m) }

// ContextStatus is kimi-cli's trigger (NewContextStatus).
func (Type) ContextStatus(account kompact.TokenAccount, window int, auto kompact.AutoCompaction) kompact.ContextStatus {
	return NewContextStatus(account, window, auto)
}

// WithSummary: see WithSummary.
func (Type) WithSummary(r *kompact.Result, summary string) *kompact.Result {
	return WithSummary(r, summary)
}

// Reply: see ReplyWithUsage.
func (Type) Reply(ctx context.Context, llm kompact.LLM, a *kompact.Agent, history []kompact.Message) (kompact.Message, *kompact.Usage, error) {
	return ReplyWithUsage(ctx, llm, a, history)
}

// About says what the plan compacts.
func (p *Plan) About() kompact.PlanInfo {
	return kompact.PlanInfo{Noop: p.Noop, Reason: p.Reason, Span: p.Span, Prompt: p.Prompt, Instructions: p.instructions}
}

// Shrink is DropOldest, as a CompactionPlan.
func (p *Plan) Shrink() kompact.CompactionPlan {
	if q := p.DropOldest(); q != nil {
		return q
	}
	return nil
}

// LimitCompletion returns fields with kimi-cli's completion limit for
// agent a and a context of window tokens (CompletionLimit), and the limit;
// fields and 0 when none is sent.
func (p *Plan) LimitCompletion(a *kompact.Agent, fields map[string]any, window int) (map[string]any, int) {
	field, limit, ok := CompletionLimit(a, p, fields, window)
	if !ok {
		return fields, 0
	}
	out := make(map[string]any, len(fields)+1)
	for k, v := range fields {
		out[k] = v
	}
	out[field] = limit
	return out, limit
}

// Offers: kimi compacts ranges and up to a message.
func (Type) Offers() kompact.Offers { return kompact.Offers{Range: true, UpToHere: true} }

// SummaryForm is kimi-cli's (kompact.KimiSummaryForm).
func (Type) SummaryForm() kompact.SummaryForm { return kompact.KimiSummaryForm }

// IsSummary reports whether m is a user message whose first text part
// begins with kompact.SummaryPrefix.
func (Type) IsSummary(m kompact.Message) bool {
	return m.Role == kompact.RoleUser && len(m.Content) > 0 && m.Content[0].Type == kompact.PartText &&
		strings.HasPrefix(m.Content[0].Text, kompact.SummaryPrefix)
}
