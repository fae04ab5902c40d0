package kimicode

import (
	"encoding/json"
	"strings"

	"kompact"
	"kompact/fidelity"
)

// Plan is one prepared Kimi Code compaction of a kompact session.
type Plan struct {
	texts        *Texts
	span         kompact.Span
	context      []Message
	request      []kompact.Message
	instructions string
	noop         string
	tokensBefore int
	minRecall    float64
}

// About says what the plan compacts.
func (p *Plan) About() kompact.PlanInfo {
	prompt := kompact.Prompt{Body: p.texts.Instruction, Source: kompact.PromptBuiltin}
	if p.texts.Genuine {
		prompt = kompact.Prompt{Body: p.texts.Instruction, Source: kompact.PromptFile, Origin: p.texts.Source}
	}
	return kompact.PlanInfo{Noop: p.noop != "", Reason: p.noop, Span: p.span, Prompt: prompt, Instructions: p.instructions}
}

// Counts divides the session: the leading system message kept, the rest replaced.
func (p *Plan) Counts() kompact.PlanCounts {
	if p.noop != "" {
		return kompact.PlanCounts{}
	}
	return p.span.Counts()
}

// RequestMessages are the request's messages; nil for a no-op.
func (p *Plan) RequestMessages() []kompact.Message { return p.request }

// LimitCompletion adds Kimi Code's max_tokens: min(window, 131072), when the window is known.
func (p *Plan) LimitCompletion(_ *kompact.Agent, fields map[string]any, window int) (map[string]any, int) {
	if window <= 0 {
		return fields, 0
	}
	out := make(map[string]any, len(fields)+1)
	for k, v := range fields {
		out[k] = v
	}
	out["max_tokens"] = MaxTokens(window)
	return out, MaxTokens(window)
}

// Shrink returns nil: kompact does not shrink a Kimi Code request.
func (p *Plan) Shrink() kompact.CompactionPlan { return nil }

// TokensBefore is Kimi Code's estimate of the system prompt and the context.
func (p *Plan) TokensBefore() int { return p.tokensBefore }

// Apply rebuilds the context around the model's summary; an answer without text is
// EEmptyResponse.
func (p *Plan) Apply(a kompact.Answer) (*kompact.Result, error) {
	if p.noop != "" {
		return nil, kompact.Errorf(kompact.EInvalid, "nothing to apply: %s", p.noop)
	}
	text := answerText(a)
	if strings.TrimSpace(text) == "" {
		return nil, kompact.Errorf(kompact.EEmptyResponse, "The API returned an empty response.").
			WithFixes("Compact again; if it persists, check the agent's compaction model.")
	}
	r := p.result(text, a.Usage)
	r.Prompt = p.About().Prompt
	return r, nil
}

// result is the compacted session with summary: the leading system message, the kept
// user messages (and elision note), the summary message, the continuation note.
func (p *Plan) result(summary string, usage *kompact.Usage) *kompact.Result {
	body := jsTrim(summary)
	if body == "" {
		body = "(no summary available)"
	}
	h := Rebuild(p.context, p.texts.Prefix()+"\n"+body, p.texts)
	// The kept user messages as Kimi Code sends them: consecutive ones merged.
	rebuilt := sentForm(h.Messages)
	span := p.span
	span.Leading, span.Trailing = len(rebuilt)-2, 1
	out := append([]kompact.Message(nil), span.Kept()...)
	out = append(out, ToKompact(rebuilt)...)
	sess := *p.span.Session
	sess.Messages = out
	f := fidelity.MeasureFidelity(fidelity.SpanArtifacts(&span), summary)
	after := EstimateMessages(rebuilt)
	if span.KeepSystem {
		after += EstimateText(kompactText(&out[0]))
	}
	return &kompact.Result{
		Session: &sess, SummaryMessage: out[len(span.Kept())+span.Leading], Summary: summary, Usage: usage,
		Compacted: len(p.context), TokensBefore: p.TokensBefore(), TokensAfter: after, EstimatedTokenCount: after,
		Fidelity: &f, Span: &span, MinRecall: p.minRecall,
	}
}

// sentForm is ms as Kimi Code sends them, as plain messages: merged user input, tool
// results with their notes.
func sentForm(ms []Message) []Message {
	var out []Message
	for _, o := range ChatMessages(ms) {
		var m struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		}
		_ = json.Unmarshal(o.bytes(), &m)
		msg := Message{Role: m.Role, ToolCallID: m.ToolCallID}
		var text string
		if json.Unmarshal(m.Content, &text) == nil && text != "" {
			msg.Parts = []Part{{Type: "text", Text: text}}
		}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		out = append(out, msg)
	}
	return out
}
