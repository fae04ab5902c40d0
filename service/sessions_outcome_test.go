package service_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/testllm"
	"kompact/internal/testing/testmsg"
	"kompact/kimi"
	"kompact/service"
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
	e.s = service.NewSessions(service.SessionsConfig{
		Store: st, Compactor: &service.Compactor{LLM: e.llm}, Agents: agents,
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

	out := e.run("s", service.ActionOptions{})
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
	pv := e.run("p", service.ActionOptions{Preview: true})
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

// tokensOf returns session id's token account as stored.
func (e *sessionsEnv) tokensOf(id string) kompact.TokenAccount {
	e.t.Helper()
	st, err := e.store.GetSession(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return st.Tokens
}

// A preview keeps the result's estimated_token_count (KCP-D02: the commit
// records it as kimi-cli's compact_context does): applying it records what
// a direct commit of the same summary records, and so does an applied
// edit, which a direct commit of the edited result would record.
func TestSessionsPreviewKeepsTheEstimate(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.llm.usage = &kompact.Usage{InputOther: 5000, Output: 40}
	for _, id := range []string{"direct", "applied", "edited"} {
		e.create(id, "manual")
	}
	direct := e.run("direct", service.ActionOptions{})
	if direct.Status != kompact.OutcomeCompacted {
		t.Fatalf("direct: %s %+v", direct.Status, direct.Err)
	}
	want := e.tokensOf("direct")
	if want.TokenCount != direct.Result.EstimatedTokenCount || want.TokenCount == 0 {
		t.Fatalf("the direct commit recorded %+v, the result estimates %d", want, direct.Result.EstimatedTokenCount)
	}

	ctx := context.Background()
	pv := e.run("applied", service.ActionOptions{Preview: true})
	back, err := e.s.Preview(ctx, "applied", pv.PreviewID)
	if err != nil || back.Result.EstimatedTokenCount != direct.Result.EstimatedTokenCount {
		t.Fatalf("the kept preview estimates %d, the direct result %d (%v)", back.Result.EstimatedTokenCount, direct.Result.EstimatedTokenCount, err)
	}
	if _, err := e.s.ApplyPreview(ctx, "applied", pv.PreviewID, nil); err != nil {
		t.Fatal(err)
	}
	if got := e.tokensOf("applied"); got != want {
		t.Errorf("the applied preview recorded %+v, the direct commit %+v", got, want)
	}

	edit := "<current_focus>an edited summary, longer than the model's</current_focus>"
	pv = e.run("edited", service.ActionOptions{Preview: true})
	if _, err := e.s.ApplyPreview(ctx, "edited", pv.PreviewID, &edit); err != nil {
		t.Fatal(err)
	}
	wantEdited := kimi.WithSummary(direct.Result, edit).EstimatedTokenCount
	if got := e.tokensOf("edited"); got.TokenCount != wantEdited || got.PendingTokens != 0 {
		t.Errorf("the applied edit recorded %+v, a direct commit of it %d", got, wantEdited)
	}
}

// An edited summary is measured again whatever the session's form: a
// kimi-cli session's edit (straight, or of its kept preview) has the
// fidelity report a kompact session's edit of the same range has, and
// commits it.
func TestEditedSummaryMeasuredForKimiSessions(t *testing.T) {
	const edit = "summary.go, https://go.dev/doc, TestApply, cfg.go, data/only.json, keep the parity"
	edited := func(kimiForm bool) (before, after *kompact.Fidelity, decoded kompact.Commit) {
		sess := testmsg.ArtifactSession()
		if kimiForm {
			sess.Kimi = &kompact.KimiContext{SystemPrompt: true}
		}
		llm := &testllm.LLM{Answer: testllm.Reply("Edited summary.go")}
		out := (&service.Compactor{LLM: llm}).Execute(context.Background(), testllm.Agent(), sess,
			kompact.ActionRequest{Action: kompact.ActionCompactConversation, End: "t1"}, nil)
		if out.Status != kompact.OutcomeCompacted {
			t.Fatalf("kimi %v: %s %+v", kimiForm, out.Status, out.Err)
		}
		back := previewRoundTrip(t, out)
		e := kimi.WithSummary(out.Result, edit)
		return out.Result.Fidelity, e.Fidelity, kimi.WithSummary(back.Result, edit).Commit()
	}
	_, want, _ := edited(false)
	before, got, commit := edited(true)
	if got.Kept == before.Kept || got.Kept != want.Kept || got.Artifacts != want.Artifacts || got.Recall != want.Recall {
		t.Errorf("a kimi-cli session's edit kept %d of %d (before the edit %d); a kompact session's %d of %d",
			got.Kept, got.Artifacts, before.Kept, want.Kept, want.Artifacts)
	}
	if commit.Fidelity == nil || commit.Fidelity.Kept != want.Kept {
		t.Errorf("the edit of a kimi-cli session's preview commits the report %+v", commit.Fidelity)
	}
}
