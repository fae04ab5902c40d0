package service

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"kompact"
)

// This file is the context window of a stored session and automatic
// compaction (docs/compaction.md, "Where automatic compaction runs"); the
// formulas are contextwindow.go's.

// appendLookupWait bounds how long an append's figures wait for the
// context size when the provider's model list is not known yet.
const appendLookupWait = 2 * time.Second

// SessionContext is a stored session's context window for its agent:
// kimi-cli's figures and the trigger, plus the state of automatic
// compaction for the session. It is the answer of the HTTP API's context
// route and the "context" of an AppendReport.
type SessionContext struct {
	kompact.ContextStatus
	// AutoCompaction is the agent's compaction.auto.enabled (and
	// compaction enabled at all).
	AutoCompaction bool `json:"auto_compaction"`
	// AutoFailures counts the automatic compactions that failed in a row;
	// AutoPaused says the breaker is open.
	AutoFailures int  `json:"auto_failures"`
	AutoPaused   bool `json:"auto_paused"`
	// TriggerRatio and ReservedContextSize are the agent's thresholds
	// (kimi-cli's defaults when unset), so that a client can draw where
	// compaction becomes due.
	TriggerRatio        float64 `json:"trigger_ratio"`
	ReservedContextSize int     `json:"reserved_context_size"`
	// ReservedExceedsWindow says the model's context size is known and no
	// larger than ReservedContextSize: compaction is then due at every
	// token count, right after a compaction too (kimi-cli's trigger, which
	// kompact keeps). SuggestedReservedContextSize is then a value to set
	// instead (see SuggestedReservedContextSize); 0 otherwise.
	ReservedExceedsWindow        bool `json:"reserved_exceeds_window"`
	SuggestedReservedContextSize int  `json:"suggested_reserved_context_size,omitempty"`
}

// AutoStatus says what an automatic compaction did.
type AutoStatus string

// The statuses of an automatic compaction.
const (
	AutoCompacted   AutoStatus = "compacted"   // committed as an auto_compaction revision
	AutoNoop        AutoStatus = "noop"        // nothing to compact; the session is unchanged
	AutoNotReduced  AutoStatus = "not_reduced" // refused by CheckReduction; the session is unchanged
	AutoFailed      AutoStatus = "error"       // the compaction failed; the session is unchanged
	AutoStarted     AutoStatus = "started"     // runs in the background (AppendOptions.AutoCompact)
	AutoNotDue      AutoStatus = "not_due"     // not due, or not enabled: Reason says which
	AutoAlreadyRuns AutoStatus = "running"     // one runs for the session already
	AutoBusy        AutoStatus = "busy"        // due, but no action slot was free (--max-actions): a later append or turn tries again
	AutoPruned      AutoStatus = "pruned"      // compaction.prune cleared old tool output, which brought the session under the trigger: no summary
	AutoRejected    AutoStatus = "rejected"    // the summary failed the quality gate twice (summaryGate); the session is unchanged
)

// AutoCompactionReport is what an automatic compaction did, as the
// "auto_compaction" of an AppendReport.
type AutoCompactionReport struct {
	Status AutoStatus `json:"status"`
	// Reason is the trigger's reason (the Reason* constants) or, for a
	// no-op, why there was nothing to compact.
	Reason string `json:"reason,omitempty"`
	// Revision is the revision a committed compaction recorded;
	// PruneRevision the prune revision compaction.prune recorded before it.
	Revision      int64 `json:"revision,omitempty"`
	PruneRevision int64 `json:"prune_revision,omitempty"`
	// TokensBefore is the session's token_count_with_pending before;
	// TokensAfter the compaction's estimated_token_count.
	TokensBefore int `json:"tokens_before,omitempty"`
	TokensAfter  int `json:"tokens_after,omitempty"`
	// Error is why it failed or was refused. A surface shows a client only
	// what it may see of it.
	Error *kompact.Error `json:"error,omitempty"`
	// AutoFailures is the breaker's count after a failure.
	AutoFailures int `json:"auto_failures,omitempty"`
}

