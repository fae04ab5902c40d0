package service_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kompact/internal/testing/testenv"
	"kompact/internal/testing/testserver"
	"kompact/service"
)

// claudeCodeContinuation is the first paragraph of Claude Code's
// continuation after its compaction, from ../shared/claude-code/README.md
// (the project holds only its digest).
func claudeCodeContinuation(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "shared", "claude-code", "README.md"))
	testenv.Require(t, err == nil, "../shared/claude-code/README.md is not there", "check out the shared folder beside the repository")
	s := string(b)
	i := strings.Index(s, "`This session is being continued")
	j := strings.Index(s[i:], `\n\n`)
	if i < 0 || j < 0 {
		t.Fatal("the README no longer quotes the continuation's opening")
	}
	return strings.Join(strings.Fields(s[i+1:i+j]), " ")
}

// TestGatewayContinuedFrom (issue 39 §2): after Claude Code compacted on
// its own side (its continuation opens the new history, no summary of
// the gateway's in it), the session the gateway starts beside names the
// one it continues (continued_from in the session list), found by Claude
// Code's session id (the key); a new history without the continuation,
// and the first session, name none.
func TestGatewayContinuedFrom(t *testing.T) {
	e := newGatewayEnv(t, testserver.Gateway{})
	ctx := context.Background()
	const sid = "c0ffee00-0000-4000-8000-000000000391"
	n, p := service.GatewayNaming{Key: "claude-code:gw:" + sid, NewID: sid}, service.GatewayPolicy{StoreOnly: true}
	first := e.s.GatewayTurnWith(ctx, e.a, n, p, chat(t, "user", "fix the test", "assistant", "done", "user", "more"))
	cont := claudeCodeContinuation(t) + "\n\nSummary:\nthe upstream's own summary"
	next := e.s.GatewayTurnWith(ctx, e.a, n, p, chat(t, "user", cont, "user", "go on"))
	other := e.s.GatewayTurnWith(ctx, e.a, n, p, chat(t, "user", "a new task"))
	if first.SessionID != sid || next.SessionID == sid || other.SessionID == sid || next.SessionID == other.SessionID {
		t.Fatalf("sessions %q %q %q", first.SessionID, next.SessionID, other.SessionID)
	}
	list, err := e.s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{first.SessionID: "", next.SessionID: sid, other.SessionID: ""}
	for _, l := range list {
		if w, ok := want[l.ID]; ok && l.ContinuedFrom != w {
			t.Errorf("session %s: continued_from %q, want %q", l.ID, l.ContinuedFrom, w)
		}
	}
}
