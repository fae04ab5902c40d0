package service_test

import (
	"context"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/memstore"
	"kompact/internal/testing/testllm"
	"kompact/kimi"
	"kompact/service"
)

// TestContinueAppendsNoBlankReply: continue (service.Sessions, which the
// HTTP API calls) appends no assistant message for a reply of blank text
// and thinking: the turn fails with the think-only error and the session
// ends with the user's message, as for any failed turn.
func TestContinueAppendsNoBlankReply(t *testing.T) {
	agents, err := config.Parse([]byte(sessionsAgents), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	store := memstore.New(0)
	llm := &testllm.LLM{Answer: func(int, []kompact.Message) (kompact.Answer, error) {
		return kompact.Answer{Parts: []kompact.Part{kompact.ThinkPart("hmm"), kompact.TextPart(" \n")}}, nil
	}}
	s := service.NewSessions(service.SessionsConfig{Store: store, Compactor: &service.Compactor{LLM: llm}, Agents: agents})
	if _, err := store.CreateSession(ctx, &kompact.Session{ID: "s", Agent: "manual", Messages: []kompact.Message{msg("user", "u1", "hi")}}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Continue(ctx, "s", "hello")
	if kompact.ErrorCodeOf(err) != kompact.EEmptyResponse || err.Error() != kimi.ThinkOnlyReplyMessage {
		t.Fatalf("Continue: %v, want %q", err, kimi.ThinkOnlyReplyMessage)
	}
	got, err := store.GetSession(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if m := got.Messages; len(m) != 2 || m[1].Role != kompact.RoleUser || m[1].Content[0].Text != "hello" {
		t.Fatalf("the session after the failed turn: %s", ids(m))
	}
}
