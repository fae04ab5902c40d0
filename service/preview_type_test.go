package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/testserver"
	"kompact/kimicode"
	"kompact/service"
)

// answerLLM answers every request with the same text.
type answerLLM struct{ text string }

func (l answerLLM) Complete(context.Context, kompact.RequestConfig, []kompact.Message, func(kompact.Progress)) (kompact.Answer, error) {
	return kompact.Answer{Parts: []kompact.Part{kompact.TextPart(l.text)}}, nil
}

// typedAgents is agent "a" of compaction.type %s.
const typedAgents = `agents:
  a:
    llm:
      base_url: http://127.0.0.1:1/v1
      model: chat-model
    compaction:
      enabled: true
      type: %s
`

// sessionsOfType is a Sessions over store whose agent "a" compacts with type typ.
func sessionsOfType(t *testing.T, store kompact.Store, typ string) *service.Sessions {
	t.Helper()
	agents, err := config.Parse([]byte(fmt.Sprintf(typedAgents, typ)), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	return service.NewSessions(service.SessionsConfig{Store: store, Compactor: &service.Compactor{LLM: answerLLM{"the summary"}}, Agents: agents,
		NewID: func() string { n++; return fmt.Sprint(typ, n) }})
}

// TestPreviewAppliedUnderAnotherType (issue 39 §4): a preview records the type that
// made it; applied after a restart that changed the agent's compaction.type, with or
// without an edited summary, it is a conflict that writes nothing (the session keeps
// its version and messages), and the preview is used up.
func TestPreviewAppliedUnderAnotherType(t *testing.T) {
	kimicode.UseTexts(kimicode.Builtin())
	ctx := context.Background()
	store := testserver.SQLite(t)
	sess := &kompact.Session{ID: "s", Agent: "a"}
	for i, role := range []kompact.Role{kompact.RoleUser, kompact.RoleAssistant, kompact.RoleUser, kompact.RoleAssistant, kompact.RoleUser, kompact.RoleAssistant} {
		sess.Messages = append(sess.Messages, kompact.Message{ID: fmt.Sprintf("m%d", i+1), Role: role, Content: []kompact.Part{kompact.TextPart(strings.Repeat("word ", 50))}})
	}
	if _, err := store.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	for _, edited := range []*string{nil, new(string)} {
		if edited != nil {
			*edited = "an edited summary"
		}
		before := sessionsOfType(t, store, "kimi")
		st, a, err := before.Open(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		job, err := before.NewJob(context.Background(), st, a, kompact.ActionRequest{Action: kompact.ActionCompactConversation, End: "m4"})
		if err != nil {
			t.Fatal(err)
		}
		pv := job.Run(ctx, service.ActionOptions{Preview: true}, nil)
		if pv.Status != kompact.OutcomePreview || pv.Result.Type != "kimi" {
			t.Fatalf("preview: %s, type %q, %+v", pv.Status, pv.Result.Type, pv.Err)
		}
		after := sessionsOfType(t, store, "kimi-code") // the restart
		out, err := after.ApplyPreview(ctx, "s", pv.PreviewID, edited)
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != kompact.OutcomeError || out.Err.Code != kompact.EConflict || !strings.Contains(out.Err.Message, "made by the kimi compaction type, but agent a now compacts with kimi-code") {
			t.Errorf("apply under kimi-code: %s %+v", out.Status, out.Err)
		}
		now, err := store.GetSession(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		if now.Version != st.Version || string(now.Session.AppendJSON(nil)) != string(st.Session.AppendJSON(nil)) {
			t.Errorf("the session changed: version %d -> %d", st.Version, now.Version)
		}
		if _, err := after.Preview(ctx, "s", pv.PreviewID); kompact.ErrorCodeOf(err) != kompact.ENotFound {
			t.Errorf("the preview is still kept: %v", err)
		}
	}
}
