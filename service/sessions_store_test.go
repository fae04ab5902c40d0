package service_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"kompact"
	"kompact/service"
)

// The one-step workflows of Sessions (sessions_store.go) over a real
// store: create and import check the agent (the default for "") and the
// session first, the streamed reads give the stored bodies, the revision
// list and a revision's stream what a compaction recorded, delete removes
// the session.
func TestSessionsStoreWorkflows(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	ctx := context.Background()

	if _, err := e.s.Create(ctx, &kompact.Session{ID: "x", Agent: "nobody"}); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Fatalf("create with an unknown agent: %v", err)
	}
	bad := &kompact.Session{ID: "x", Messages: []kompact.Message{{ID: "m", Role: "robot"}}}
	if _, err := e.s.Create(ctx, bad); kompact.ErrorCodeOf(err) != kompact.EInvalid || bad.Agent != "auto" {
		t.Fatalf("create with a bad role: %v (agent %q)", err, bad.Agent)
	}
	if _, err := e.store.GetSessionHead(ctx, "x"); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Fatalf("a refused session was stored: %v", err)
	}

	sess := &kompact.Session{ID: "c", Messages: []kompact.Message{
		{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("hello")}},
		{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("hi")}},
	}}
	info, err := e.s.Create(ctx, sess)
	if err != nil || info.ID != "c" || info.Version != 1 || info.Messages != 2 || sess.Agent != "auto" {
		t.Fatalf("create: %v, %+v, agent %q", err, info, sess.Agent)
	}
	head, bodies := streamOf(t, e.s, "c")
	if head.Agent != "auto" || len(bodies) != 2 || !strings.Contains(bodies[0], `"hello"`) || !strings.Contains(bodies[1], `"hi"`) {
		t.Errorf("streamed: agent %q, bodies %q", head.Agent, bodies)
	}

	batches := [][]kompact.Message{
		{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("one")}}},
		{{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("two")}}, {Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("three")}}},
	}
	next := func() ([]kompact.Message, error) {
		if len(batches) == 0 {
			return nil, nil
		}
		b := batches[0]
		batches = batches[1:]
		return b, nil
	}
	if _, err := e.s.Import(ctx, &kompact.Session{ID: "i", Agent: "nobody"}, next); kompact.ErrorCodeOf(err) != kompact.EInvalid || len(batches) != 2 {
		t.Fatalf("import with an unknown agent: %v, %d batches left", err, len(batches))
	}
	imp := &kompact.Session{ID: "i", Agent: "manual"}
	info, err = e.s.Import(ctx, imp, next)
	if err != nil || info.ID != "i" || info.Messages != 3 || imp.Agent != "manual" {
		t.Fatalf("import: %v, %+v", err, info)
	}
	if _, bodies := streamOf(t, e.s, "i"); len(bodies) != 3 || !strings.Contains(bodies[2], `"three"`) {
		t.Errorf("imported bodies %q", bodies)
	}

	e.create("s", "manual")
	if out := e.run("s", service.ActionOptions{}); out.Status != kompact.OutcomeCompacted {
		t.Fatalf("compaction: %s %+v", out.Status, out.Err)
	}
	list, err := e.s.Revisions(ctx, "s")
	if err != nil || len(list) != 1 || list[0].Rev != 1 || list[0].Kind != kompact.RevisionCompaction {
		t.Fatalf("revisions: %v, %+v", err, list)
	}
	var rev *kompact.RevisionInfo
	var before []string
	err = e.s.StreamRevision(ctx, "s", 1, func(r *kompact.RevisionInfo) error { rev = r; return nil },
		func(b []byte) error { before = append(before, string(b)); return nil })
	if err != nil || rev.Rev != 1 || len(before) != 4 || !strings.Contains(before[3], strings.Repeat("d", 4800)) {
		t.Fatalf("streamed revision: %v, %+v, %d messages", err, rev, len(before))
	}

	if err := e.s.Delete(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	err = e.s.Stream(ctx, "s", func(*kompact.StoredSession) error { return nil }, func([]byte) error { return nil })
	if kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("a deleted session streamed: %v", err)
	}
	if err := e.s.Delete(ctx, "s"); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("deleted twice: %v", err)
	}
	stop := errors.New("stop")
	if err := e.s.Stream(ctx, "c", func(*kompact.StoredSession) error { return stop }, nil); !errors.Is(err, stop) {
		t.Errorf("the head's error: %v", err)
	}
}

// streamOf streams session id through s: its head and its message bodies.
func streamOf(t *testing.T, s *service.Sessions, id string) (*kompact.StoredSession, []string) {
	t.Helper()
	var head *kompact.StoredSession
	var bodies []string
	err := s.Stream(context.Background(), id, func(h *kompact.StoredSession) error { head = h; return nil },
		func(b []byte) error { bodies = append(bodies, string(b)); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return head, bodies
}
