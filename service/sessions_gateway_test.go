package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/memstore"
	"kompact/internal/testing/testserver"
	"kompact/openai"
	"kompact/service"
)

// gatewayEnv is a Sessions over the store in memory with testserver's
// gateway agent "gw", whose compactions the scripted sessionsLLM answers.
type gatewayEnv struct {
	t     *testing.T
	store *memstore.Store
	llm   *sessionsLLM
	s     *service.Sessions
	a     *kompact.Agent
}

func newGatewayEnv(t *testing.T, g testserver.Gateway) *gatewayEnv {
	t.Helper()
	agents, err := config.Parse([]byte(testserver.GatewayAgents(unusedURL, g)), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := &gatewayEnv{t: t, store: memstore.New(0), llm: &sessionsLLM{summary: fullSummary()}}
	ids := 0
	e.s = service.NewSessions(service.SessionsConfig{Store: e.store, Compactor: &service.Compactor{LLM: e.llm}, Agents: agents,
		NewID: func() string { ids++; return fmt.Sprintf("gw_%d", ids) }})
	if e.a, err = e.s.GatewayAgent("gw"); err != nil {
		t.Fatal(err)
	}
	return e
}

// chat is a chat-completions request of the given role/content pairs,
// parsed as the gateway's face parses it.
func chat(t *testing.T, pairs ...string) *openai.ChatRequest {
	t.Helper()
	var msgs []map[string]string
	for i := 0; i+1 < len(pairs); i += 2 {
		msgs = append(msgs, map[string]string{"role": pairs[i], "content": pairs[i+1]})
	}
	body, err := json.Marshal(map[string]any{"model": "chat-model", "messages": msgs})
	if err != nil {
		t.Fatal(err)
	}
	req, err := openai.ParseChatRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func (e *gatewayEnv) turn(sessionID string, conv kompact.Conversation) *service.GatewayTurn {
	e.t.Helper()
	return e.s.GatewayTurn(context.Background(), e.a, sessionID, conv)
}

func (e *gatewayEnv) messages(id string) []kompact.Message {
	e.t.Helper()
	got, err := e.store.GetSession(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return got.Messages
}

// TestGatewayAgent: only an agent whose gateway is on takes gateway
// requests; another, or an unknown name, is not found, with a fix.
func TestGatewayAgent(t *testing.T) {
	agents, err := config.Parse([]byte(sessionsAgents), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := service.NewSessions(service.SessionsConfig{Store: memstore.New(0), Compactor: &service.Compactor{}, Agents: agents})
	for _, name := range []string{"auto", "nobody"} {
		if _, err := s.GatewayAgent(name); kompact.ErrorCodeOf(err) != kompact.ENotFound || len(kompact.ErrorFixes(err)) == 0 {
			t.Errorf("GatewayAgent(%q): %v, want not_found with a fix", name, err)
		}
	}
}

// TestGatewayTurnStoresTheConversation: a conversation's first request
// makes its session, holding the request's messages; the next request of
// the conversation (the same history and more) appends only what is new
// to the same session; a request under X-Kompact-Session whose history is
// not the session's is forwarded as sent and stored nowhere. Below the
// trigger, nothing is compacted and the request goes out unchanged.
func TestGatewayTurnStoresTheConversation(t *testing.T) {
	e := newGatewayEnv(t, testserver.Gateway{Auto: true})
	first := e.turn("", chat(t, "system", "be brief", "user", "hi"))
	if !first.Stored || first.SessionID == "" || first.Appended != 2 || first.Summary != nil || first.Compaction != nil {
		t.Fatalf("first turn: %+v", first)
	}
	next := e.turn("", chat(t, "system", "be brief", "user", "hi", "assistant", "hello", "user", "more"))
	if !next.Stored || next.SessionID != first.SessionID || next.Appended != 2 || next.Version <= first.Version {
		t.Fatalf("second turn: %+v (first %+v)", next, first)
	}
	if got := e.messages(first.SessionID); len(got) != 4 || got[3].Content[0].Text != "more" {
		t.Fatalf("the session holds %d messages: %+v", len(got), got)
	}
	again := e.turn(first.SessionID, chat(t, "system", "be brief", "user", "hi", "assistant", "hello", "user", "more"))
	if !again.Stored || again.SessionID != first.SessionID || again.Appended != 0 {
		t.Fatalf("the same request again: %+v", again)
	}
	edited := e.turn(first.SessionID, chat(t, "system", "be brief", "user", "hi", "assistant", "HELLO", "user", "more"))
	if edited.Stored || edited.NotStored != service.GatewayNotContinued || edited.Summary != nil {
		t.Fatalf("an edited history under its session's id: %+v", edited)
	}
	if got := e.messages(first.SessionID); len(got) != 4 {
		t.Fatalf("the diverged request changed the session: %d messages", len(got))
	}
	other := e.turn("", chat(t, "system", "be brief", "user", "another task"))
	if !other.Stored || other.SessionID == first.SessionID {
		t.Fatalf("another conversation: %+v", other)
	}
}

// TestGatewayTurnCompactsWhenDue: a request that takes the session past
// the agent's trigger (half of its 10000-token window) is compacted before
// it goes out: the session's history is replaced by the summary, and the
// request forwarded is its head, the summary and the messages kept after
// it. Without automatic compaction the same request goes out as sent.
func TestGatewayTurnCompactsWhenDue(t *testing.T) {
	long := func(c byte) string { return strings.Repeat(string(c), 8000) }
	conv := chat(t, "system", "be brief", "user", long('a'), "assistant", long('b'), "user", long('c'), "assistant", long('d'), "user", "next")
	for _, auto := range []bool{true, false} {
		e := newGatewayEnv(t, testserver.Gateway{Auto: auto})
		turn := e.turn("", conv)
		if !turn.Stored {
			t.Fatalf("auto %v: not stored: %+v", auto, turn)
		}
		if !auto {
			if turn.Compaction != nil || turn.Summary != nil || e.llm.compactions != 0 {
				t.Fatalf("without automatic compaction: %+v, %d compactions", turn, e.llm.compactions)
			}
			continue
		}
		if turn.Compaction == nil || turn.Compaction.Status != service.AutoCompacted || e.llm.compactions != 1 {
			t.Fatalf("due: %+v (report %+v), %d compactions", turn, turn.Compaction, e.llm.compactions)
		}
		if len(turn.Summary) == 0 || turn.From <= turn.Head || turn.From > conv.Len() {
			t.Fatalf("forwarded: head %d, summary %d messages, from %d of %d", turn.Head, len(turn.Summary), turn.From, conv.Len())
		}
		got := e.messages(turn.SessionID)
		if len(got) >= conv.Len() || !kompact.IsSummary(got[turn.Head]) {
			t.Fatalf("the session after its compaction: %d messages, the summary at %d: %+v", len(got), turn.Head, got[turn.Head])
		}
	}
}