// Context returns the context window of session id for its agent.
func (s *Sessions) Context(ctx context.Context, id string) (SessionContext, error) {
	stored, a, err := s.OpenHead(ctx, id)
	if err != nil {
		return SessionContext{}, err
	}
	return s.contextOf(ctx, a, stored.Tokens, stored.Breaker), nil
}

// contextOf evaluates a session's account for agent a.
func (s *Sessions) contextOf(ctx context.Context, a *kompact.Agent, acct kompact.TokenAccount, b kompact.CompactionBreaker) SessionContext {
	eff := a.Compaction.Auto.Effective()
	window := s.contextSizeOf(ctx, a)
	c := SessionContext{
		ContextStatus:       TypeFor(a).ContextStatus(acct, window, a.Compaction.Auto),
		AutoCompaction:      a.AutoCompacts(),
		AutoFailures:        b.AutoFailures,
		AutoPaused:          b.Paused(),
		TriggerRatio:        eff.TriggerRatio,
		ReservedContextSize: eff.ReservedContextSize,
	}
	if ReservedExceedsWindow(eff, window) {
		c.ReservedExceedsWindow = true
		c.SuggestedReservedContextSize = SuggestedReservedContextSize(eff, window)
	}
	return c
}

// due says whether a session with context c compacts by itself now, and
// why.
func due(a *kompact.Agent, c SessionContext) (bool, string) {
	auto := a.Compaction.Auto
	auto.Enabled = a.AutoCompacts()
	return AutoCompactionDue(auto, c.ContextStatus, kompact.CompactionBreaker{AutoFailures: c.AutoFailures})
}

// autoCompact runs compact_conversation on cur with a's own settings as an
// automatic compaction (autoRun) and commits it. A failure, a refused
// result included, counts in the session's breaker; the session is then
// unchanged. It returns the report.
func (s *Sessions) autoCompact(ctx context.Context, a *kompact.Agent, cur *kompact.StoredSession) AutoCompactionReport {
	cur, pruneRev, pruned := s.autoPrune(ctx, a, cur)
	if pruned != nil {
		return *pruned
	}
	out, rep := s.autoRun(ctx, a, cur)
	rep.PruneRevision = pruneRev
	if out == nil {
		return rep
	}
	c := out.Result.Commit()
	c.Kind = kompact.RevisionAutoCompaction
	c.Note = "automatically " + c.Note
	c.Version, c.Generation = cur.Version, cur.Generation
	_, info, err := s.store.CommitCompaction(context.WithoutCancel(ctx), cur.ID, c)
	if err != nil {
		return s.autoFailed(ctx, cur.ID, rep, AutoFailed, err)
	}
	rep.Status, rep.Revision = AutoCompacted, info.Rev
	s.logCommitted(ctx, cur.ID, out.Result, info.Rev, "")
	return rep
}

// autoRun runs compact_conversation on cur with a's own settings (and
// cur's standing instructions) as an automatic compaction, without
// committing it: the outcome when its result would lower the token count
// (CheckReduction), else nil and the report of the no-op or the failure
// (which counts in the breaker).
func (s *Sessions) autoRun(ctx context.Context, a *kompact.Agent, cur *kompact.StoredSession) (*kompact.Outcome, AutoCompactionReport) {
	return s.autoRunWith(ctx, a, cur, "")
}

