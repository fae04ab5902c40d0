package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/toolprune"
)

// toolSession stores session id (agent "manual") of a user message and n
// tool exchanges, each result of size characters.
func (e *sessionsEnv) toolSession(id string, n, size int) {
	e.t.Helper()
	msgs := []kompact.Message{msg(kompact.RoleUser, "u", "fix the build")}
	for i := range n {
		args := `{"command":"go test ./..."}`
		call := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			kompact.Message{ID: fmt.Sprintf("a%d", i), Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("running")},
				ToolCalls: []kompact.ToolCall{{ID: call, Name: "run", Arguments: &args}}},
			kompact.Message{ID: fmt.Sprintf("t%d", i), Role: kompact.RoleTool, ToolCallID: call, HasToolCallID: true,
				Content: []kompact.Part{kompact.TextPart(strings.Repeat("log line\n", size/9))}})
	}
	if _, err := e.store.CreateSession(context.Background(), &kompact.Session{ID: id, Agent: "manual", Messages: msgs}); err != nil {
		e.t.Fatal(err)
	}
}

// TestSessionsPrune: prune_tool_results clears the old, long tool results
// (all but the last KeepRecent exchanges), commits a prune revision that
// Undo takes back, and makes no LLM call; with nothing to clear it is a
// no-op that writes nothing; settings out of bounds are an error outcome
// that reads nothing; an unknown session is the error.
func TestSessionsPrune(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	ctx := context.Background()
	e.toolSession("s", 4, 5000)
	keep, minChars := 1, 2000
	out, err := e.s.Prune(ctx, "s", kompact.PruneOptions{KeepRecent: &keep, MinChars: &minChars})
	if err != nil || out.Status != toolprune.StatusPruned || out.Revision == 0 || out.Prune == nil {
		t.Fatalf("prune: %+v, %v", out, err)
	}
	got, err := e.store.GetSession(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range got.Messages {
		if m.Role != kompact.RoleTool {
			continue
		}
		pruned := len(m.Content[0].Text) < 2000
		if want := m.ID != "t3"; pruned != want {
			t.Errorf("message %d (%s): pruned %v, want %v", i, m.ID, pruned, want)
		}
	}
	if kinds := e.revisions("s"); len(kinds) != 1 || kinds[0] != "prune" {
		t.Errorf("revisions after a prune: %v", kinds)
	}
	if e.llm.compactions != 0 {
		t.Errorf("a prune called the LLM %d times", e.llm.compactions)
	}

	again, err := e.s.Prune(ctx, "s", kompact.PruneOptions{KeepRecent: &keep, MinChars: &minChars})
	if err != nil || again.Status != toolprune.StatusNoop || again.Reason == "" {
		t.Fatalf("a second prune: %+v, %v", again, err)
	}
	after, err := e.store.GetSession(ctx, "s")
	if err != nil || after.Version != got.Version {
		t.Fatalf("a no-op prune wrote: version %d, was %d (%v)", after.Version, got.Version, err)
	}

	if _, err := e.s.Undo(ctx, "s", out.Revision); err != nil {
		t.Fatalf("undo the prune: %v", err)
	}
	undone, err := e.store.GetSession(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(undone.Messages[2].Content[0].Text); n < 2000 {
		t.Errorf("after undo, t0 holds %d characters", n)
	}

	zero := -1
	bad, err := e.s.Prune(ctx, "s", kompact.PruneOptions{KeepRecent: &zero})
	if err != nil || bad.Status != toolprune.StatusError || bad.Error == nil || kompact.ErrorCodeOf(bad.Error) != kompact.EInvalid {
		t.Fatalf("keep_recent -1: %+v, %v", bad, err)
	}
	if _, err := e.s.Prune(ctx, "nobody", kompact.PruneOptions{}); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Fatalf("an unknown session: %v", err)
	}
}
