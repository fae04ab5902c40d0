package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/memstore"
	"kompact/service"
)

// listed returns Sessions.List as "id:open_previews:running" items.
func (e *sessionsEnv) listed() string {
	e.t.Helper()
	list, err := e.s.List(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, l := range list {
		out = append(out, fmt.Sprintf("%s:%d:%v", l.ID, l.OpenPreviews, l.Running))
	}
	return fmt.Sprint(out)
}

// A preview stays reachable until it is applied, discarded or expires:
// Previews lists it with the messages it replaces (the counts of the
// outcome), Preview answers it as the action did, List counts it, and a
// write to the session makes it stale.
func TestSessionsOpenPreviews(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "manual")
	e.create("t", "manual")
	ctx := context.Background()
	out := e.run("s", service.ActionOptions{Preview: true})
	if out.Status != kompact.OutcomePreview {
		t.Fatalf("preview: %s %+v", out.Status, out.Err)
	}
	list, err := e.s.Previews(ctx, "s")
	if err != nil || len(list) != 1 {
		t.Fatalf("Previews = %+v, %v", list, err)
	}
	p, c := list[0], out.Result.Counts()
	if p.ID != out.PreviewID || p.Version != 1 || p.Stale || p.Compacted != c.Replaced || p.First != c.Before+1 || p.Last != c.Before+c.Replaced || p.Compacted == 0 {
		t.Errorf("open preview %+v; the outcome's counts %+v", p, c)
	}
	if p.ExpiresAt.Sub(p.CreatedAt) != kompact.PreviewTTL {
		t.Errorf("created %v, expires %v: not %v apart", p.CreatedAt, p.ExpiresAt, kompact.PreviewTTL)
	}
	if got := e.listed(); got != "[s:1:false t:0:false]" && got != "[t:0:false s:1:false]" {
		t.Errorf("List = %s", got)
	}

	again, err := e.s.Preview(ctx, "s", out.PreviewID)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(out)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Errorf("Preview answers\n%s\nthe action answered\n%s", b, a)
	}
	if _, err := e.s.Preview(ctx, "t", out.PreviewID); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("a preview through another session: %v", err)
	}

	if _, err := e.s.Append(ctx, "s", []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("late")}}}, service.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
	if list, err := e.s.Previews(ctx, "s"); err != nil || len(list) != 1 || !list[0].Stale {
		t.Errorf("after an append, Previews = %+v, %v; want it stale", list, err)
	}
	if err := e.s.DiscardPreview(ctx, "s", out.PreviewID); err != nil {
		t.Fatal(err)
	}
	if list, err := e.s.Previews(ctx, "s"); err != nil || len(list) != 0 {
		t.Errorf("after a discard, Previews = %+v, %v", list, err)
	}
	if _, err := e.s.Previews(ctx, "nobody"); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("Previews of an unknown session: %v", err)
	}
}

// blockingLLM holds every request until release is closed, telling
// entered when one arrives.
type blockingLLM struct {
	sessionsLLM
	entered chan struct{}
	release chan struct{}
}

func (l *blockingLLM) Complete(ctx context.Context, cfg kompact.RequestConfig, msgs []kompact.Message, p func(kompact.Progress)) (kompact.Answer, error) {
	l.entered <- struct{}{}
	<-l.release
	return l.sessionsLLM.Complete(ctx, cfg, msgs, p)
}

// List and Running say which sessions this Sessions runs an action on,
// while it runs.
func TestSessionsRunningActions(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	llm := &blockingLLM{sessionsLLM: sessionsLLM{summary: fullSummary()}, entered: make(chan struct{}), release: make(chan struct{})}
	e.s = service.NewSessions(service.SessionsConfig{Store: e.store, Compactor: &service.Compactor{LLM: llm}, Agents: mustAgents(t), NewID: func() string { return "1" }})
	e.create("s", "manual")
	e.create("t", "manual")
	done := make(chan kompact.Outcome)
	go func() { done <- e.run("s", service.ActionOptions{}) }()
	<-llm.entered
	if !e.s.Running("s") || e.s.Running("t") {
		t.Errorf("while s compacts: Running(s) %v, Running(t) %v", e.s.Running("s"), e.s.Running("t"))
	}
	if got := e.listed(); got != "[s:0:true t:0:false]" && got != "[t:0:false s:0:true]" {
		t.Errorf("while s compacts, List = %s", got)
	}
	close(llm.release)
	if out := <-done; out.Status != kompact.OutcomeCompacted {
		t.Fatalf("compaction: %s %+v", out.Status, out.Err)
	}
	if e.s.Running("s") {
		t.Error("Running(s) after the action ended")
	}
}

