package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/memstore"
	"kompact/service"
)

// stuckLLM never answers: it waits until its context is done.
type stuckLLM struct{}

func (stuckLLM) Complete(ctx context.Context, _ kompact.RequestConfig, _ []kompact.Message, _ func(kompact.Progress)) (kompact.Answer, error) {
	<-ctx.Done()
	return kompact.Answer{}, &kompact.Error{Code: kompact.ELLM, Message: "cancelled", Err: ctx.Err()}
}

// TestSessionsContinueDeadline: a continue turn's reply obeys the agent's
// llm.timeout, every attempt together: past it the turn fails with an
// llm_error naming the setting, and no reply is appended.
func TestSessionsContinueDeadline(t *testing.T) {
	agents, err := config.Parse([]byte(`agents:
  quick:
    llm:
      base_url: http://127.0.0.1:1/v1
      model: chat-model
      timeout: 100ms
`), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	store := memstore.New(0)
	s := service.NewSessions(service.SessionsConfig{Store: store, Compactor: &service.Compactor{LLM: stuckLLM{}}, Agents: agents})
	ctx := context.Background()
	if _, err := store.CreateSession(ctx, &kompact.Session{ID: "s", Agent: "quick"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = s.Continue(ctx, "s", "hello")
	var ke *kompact.Error
	if !errors.As(err, &ke) || ke.Code != kompact.ELLM || !strings.Contains(ke.Message, "llm.timeout") || !strings.Contains(ke.Message, "100ms") {
		t.Fatalf("error %v, want an llm_error naming llm.timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the turn took %s", d)
	}
	got, err := store.GetSession(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 1 || got.Messages[0].Role != kompact.RoleUser {
		t.Errorf("messages after the failed turn: %+v", got.Messages)
	}
}
