package service_test

import (
	"context"
	"slices"
	"testing"

	"kompact/internal/testing/testserver"
	"kompact/openai"
)

// markedChat is a chat-completions request that tells its context
// (service.ContextMarker) as the Responses face's requests do: the
// messages at ctx.
type markedChat struct {
	*openai.ChatRequest
	ctx []int
}

func (m markedChat) Context(i int) bool { return slices.Contains(m.ctx, i) }

// TestGatewayPinsAppendedContext (issue 42 §2): the context messages a
// later request appends to a session are pinned with the append, after
// the ones the session was made with, for a conversation that tells its
// context; a conversation that does not (the chat face's, whatever its
// texts) gets no pins, then or later.
func TestGatewayPinsAppendedContext(t *testing.T) {
	e := newGatewayEnv(t, testserver.Gateway{})
	pinned := func(id string) []string {
		t.Helper()
		s, err := e.store.GetSession(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return s.Pinned
	}
	first := []string{"system", "base instructions", "user", "<environment_context>/a</environment_context>", "user", "hi"}
	later := append(slices.Clone(first), "assistant", "hello", "user", "<environment_context>/b</environment_context>", "user", "more")

	plain := e.turn("", chat(t, first...))
	if next := e.turn("", chat(t, later...)); !next.Stored || next.SessionID != plain.SessionID || next.Appended != 3 {
		t.Fatalf("the chat face's second turn: %+v (first %+v)", next, plain)
	}
	if p := pinned(plain.SessionID); p != nil {
		t.Errorf("a conversation that tells no context got pins %q", p)
	}

	e = newGatewayEnv(t, testserver.Gateway{})
	made := e.turn("", markedChat{chat(t, first...), []int{0, 1}})
	ids := func() []string {
		var out []string
		for _, m := range e.messages(made.SessionID) {
			out = append(out, m.ID)
		}
		return out
	}
	if got := pinned(made.SessionID); !slices.Equal(got, ids()[:2]) {
		t.Fatalf("the new session pins %q, want its first two messages %q", got, ids()[:2])
	}
	next := e.turn("", markedChat{chat(t, later...), []int{0, 1, 4}})
	if !next.Stored || next.SessionID != made.SessionID || next.Appended != 3 {
		t.Fatalf("the second turn: %+v (first %+v)", next, made)
	}
	all := ids()
	if got, want := pinned(made.SessionID), []string{all[0], all[1], all[4]}; !slices.Equal(got, want) {
		t.Errorf("after the second turn the session pins %q, want %q (the later <environment_context> added)", got, want)
	}
}
