package service_test

import (
	"context"
	"testing"

	"kompact"
	"kompact/internal/testing/testserver"
	"kompact/service"
)

// TestGatewaySideCallHook (issue 39 §2): GatewayNaming.SideCall, the hook
// a face sets for a client's one-shot side call. The session such a
// request makes is marked (left out of List, listed by ListWith with side
// calls) and never takes NewID; a request the face calls a side call but
// whose history holds an answer, or that names its session
// (X-Kompact-Session), is a conversation; a conversation whose first
// messages are a side call's does not join it; a request that continues
// a side call clears its mark.
func TestGatewaySideCallHook(t *testing.T) {
	e := newGatewayEnv(t, testserver.Gateway{})
	ctx := context.Background()
	turn := func(n service.GatewayNaming, conv kompact.Conversation) string {
		t.Helper()
		tr := e.s.GatewayTurnWith(ctx, e.a, n, service.GatewayPolicy{}, conv)
		if !tr.Stored {
			t.Fatalf("not stored: %s", tr.Skipped)
		}
		return tr.SessionID
	}
	side := service.GatewayNaming{Key: "client:1", NewID: "client-1", SideCall: true}
	title := turn(side, chat(t, "system", "Name it.", "user", "fix the test"))
	answered := turn(service.GatewayNaming{Key: "client:2", NewID: "client-2", SideCall: true}, chat(t, "user", "a", "assistant", "b", "user", "c"))
	if answered != "client-2" {
		t.Errorf("a side call's shape with an answer went to %q, want client-2, its NewID", answered)
	}
	named := turn(service.GatewayNaming{SessionID: "named", SideCall: true}, chat(t, "user", "fix the test"))
	conv := turn(service.GatewayNaming{Key: "client:1", NewID: "client-1"}, chat(t, "system", "Name it.", "user", "fix the test"))
	if title == "client-1" || conv != "client-1" || conv == title {
		t.Errorf("the side call went to %q and the conversation of the same messages to %q: want the conversation in client-1, apart", title, conv)
	}
	marks := func(f kompact.SessionFilter) map[string]bool {
		t.Helper()
		list, err := e.s.ListWith(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, l := range list {
			out[l.ID] = l.SideCall
		}
		return out
	}
	def := marks(kompact.SessionFilter{})
	if _, listed := def[title]; listed || len(def) != 3 || !containsAll(def, answered, named, conv) {
		t.Errorf("List: %v, want %s, %s and %s, not the side call %s", def, answered, named, conv, title)
	}
	if all := marks(kompact.SessionFilter{SideCalls: true}); !all[title] || len(all) != 4 || all[conv] || all[named] || all[answered] {
		t.Errorf("ListWith side calls: %v, want the four, only %s marked", all, title)
	}
	if got := turn(side, chat(t, "system", "Name it.", "user", "fix the test", "assistant", "Test fix", "user", "more")); got != title {
		t.Fatalf("the side call's continuation went to %q, want %q", got, title)
	}
	if def := marks(kompact.SessionFilter{}); len(def) != 4 || def[title] {
		t.Errorf("List after the side call was continued: %v, want it listed, unmarked", def)
	}
}

// containsAll reports whether m has every key of ids.
func containsAll(m map[string]bool, ids ...string) bool {
	for _, id := range ids {
		if _, ok := m[id]; !ok {
			return false
		}
	}
	return true
}