// autoRunWith is autoRun with a request's own instructions, joined after
// the agent's and the session's (KCP-011's one custom instruction): a
// client's compaction request that carries the user's.
func (s *Sessions) autoRunWith(ctx context.Context, a *kompact.Agent, cur *kompact.StoredSession, instructions string) (*kompact.Outcome, AutoCompactionReport) {
	before := cur.Tokens.WithPending()
	rep := AutoCompactionReport{TokensBefore: before}
	s.logStart(ctx, cur.ID)
	req, err := s.contextRequest(ctx, a, cur, kompact.ActionRequest{Action: kompact.ActionCompactConversation,
		SessionInstructions: cur.Instructions, Instructions: instructions})
	if err != nil {
		return nil, s.autoFailed(ctx, cur.ID, rep, AutoFailed, err)
	}
	var out kompact.Outcome
	for try := 1; ; try++ {
		job, err := s.comp.NewJob(a, &cur.Session, req)
		if err != nil {
			return nil, s.autoFailed(ctx, cur.ID, rep, AutoFailed, err)
		}
		job.LimitCompletion(a, s.contextSizeOf(ctx, a))
		out = job.Run(ctx, nil)
		if out.Status == kompact.OutcomeNoop || out.Status == kompact.OutcomeError || out.Result == nil {
			break
		}
		gate := summaryGate(a, out.Result)
		if gate == nil {
			break
		}
		if try == 2 {
			return nil, s.autoRefused(ctx, cur.ID, rep, gate)
		}
		s.warn(ctx, "compaction: the summary failed the quality gate; trying once more", "trigger", triggerOf(ctx), "session", cur.ID, "reason", gate.reason, "error", gate.err.Message)
	}
	switch out.Status {
	case kompact.OutcomeNoop:
		rep.Status, rep.Reason = AutoNoop, out.Reason
		s.logEnded(ctx, cur.ID, out, "")
		return nil, rep
	case kompact.OutcomeError:
		return nil, s.autoFailed(ctx, cur.ID, rep, AutoFailed, out.Err)
	}
	rep.TokensAfter = out.Result.EstimatedTokenCount
	if err := CheckReduction(before, out.Result.EstimatedTokenCount); err != nil {
		return nil, s.autoFailed(ctx, cur.ID, rep, AutoNotReduced, err)
	}
	return &out, rep
}

// autoFailed is the report of an automatic compaction of session id that
// failed with err: it counts in the session's breaker and is kept in its
// failure log, unless the caller went away (no failure of the compaction).
func (s *Sessions) autoFailed(ctx context.Context, id string, rep AutoCompactionReport, status AutoStatus, err error) AutoCompactionReport {
	return s.recordFailure(ctx, id, rep, status, kompact.AsError(err), nil)
}

// autoRefused is autoFailed for a summary the quality gate refused twice
// (status rejected): the failure log says why.
func (s *Sessions) autoRefused(ctx context.Context, id string, rep AutoCompactionReport, gate *refusal) AutoCompactionReport {
	return s.recordFailure(ctx, id, rep, AutoRejected, gate.err, gate)
}

// recordFailure logs failure e of an automatic compaction of session id
// (refused by gate, when not nil) and records it in the session's breaker
// and failure log.
func (s *Sessions) recordFailure(ctx context.Context, id string, rep AutoCompactionReport, status AutoStatus, e *kompact.Error, gate *refusal) AutoCompactionReport {
	rep.Status, rep.Error = status, e
	var why []any
	if gate != nil {
		why = []any{"reason", gate.reason, "missing_sections", strings.Join(gate.missing, ",")}
	}
	s.logEnded(ctx, id, kompact.Outcome{Status: kompact.OutcomeError, Err: rep.Error}, string(status), why...)
	if ctx.Err() != nil {
		return rep
	}
	f := kompact.AutoFailure{At: time.Now().UTC(), Trigger: triggerOf(ctx), Status: string(status), Code: e.Code, Message: e.Error()}
	if gate != nil {
		f.Reason, f.MissingSections = gate.reason, gate.missing
	}
	if b, berr := s.store.RecordAutoFailure(context.WithoutCancel(ctx), id, f); berr == nil {
		rep.AutoFailures = b.AutoFailures
		s.logBreaker(ctx, id, b)
	} else {
		s.warn(ctx, "record automatic compaction failure", "session", id, "error", berr.Error())
	}
	return rep
}

