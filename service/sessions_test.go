package service_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"kompact"
	"kompact/config"
	"kompact/internal/testing/memstore"
	"kompact/internal/testing/testserver"
	"kompact/service"
)

// The tests of service.Sessions run it over the store in memory
// (internal/testing/memstore, which passes the stores' conformance suite); the
// tests that measure what the store reads run it over SQLite, and the HTTP
// API's tests (httpapi) run every workflow through it over SQLite as well.

// sessionsAgents: "auto" has a 10000-token context and compacts by itself at
// half of it (or with less than 1000 left); "manual" never does
// (testserver.AutoAgents, with an LLM URL that is never called).
var sessionsAgents = fmt.Sprintf(testserver.AutoAgents, unusedURL, unusedURL)

const unusedURL = "http://127.0.0.1:1/v1"

// sessionsLLM answers compaction requests with summary and chat requests
// with "reply", reporting 300 + 7 tokens; it counts the compactions.
type sessionsLLM struct {
	mu          sync.Mutex
	summary     string
	compactions int
	// usage, when set, is the compactions' usage.
	usage *kompact.Usage
}

func (l *sessionsLLM) Complete(_ context.Context, cfg kompact.RequestConfig, _ []kompact.Message, _ func(kompact.Progress)) (kompact.Answer, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if cfg.Model == "compact-model" {
		l.compactions++
		return kompact.Answer{Parts: []kompact.Part{kompact.TextPart(l.summary)}, Usage: l.usage}, nil
	}
	return kompact.Answer{Parts: []kompact.Part{kompact.TextPart("reply")}, Usage: &kompact.Usage{InputOther: 300, Output: 7}}, nil
}

// fullSummary has every section a summary should have.
func fullSummary() string {
	var b strings.Builder
	for _, name := range kompact.SectionNames {
		fmt.Fprintf(&b, "<%s>x</%s>\n", name, name)
	}
	return b.String()
}

type sessionsEnv struct {
	t     *testing.T
	store kompact.Store
	llm   *sessionsLLM
	s     *service.Sessions
	ids   int
	// warned are the Warn lines: the message and its attributes.
	warnMu sync.Mutex
	warned []string
}

func newSessionsEnv(t *testing.T, previews kompact.PreviewLimits) *sessionsEnv {
	t.Helper()
	return newSessionsEnvOver(t, previews, memstore.New(0))
}

// newSQLiteSessionsEnv is newSessionsEnv over a SQLite store, for the tests
// that hold what a real store reads.
func newSQLiteSessionsEnv(t *testing.T, previews kompact.PreviewLimits) *sessionsEnv {
	t.Helper()
	return newSessionsEnvOver(t, previews, testserver.SQLite(t))
}

