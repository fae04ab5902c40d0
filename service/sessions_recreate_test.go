package service_test

import (
	"context"
	"strings"
	"testing"

	"kompact"
	"kompact/service"
)

// A compaction that read a session neither commits into nor keeps a
// preview for the session created again under its id while it ran (issue
// 28 §1: the stream ended "compacted", 16 messages became 4). The new
// session starts its versions and ids again; its generation tells it
// apart. The outcome is a conflict, and the new session is unchanged.
func TestSessionsCompactionOfARecreatedSession(t *testing.T) {
	for _, opts := range []service.ActionOptions{{}, {Preview: true}} {
		e := newSessionsEnv(t, kompact.PreviewLimits{})
		e.create("s", "manual")
		ctx := context.Background()
		st, a, err := e.s.Open(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		job, err := e.s.NewJob(context.Background(), st, a, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.store.DeleteSession(ctx, "s"); err != nil {
			t.Fatal(err)
		}
		changed := st.Session
		changed.Messages = append([]kompact.Message(nil), st.Messages...)
		changed.Messages[1] = kompact.Message{ID: changed.Messages[1].ID, Role: kompact.RoleAssistant,
			Content: []kompact.Part{kompact.TextPart(strings.Repeat("z", 4800))}}
		if _, err := e.store.CreateSession(ctx, &changed); err != nil {
			t.Fatal(err)
		}
		before, err := e.store.GetSession(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}

		out := job.Run(ctx, opts, nil)
		if out.Status != kompact.OutcomeError || out.Err == nil || out.Err.Code != kompact.EConflict {
			t.Fatalf("preview %v: the compaction of the session before ended %s (%v), want a conflict", opts.Preview, out.Status, out.Err)
		}
		after, err := e.store.GetSession(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		if after.Version != before.Version || string(after.AppendJSON(nil)) != string(before.AppendJSON(nil)) {
			t.Errorf("preview %v: the session created again changed: version %d -> %d", opts.Preview, before.Version, after.Version)
		}
		if kinds := e.revisions("s"); len(kinds) != 0 {
			t.Errorf("preview %v: revisions recorded: %v", opts.Preview, kinds)
		}
		if list, err := e.s.Previews(ctx, "s"); err != nil || len(list) != 0 {
			t.Errorf("preview %v: previews %+v, %v", opts.Preview, list, err)
		}
	}
}

// TestGatewayUsageOfARecreatedSession: an upstream's usage report for a
// turn records the session's token count only in the session the turn
// stored into, checked in the one write that records it. A session
// deleted and created again under the id (same version, another session)
// or written since keeps its count.
func TestGatewayUsageOfARecreatedSession(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "manual")
	ctx := context.Background()
	head, err := e.store.GetSessionHead(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	turn := &service.GatewayTurn{SessionID: "s", Stored: true, Version: head.Version, Generation: head.Generation}
	if err := e.store.DeleteSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	e.create("s", "manual")
	again, err := e.store.GetSessionHead(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	e.s.GatewayUsage(ctx, turn, &kompact.Usage{InputOther: 4321})
	if now, _ := e.store.GetSessionHead(ctx, "s"); now.Tokens != again.Tokens {
		t.Fatalf("the usage of a turn of the deleted session was recorded in the new one: %+v (was %+v)", now.Tokens, again.Tokens)
	}

	turn.Version, turn.Generation = again.Version, again.Generation
	e.s.GatewayUsage(ctx, turn, &kompact.Usage{InputOther: 4321})
	if now, _ := e.store.GetSessionHead(ctx, "s"); now.Tokens.TokenCount != 4321 {
		t.Fatalf("the usage of the session's own turn: %+v, want a count of 4321", now.Tokens)
	}
}