// Running reports an automatic compaction too: here the one before a
// continue turn.
func TestSessionsRunningAutoCompaction(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	llm := &blockingLLM{sessionsLLM: sessionsLLM{summary: fullSummary()}, entered: make(chan struct{}), release: make(chan struct{})}
	e.s = service.NewSessions(service.SessionsConfig{Store: e.store, Compactor: &service.Compactor{LLM: llm}, Agents: mustAgents(t)})
	e.create("s", "auto")
	done := make(chan error)
	go func() {
		_, err := e.s.Continue(context.Background(), "s", strings.Repeat("x", 1000))
		done <- err
	}()
	<-llm.entered // the compaction before the turn
	if !e.s.Running("s") {
		t.Error("Running(s) is false while its automatic compaction runs")
	}
	close(llm.release)
	<-llm.entered // the turn
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if e.s.Running("s") {
		t.Error("Running(s) after the compaction ended")
	}
}

func mustAgents(t *testing.T) *config.Config {
	t.Helper()
	agents, err := config.Parse([]byte(sessionsAgents), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return agents
}

// A preview's body does not hold the messages its summary replaces
// (issue 38): applying reads them back from the session. After appends
// it applies, the appended messages after the summary; once the session
// was rewritten since (here: another compaction), it is a conflict that
// says so, the preview is gone and the session is as the rewrite left it.
func TestSessionsPreviewReadsBackWhatItReplaces(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	ctx := context.Background()
	e.create("s", "manual")
	pv := e.run("s", service.ActionOptions{Preview: true})
	if pv.Status != kompact.OutcomePreview {
		t.Fatalf("preview: %s %+v", pv.Status, pv.Err)
	}
	late := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("late")}}
	if _, err := e.s.Append(ctx, "s", []kompact.Message{late}, service.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
	applied, err := e.s.ApplyPreview(ctx, "s", pv.PreviewID, nil)
	if err != nil || applied.Status != kompact.OutcomeCompacted {
		t.Fatalf("apply after an append: %v, %+v", err, applied)
	}
	msgs := applied.Result.Session.Messages
	if last := msgs[len(msgs)-1]; last.Content[0].Text != "late" || len(msgs) != len(pv.Result.Session.Messages)+1 {
		t.Errorf("applied session of %d messages ends with %+v", len(msgs), last)
	}

	e.create("t", "manual")
	pv = e.run("t", service.ActionOptions{Preview: true})
	if out := e.run("t", service.ActionOptions{}); out.Status != kompact.OutcomeCompacted {
		t.Fatalf("compaction: %s %+v", out.Status, out.Err)
	}
	before, err := e.store.GetSession(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.s.ApplyPreview(ctx, "t", pv.PreviewID, nil)
	if err != nil || out.Status != kompact.OutcomeError || out.Err.Code != kompact.EConflict || !strings.Contains(out.Err.Message, "no longer applies: the session was rewritten") {
		t.Fatalf("apply after a rewrite: %v, %+v", err, out.Err)
	}
	after, err := e.store.GetSession(ctx, "t")
	if err != nil || after.Version != before.Version {
		t.Errorf("the session changed: version %d, then %d (%v)", before.Version, after.Version, err)
	}
	if _, err := e.s.ApplyPreview(ctx, "t", pv.PreviewID, nil); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("the conflicting preview is kept: %v", err)
	}
}

// bodyCounting counts the bytes of the preview bodies read from its store.
type bodyCounting struct {
	kompact.Store
	read int
}

func (s *bodyCounting) GetPreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	p, err := s.Store.GetPreview(ctx, sessionID, id, now)
	if p != nil {
		s.read += len(p.Body)
	}
	return p, err
}

func (s *bodyCounting) TakePreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	p, err := s.Store.TakePreview(ctx, sessionID, id, now)
	if p != nil {
		s.read += len(p.Body)
	}
	return p, err
}

// TestSessionsPreviewsReadNoBody (issue 41 §5): listing a session's open
// previews reads no preview's body (it read every one, which holds the
// summary and the session's messages, to count what it replaces): the
// counts are kept beside the body (Preview.Counts).
func TestSessionsPreviewsReadNoBody(t *testing.T) {
	st := &bodyCounting{Store: memstore.New(0)}
	e := newSessionsEnvOver(t, kompact.PreviewLimits{}, st)
	e.create("s", "manual")
	out := e.run("s", service.ActionOptions{Preview: true})
	if out.Status != kompact.OutcomePreview {
		t.Fatalf("preview: %s %+v", out.Status, out.Err)
	}
	st.read = 0
	list, err := e.s.Previews(context.Background(), "s")
	if err != nil || len(list) != 1 {
		t.Fatalf("Previews = %+v, %v", list, err)
	}
	if st.read != 0 {
		t.Errorf("Previews read %d bytes of preview bodies, want 0", st.read)
	}
	if c := out.Result.Counts(); list[0].Compacted != c.Replaced || list[0].First != c.First() || list[0].Last != c.Last() || c.Replaced == 0 {
		t.Errorf("open preview %+v; the outcome's counts %+v", list[0], c)
	}
}