func newSessionsEnvOver(t *testing.T, previews kompact.PreviewLimits, store kompact.Store) *sessionsEnv {
	t.Helper()
	agents, err := config.Parse([]byte(sessionsAgents), "agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := &sessionsEnv{t: t, store: store, llm: &sessionsLLM{summary: fullSummary()}}
	e.s = service.NewSessions(service.SessionsConfig{
		Store: e.store, Compactor: &service.Compactor{LLM: e.llm}, Agents: agents, Previews: previews,
		NewID: func() string { e.ids++; return fmt.Sprint(e.ids) },
		Warn: func(_ context.Context, msg string, args ...any) {
			e.warnMu.Lock()
			defer e.warnMu.Unlock()
			e.warned = append(e.warned, strings.TrimSpace(fmt.Sprintln(append([]any{msg}, args...)...)))
		},
	})
	return e
}

// create stores session id of agent with four messages of 4800 tokens
// together by kimi-cli's estimate: below the "auto" agent's 5000-token
// trigger, which a 1000-character message then crosses.
func (e *sessionsEnv) create(id, agent string) {
	e.t.Helper()
	sess := &kompact.Session{ID: id, Agent: agent}
	for i, role := range []kompact.Role{kompact.RoleUser, kompact.RoleAssistant, kompact.RoleUser, kompact.RoleAssistant} {
		sess.Messages = append(sess.Messages, kompact.Message{ID: fmt.Sprintf("m%d", i+1), Role: role,
			Content: []kompact.Part{kompact.TextPart(strings.Repeat(string(rune('a'+i)), 4800))}})
	}
	if _, err := e.store.CreateSession(context.Background(), sess); err != nil {
		e.t.Fatal(err)
	}
}

// run runs compact_conversation on session id with opts.
func (e *sessionsEnv) run(id string, opts service.ActionOptions) kompact.Outcome {
	e.t.Helper()
	ctx := context.Background()
	st, a, err := e.s.Open(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	job, err := e.s.NewJob(context.Background(), st, a, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		e.t.Fatal(err)
	}
	return job.Run(ctx, opts, nil)
}

func (e *sessionsEnv) revisions(id string) []string {
	e.t.Helper()
	list, err := e.store.ListRevisions(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	var kinds []string
	for _, r := range list {
		kinds = append(kinds, r.Kind)
	}
	return kinds
}

// A result with warnings is committed with them (KCP-008: kimi-cli keeps a
// non-empty summary without its sections), unless the options hold on
// warnings: then it is kept as a preview, which applies once, at the
// version its compaction read.
func TestSessionsWarningsMakeAPreview(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "manual")
	e.llm.summary = "no sections at all"

	out := e.run("s", service.ActionOptions{HoldOnWarnings: true})
	if out.Status != kompact.OutcomePreview || out.PreviewID != "pv_1" || len(out.Warnings()) == 0 {
		t.Fatalf("a result with warnings: %s, preview %q, warnings %v", out.Status, out.PreviewID, out.Warnings())
	}
	if kinds := e.revisions("s"); len(kinds) != 0 {
		t.Fatalf("a preview committed: %v", kinds)
	}
	ctx := context.Background()
	edited := "<current_focus>edited</current_focus>"
	applied, err := e.s.ApplyPreview(ctx, "s", out.PreviewID, &edited)
	if err != nil || applied.Status != kompact.OutcomeCompacted {
		t.Fatalf("apply: %v, %+v", err, applied)
	}
	if got := applied.Result.Session.Messages[0].Content[0].Text; !strings.Contains(got, "edited") {
		t.Errorf("the applied session starts with %q", got)
	}
	if _, err := e.s.ApplyPreview(ctx, "s", out.PreviewID, nil); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("a preview applied twice: %v", err)
	}
	if err := e.s.DiscardPreview(ctx, "s", out.PreviewID); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("discarding an applied preview: %v", err)
	}

	e.create("t", "manual")
	if out := e.run("t", service.ActionOptions{}); out.Status != kompact.OutcomeCompacted || len(out.Warnings()) == 0 {
		t.Errorf("by default a result with warnings: %s, warnings %v", out.Status, out.Warnings())
	}
	if kinds := e.revisions("t"); len(kinds) != 1 || kinds[0] != kompact.RevisionCompaction {
		t.Errorf("revisions %v", kinds)
	}
}

// A preview larger than the budget of all previews is ETooLarge, the one
// error the stores give as well.
func TestSessionsPreviewTooLarge(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{MaxBytes: 100})
	e.create("s", "manual")
	out := e.run("s", service.ActionOptions{Preview: true})
	if out.Status != kompact.OutcomeError || out.Err.Code != kompact.ETooLarge || out.Model != "compact-model" {
		t.Fatalf("outcome %s %+v, model %q", out.Status, out.Err, out.Model)
	}
	want := kompact.PreviewTooLargeError(0, 100).Fixes
	if fmt.Sprint(out.Err.Fixes) != fmt.Sprint(want) {
		t.Errorf("fixes %q, want %q", out.Err.Fixes, want)
	}
}

