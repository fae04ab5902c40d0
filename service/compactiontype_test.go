package service_test

import (
	"context"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/memstore"
	"kompact/internal/testing/testllm"
	"kompact/service"
)

// headline is a compaction type of the tests' own, registered beside
// kimi's: it replaces every message but the last with one user message,
// "headline: " and the model's answer. That it compacts through the
// service with no change outside this file is what the seam promises: a
// type is a package plus one registration.
type headline struct{}

func init() { kompact.RegisterCompactionType(headline{}) }

func (headline) Name() string { return "headline" }

func (headline) Plan(a *kompact.Agent, s *kompact.Session, req kompact.ActionRequest, prompt kompact.Prompt) (kompact.CompactionPlan, error) {
	if len(s.Messages) < 2 {
		return &headlinePlan{info: kompact.PlanInfo{Noop: true, Reason: "nothing before the last message", Span: kompact.Span{Session: s}}}, nil
	}
	return &headlinePlan{info: kompact.PlanInfo{Span: kompact.Span{Session: s, End: len(s.Messages) - 1}, Prompt: prompt}}, nil
}

func (headline) Outline(m *kompact.Message) kompact.Message { return *m }

func (headline) ContextStatus(acct kompact.TokenAccount, window int, auto kompact.AutoCompaction) kompact.ContextStatus {
	return kompact.ContextStatus{TokenCount: acct.TokenCount, MaxContextSize: window, Reason: kompact.ReasonBelowThreshold}
}

func (headline) WithSummary(r *kompact.Result, summary string) *kompact.Result {
	out := *r
	out.Summary = summary
	return &out
}

func (headline) Reply(ctx context.Context, llm kompact.LLM, a *kompact.Agent, history []kompact.Message) (kompact.Message, *kompact.Usage, error) {
	answer, err := llm.Complete(ctx, kompact.ChatRequest(a), history, nil)
	return kompact.Message{Role: kompact.RoleAssistant, Content: answer.Parts}, answer.Usage, err
}

func (headline) Offers() kompact.Offers { return kompact.Offers{} }

func (headline) SummaryForm() kompact.SummaryForm {
	return kompact.SummaryForm{Type: "headline", Prefix: "headline: ", Sections: []string{}}
}

func (headline) IsSummary(m kompact.Message) bool {
	return m.Role == kompact.RoleUser && len(m.Content) > 0 && strings.HasPrefix(m.Content[0].Text, "headline: ")
}

type headlinePlan struct{ info kompact.PlanInfo }

func (p *headlinePlan) About() kompact.PlanInfo { return p.info }

func (p *headlinePlan) Counts() kompact.PlanCounts {
	if p.info.Noop {
		return kompact.PlanCounts{After: len(p.info.Span.Session.Messages)}
	}
	return p.info.Span.Counts()
}

func (p *headlinePlan) RequestMessages() []kompact.Message {
	return []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("headline of " + kompact.CountOf(p.info.Span.End, "message"))}}}
}

func (p *headlinePlan) LimitCompletion(a *kompact.Agent, fields map[string]any, window int) (map[string]any, int) {
	return fields, 0
}

func (p *headlinePlan) Shrink() kompact.CompactionPlan { return nil }

func (p *headlinePlan) TokensBefore() int {
	return kompact.EstimateTokens(p.info.Span.Session.Messages)
}

func (p *headlinePlan) Apply(a kompact.Answer) (*kompact.Result, error) {
	text := ""
	for _, part := range a.Parts {
		text += part.Text
	}
	sp := p.info.Span
	summary := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("headline: " + text)}}
	sess := *sp.Session
	sess.Messages = append([]kompact.Message{summary}, sp.Session.Messages[sp.End:]...)
	return &kompact.Result{Session: &sess, SummaryMessage: summary, Summary: text, KimiMessages: sess.Messages,
		Compacted: sp.End, Preserved: len(sess.Messages) - 1, TokensBefore: p.TokensBefore(),
		TokensAfter: kompact.EstimateTokens(sess.Messages), Span: &sp}, nil
}