// compactBeforeTurn is kimi-cli's check before a step: with the user's
// message counted as appended, it compacts cur when due. It returns the
// report (nil when not due) and, when the compaction failed, the error
// that stops the turn; a result refused by CheckReduction does not stop it.
func (s *Sessions) compactBeforeTurn(ctx context.Context, a *kompact.Agent, cur *kompact.StoredSession, user kompact.Message) (*AutoCompactionReport, error) {
	c := s.contextOf(ctx, a, cur.Tokens.Append([]kompact.Message{user}), cur.Breaker)
	ok, reason := due(a, c)
	if !ok {
		return nil, nil
	}
	if !s.auto.start(cur.ID) {
		// One runs in the background already: the turn does not wait.
		return &AutoCompactionReport{Status: AutoAlreadyRuns, Reason: reason}, nil
	}
	defer s.auto.done(cur.ID)
	rep := s.autoCompact(ctx, a, cur)
	if rep.Reason == "" {
		rep.Reason = reason
	}
	if rep.Status != AutoFailed {
		return &rep, nil
	}
	return &rep, turnNotSent(rep.Error)
}

// turnNotSent is the error of a continue whose automatic compaction failed
// with e.
func turnNotSent(e *kompact.Error) error {
	return (&kompact.Error{Code: e.Code, Message: "the automatic compaction before this turn failed, so the message was not sent and the session is unchanged: " + e.Error()}).
		WithFixes(slices.Concat(e.Fixes, []string{"Compact the session manually, or turn compaction.auto off for the agent."})...)
}

// afterAppend returns the context figures after append added to session id
// and, when opts ask for it, starts an automatic compaction in the
// background if one is due. Figures it cannot give (an agent no longer
// configured) are left out: the append itself succeeded.
func (s *Sessions) afterAppend(ctx context.Context, id string, added *kompact.Appended, opts AppendOptions) (*SessionContext, *AutoCompactionReport) {
	a, err := s.Agent(added.Agent)
	if err != nil {
		return nil, nil
	}
	acct, b := added.Tokens, added.Breaker
	if acct == nil { // a session stored before token figures: estimate it whole
		stored, err := s.store.GetSession(ctx, id)
		if err != nil {
			return nil, nil
		}
		acct, b = &stored.Tokens, stored.Breaker
	}
	// An append does not wait long for a provider's model list: the lookup
	// goes on, and later answers have the size.
	lctx, cancel := context.WithTimeout(ctx, appendLookupWait)
	c := s.contextOf(lctx, a, *acct, b)
	cancel()
	if !opts.AutoCompact {
		return &c, nil
	}
	if ok, reason := due(a, c); !ok {
		return &c, &AutoCompactionReport{Status: AutoNotDue, Reason: reason}
	}
	if !s.auto.start(id) {
		return &c, &AutoCompactionReport{Status: AutoAlreadyRuns}
	}
	release, ok := s.slots.TryTake()
	if !ok {
		s.auto.done(id)
		return &c, &AutoCompactionReport{Status: AutoBusy, Reason: c.Reason}
	}
	go s.backgroundCompaction(context.WithoutCancel(ctx), id, a, opts.Done, release)
	return &c, &AutoCompactionReport{Status: AutoStarted, Reason: c.Reason}
}

// backgroundCompaction compacts session id automatically when it is still
// due, and hands the report to done; the result appears as a revision.
// It gives its action slot back with release when it ends.
func (s *Sessions) backgroundCompaction(ctx context.Context, id string, a *kompact.Agent, done func(AutoCompactionReport), release func()) {
	defer release()
	defer s.auto.done(id)
	cur, err := s.store.GetSession(ctx, id)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			s.warn(ctx, "automatic compaction", "session", id, "error", err.Error())
		}
		return
	}
	if ok, _ := due(a, s.contextOf(ctx, a, cur.Tokens, cur.Breaker)); !ok {
		return
	}
	rep := s.autoCompact(ctx, a, cur)
	if done != nil {
		done(rep)
	}
}