// Continue compacts a session that the user's message takes over the
// trigger first, as an auto_compaction revision, then sends the turn and
// records its usage as the token count.
func TestSessionsContinueCompactsFirst(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "auto")
	rep, err := e.s.Continue(context.Background(), "s", strings.Repeat("x", 1000))
	if err != nil {
		t.Fatal(err)
	}
	auto := rep.AutoCompaction
	if auto == nil || auto.Status != service.AutoCompacted || auto.Reason != kompact.ReasonTriggerRatio || auto.Revision != 1 {
		t.Fatalf("auto compaction %+v", auto)
	}
	if kinds := e.revisions("s"); len(kinds) != 1 || kinds[0] != kompact.RevisionAutoCompaction {
		t.Errorf("revisions %v", kinds)
	}
	if len(rep.Messages) != 2 || rep.Messages[1].Content[0].Text != "reply" {
		t.Errorf("messages %+v", rep.Messages)
	}
	if c := rep.Context; c == nil || c.TokenCount != 307 || c.PendingTokens != 0 {
		t.Errorf("context after the turn %+v", c)
	}
}

// An automatic compaction that would not lower the token count is not
// committed and counts in the breaker; the turn still goes out.
func TestSessionsNoReductionGuard(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "auto")
	e.llm.summary = fullSummary() + strings.Repeat("y", 40000)
	rep, err := e.s.Continue(context.Background(), "s", strings.Repeat("x", 1000))
	if err != nil {
		t.Fatal(err)
	}
	auto := rep.AutoCompaction
	if auto == nil || auto.Status != service.AutoNotReduced || auto.Error == nil || auto.Error.Code != kompact.ENotReduced || auto.AutoFailures != 1 {
		t.Fatalf("auto compaction %+v", auto)
	}
	if kinds := e.revisions("s"); len(kinds) != 0 {
		t.Errorf("revisions %v", kinds)
	}
	if rep.Context == nil || rep.Context.AutoFailures != 1 {
		t.Errorf("context %+v", rep.Context)
	}
}

// An append with AutoCompact starts the compaction in the background and
// hands its report to Done.
func TestSessionsAppendCompactsInTheBackground(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "auto")
	done := make(chan service.AutoCompactionReport, 1)
	msg := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(strings.Repeat("x", 1000))}}
	rep, err := e.s.Append(context.Background(), "s", []kompact.Message{msg},
		service.AppendOptions{AutoCompact: true, Done: func(r service.AutoCompactionReport) { done <- r }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.AutoCompaction == nil || rep.AutoCompaction.Status != service.AutoStarted || rep.Context == nil || !rep.Context.ShouldCompact {
		t.Fatalf("append %+v, auto %+v", rep.Context, rep.AutoCompaction)
	}
	if r := <-done; r.Status != service.AutoCompacted {
		t.Errorf("background compaction %+v", r)
	}
	if kinds := e.revisions("s"); len(kinds) != 1 || kinds[0] != kompact.RevisionAutoCompaction {
		t.Errorf("revisions %v", kinds)
	}
}

// Undo and restore record revisions of their own; PreviewRestore says what
// a restore would change without changing anything.
func TestSessionsUndoAndRestore(t *testing.T) {
	e := newSessionsEnv(t, kompact.PreviewLimits{})
	e.create("s", "manual")
	if out := e.run("s", service.ActionOptions{}); out.Status != kompact.OutcomeCompacted {
		t.Fatalf("compaction: %s %+v", out.Status, out.Err)
	}
	ctx := context.Background()
	p, err := e.s.PreviewRestore(ctx, "s", 1)
	if err != nil || p.Revision.Rev != 1 || p.Effect.Messages != 4 || len(p.Effect.Adds) == 0 {
		t.Fatalf("restore preview %+v, %v", p, err)
	}
	undo, err := e.s.Undo(ctx, "s", 1)
	if err != nil || undo.Kind != kompact.RevisionUndo {
		t.Fatalf("undo %+v, %v", undo, err)
	}
	restore, err := e.s.Restore(ctx, "s", 1)
	if err != nil || restore.Kind != kompact.RevisionRestore {
		t.Fatalf("restore %+v, %v", restore, err)
	}
	if _, err := e.s.Undo(ctx, "s", undo.Rev); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("undoing an undo: %v", err)
	}
}
