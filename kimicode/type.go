package kimicode

import (
	"context"
	"strings"
	"sync"

	"kompact"
)

// Name is the compaction type's name, its compaction.type value.
const Name = "kimi-code"

// Type is Kimi Code 2.1.0's compaction of a kompact session, registered as "kimi-code":
// the leading system message as the request's system prompt, the whole history as
// structured messages, the instruction last; the rebuilt context (kept user messages,
// summary, continuation note) as the replacement. A kompact session records no tools, no
// TODO list and no wire.jsonl, so the request has no tools and the summary no footer.
type Type struct{}

func init() { kompact.RegisterCompactionType(Type{}) }

// Name returns "kimi-code".
func (Type) Name() string { return Name }

// installed are the texts the type uses: those of the Kimi Code installation Finder
// finds, looked up once, or those UseTexts set.
var installed struct {
	sync.Mutex
	texts   *Texts
	warning string
}

// CurrentTexts returns the type's texts and the warning of kompact's own wording ("" for
// Kimi Code's), finding them on first use.
func CurrentTexts() (*Texts, string) {
	installed.Lock()
	defer installed.Unlock()
	if installed.texts == nil {
		installed.texts, installed.warning = (&Finder{}).Find()
	}
	return installed.texts, installed.warning
}

// UseTexts makes the type use t (a program that found them itself, tests).
func UseTexts(t *Texts) {
	installed.Lock()
	defer installed.Unlock()
	installed.texts, installed.warning = t, ""
}

// Plan prepares the compaction of the whole of s. Ranges (start, end, compact_up_to_here)
// and kimi-cli sessions are kimi's: an error says so.
func (Type) Plan(a *kompact.Agent, s *kompact.Session, req kompact.ActionRequest, _ kompact.Prompt) (kompact.CompactionPlan, error) {
	if req.Action != kompact.ActionCompactConversation || req.Start != "" || req.End != "" {
		return nil, kompact.Errorf(kompact.EInvalid, "the kimi-code compaction compacts a whole session, as Kimi Code does").
			WithFixes("Compact the whole session (compact_conversation without start or end), or use an agent of compaction.type kimi for a range.")
	}
	if s.Kimi != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "a kimi-cli session is compacted the kimi-cli way").
			WithFixes("Use an agent of compaction.type kimi for kimi-cli sessions.")
	}
	texts, _ := CurrentTexts()
	p := &Plan{texts: texts, minRecall: a.Compaction.Fidelity.MinRecall,
		instructions: joinInstructions(a.Compaction.Instructions, req.SessionInstructions, req.Instructions)}
	p.span = kompact.Span{Session: s, End: len(s.Messages)}
	var system []kompact.Message
	if len(s.Messages) > 0 && s.Messages[0].Role == kompact.RoleSystem {
		p.span.KeepSystem, system = true, s.Messages[:1]
	}
	p.context = FromKompact(s.Messages[len(system):], texts)
	if len(p.context) == 0 {
		p.noop = "the session has no messages to compact"
		return p, nil
	}
	p.request = append(append(append([]kompact.Message(nil), system...), ToKompact(sentForm(p.context))...),
		kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(texts.InstructionText(p.instructions))}})
	p.tokensBefore = EstimateMessages(p.context)
	if len(system) > 0 {
		p.tokensBefore += EstimateText(kompactText(&system[0]))
	}
	return p, nil
}

// joinInstructions joins the agent's, the session's and the run's instructions, one
// paragraph each, leaving out empty ones (as kimi does).
func joinInstructions(parts ...string) string {
	var out []string
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n\n")
}

// Outline returns m: a plan reads all of it.
func (Type) Outline(m *kompact.Message) kompact.Message { return *m }