// TestCompactionTypeSeam: the service runs a registered type of its own
// through the seam: its plan's request goes to the LLM, its Apply's
// messages are what the store keeps, and the revision counts what it
// replaced. An agent of an unknown type has no compaction, and the error
// names the registered types.
func TestCompactionTypeSeam(t *testing.T) {
	agents, err := config.Parse([]byte("default_agent: h\nagents:\n  h:\n    llm: {base_url: http://127.0.0.1:1/v1, model: m}\n    compaction: {enabled: true, type: headline}\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if w := agents.Warnings; len(w) != 0 {
		t.Fatalf("a registered type warns: %q", w)
	}
	llm := &testllm.LLM{Answer: testllm.Reply("the tests pass")}
	store := memstore.New(0)
	s := service.NewSessions(service.SessionsConfig{Store: store, Compactor: &service.Compactor{LLM: llm}, Agents: agents})
	ctx := context.Background()
	sess := &kompact.Session{ID: "s", Messages: []kompact.Message{
		{ID: "u1", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("fix the tests")}},
		{ID: "a1", Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("fixed")}},
		{ID: "u2", Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("thanks")}},
	}}
	if _, err := s.Create(ctx, sess); err != nil {
		t.Fatal(err)
	}
	st, a, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	job, err := s.NewJob(context.Background(), st, a, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		t.Fatal(err)
	}
	out := job.Run(ctx, service.ActionOptions{}, nil)
	if out.Status != kompact.OutcomeCompacted {
		t.Fatalf("outcome %s %+v", out.Status, out.Err)
	}
	if len(llm.Requests) != 1 || textOf(llm.Requests[0]) != "headline of 2 messages" {
		t.Errorf("the LLM was asked %v", llm.Requests)
	}
	after, _, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range after.Messages {
		got = append(got, textOf([]kompact.Message{m}))
	}
	if strings.Join(got, "|") != "headline: the tests pass|thanks" {
		t.Errorf("stored messages %q", got)
	}
	revs, err := s.Revisions(ctx, "s")
	if err != nil || len(revs) == 0 || revs[len(revs)-1].Note != "compacted 2 messages" {
		t.Errorf("revisions %+v, %v", revs, err)
	}

	a.Compaction.Type = "nope"
	if a.CompactionEnabled() {
		t.Error("an unregistered type enables the actions")
	}
	if _, err := s.NewJob(context.Background(), st, a, kompact.ActionRequest{Action: kompact.ActionCompactConversation}); kompact.ErrorCodeOf(err) != kompact.EDisabled {
		t.Errorf("a job of an unregistered type: %v", err)
	}
	_, err = kompact.LookupCompactionType("nope")
	if kompact.ErrorCodeOf(err) != kompact.EDisabled || !strings.Contains(err.Error(), "the registered types are headline, kimi") {
		t.Errorf("unknown type: %v", err)
	}
}

// TestCompactionTypeRegisteredTwice: a second type of one name panics at
// registration, before anything could use the wrong one.
func TestCompactionTypeRegisteredTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second \"headline\" was registered")
		}
	}()
	kompact.RegisterCompactionType(headline{})
}

// TestConfigWarnsOfAnUnregisteredType: the configuration names the
// registered types when an agent's type is not one of them.
func TestConfigWarnsOfAnUnregisteredType(t *testing.T) {
	agents, err := config.Parse([]byte("agents:\n  h:\n    llm: {base_url: http://127.0.0.1:1/v1, model: m}\n    compaction: {enabled: true, type: nope}\n"), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(agents.Warnings, "\n"); !strings.Contains(w, `type is "nope", not "headline" or "kimi"`) {
		t.Errorf("warnings %q", w)
	}
}

// textOf joins the text of msgs.
func textOf(msgs []kompact.Message) string {
	var b strings.Builder
	for i := range msgs {
		msgs[i].Texts(func(s string) { b.WriteString(s) })
	}
	return b.String()
}
