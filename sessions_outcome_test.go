package kompact_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"kompact"
)

// rereadFailing is a store whose reads of a session fail once a compaction
// has been committed to it: the read an action makes after its commit.
type rereadFailing struct {
	kompact.Store
	committed atomic.Bool
}

func (f *rereadFailing) CommitCompaction(ctx context.Context, id string, c kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	info, rev, err := f.Store.CommitCompaction(ctx, id, c)
	if err == nil {
		f.committed.Store(true)
	}
	return info, rev, err
}

func (f *rereadFailing) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	if f.committed.Load() {
		return nil, kompact.Errorf(kompact.EUnavailable, "the database is gone for a moment")
	}
	return f.Store.GetSession(ctx, id)
}

// withStore gives e's Sessions the store st in place of e.store.
func (e *sessionsEnv) withStore(st kompact.Store) {
	agents := mustAgents(e.t)
	e.s = kompact.NewSessions(kompact.SessionsConfig{
		Store: st, Compactor: &kompact.Compactor{LLM: e.llm}, Agents: agents,
		NewID: func() string { e.ids++; return fmt.Sprint("x", e.ids) },
	})
}

// A compaction whose commit succeeded is compacted, whatever the read of the
// session after it does: the read failing is no error outcome (which would
// say nothing changed, and a retry would compact twice), and an applied
// preview is not put back to be applied again.
func TestSessionsCommitStandsWhenTheReadAfterItFails(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "manual")
	e.create("p", "manual")
	f := &rereadFailing{Store: e.store}
	e.withStore(f)

	out := e.run("s", kompact.ActionOptions{})
	if out.Status != kompact.OutcomeCompacted || out.Result == nil || out.Err != nil {
		t.Fatalf("a committed compaction whose session could not be read again: %s %+v", out.Status, out.Err)
	}
	if kinds := e.revisions("s"); len(kinds) != 1 {
		t.Fatalf("revisions %v", kinds)
	}
	if got := out.Result.Session.Messages; len(got) != len(out.Result.Replacement())+out.Result.Preserved ||
		got[len(out.Result.Replacement())-1].Content[0].Text != out.Result.SummaryMessage.Content[0].Text {
		t.Errorf("the outcome's session is not the committed one: %d messages", len(got))
	}

	f.committed.Store(false)
	pv := e.run("p", kompact.ActionOptions{Preview: true})
	if pv.Status != kompact.OutcomePreview {
		t.Fatalf("preview: %s %+v", pv.Status, pv.Err)
	}
	ctx := context.Background()
	applied, err := e.s.ApplyPreview(ctx, "p", pv.PreviewID, nil)
	if err != nil || applied.Status != kompact.OutcomeCompacted {
		t.Fatalf("apply whose session could not be read again: %v, %s %+v", err, applied.Status, applied.Err)
	}
	f.committed.Store(false)
	if list, err := e.store.ListPreviews(ctx, "p", time.Now()); err != nil || len(list) != 0 {
		t.Errorf("the applied preview was put back: %v %v", list, err)
	}
	if _, err := e.s.ApplyPreview(ctx, "p", pv.PreviewID, nil); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("an applied preview applied again: %v", err)
	}
	if kinds := e.revisions("p"); len(kinds) != 1 {
		t.Errorf("revisions %v", kinds)
	}
}