// ContextStatus is Kimi Code's trigger: compaction is due at 85% of the window or with
// fewer than 50,000 tokens left, kimi-cli's formula and defaults, so the default type
// ("kimi", which every program that runs the service links) computes it, with the agent's
// compaction.auto thresholds. Without it the window counts as unknown: never due.
func (Type) ContextStatus(account kompact.TokenAccount, window int, auto kompact.AutoCompaction) kompact.ContextStatus {
	if t, err := kompact.LookupCompactionType(kompact.DefaultCompactionType); err == nil && t.Name() != Name {
		return t.ContextStatus(account, window, auto)
	}
	return kompact.ContextStatus{TokenCount: account.TokenCount, PendingTokens: account.PendingTokens, Reason: kompact.ReasonUnknownContextSize}
}

// WithSummary returns r with summary in place of the model's: the context is rebuilt
// around it. r is not modified.
func (Type) WithSummary(r *kompact.Result, summary string) *kompact.Result {
	texts, _ := CurrentTexts()
	p := &Plan{texts: texts, minRecall: r.MinRecall, span: *r.Span}
	p.span.Leading, p.span.Trailing = 0, 0
	base := r.Span.Session.Messages
	if p.span.KeepSystem {
		base = base[1:]
	}
	p.context = FromKompact(base, texts)
	out := p.result(summary, r.Usage)
	out.Prompt = r.Prompt
	return out
}

// Reply asks a's LLM for the next message: a's system prompt, then history.
func (Type) Reply(ctx context.Context, llm kompact.LLM, a *kompact.Agent, history []kompact.Message) (kompact.Message, *kompact.Usage, error) {
	if llm == nil {
		return kompact.Message{}, nil, kompact.Errorf(kompact.EInternal, "no LLM client configured")
	}
	msgs := make([]kompact.Message, 0, len(history)+1)
	if a.SystemPrompt != "" {
		msgs = append(msgs, kompact.Message{Role: kompact.RoleSystem, Content: []kompact.Part{kompact.TextPart(a.SystemPrompt)}})
	}
	answer, err := llm.Complete(ctx, kompact.ChatRequest(a), append(msgs, history...), nil)
	if err != nil {
		return kompact.Message{}, nil, err
	}
	reply := kompact.Message{Role: kompact.RoleAssistant}
	for _, p := range answer.Parts {
		if p.Type == kompact.PartText || p.Type == kompact.PartThink {
			reply.Content = append(reply.Content, p)
		}
	}
	if strings.TrimSpace(answerText(answer)) == "" {
		return kompact.Message{}, nil, kompact.Errorf(kompact.EEmptyResponse, "the agent's model returned no reply text").
			WithFixes("Send the message again; if it persists, check the agent's llm.model.")
	}
	return reply, answer.Usage, nil
}

// answerText is the text of an answer's text parts.
func answerText(a kompact.Answer) string { return kompactText(&kompact.Message{Content: a.Parts}) }

// Offers: Kimi Code compacts the whole session only (Plan refuses ranges and
// compact_up_to_here).
func (Type) Offers() kompact.Offers { return kompact.Offers{} }

// SummaryForm is Kimi Code's: the prefix of the type's texts (CurrentTexts), then a
// free-form summary (no XML sections) and its Context Recovery footer.
func (Type) SummaryForm() kompact.SummaryForm {
	texts, _ := CurrentTexts()
	return kompact.SummaryForm{Type: Name, Prefix: texts.Prefix(), Sections: []string{}}
}

// IsSummary reports whether m is a kimi-code summary: a user message whose first text
// part starts with the prefix of the type's texts, or of kompact's own wording (Builtin).
func (Type) IsSummary(m kompact.Message) bool {
	if m.Role != kompact.RoleUser || len(m.Content) == 0 || m.Content[0].Type != kompact.PartText {
		return false
	}
	text := m.Content[0].Text
	texts, _ := CurrentTexts()
	return hasPrefix(text, texts.Prefix()) || hasPrefix(text, builtinPrefix)
}

// builtinPrefix is the prefix of kompact's own wording.
var builtinPrefix = Builtin().Prefix()

func hasPrefix(s, prefix string) bool { return prefix != "" && strings.HasPrefix(s, prefix) }
