package httpapi

// This file is the context window of a session over HTTP: the context route,
// the figures appends and continue turns answer with, and automatic
// compaction (issue 12; docs/compaction.md, "Where automatic compaction
// runs"). The formulas are the root package's (contextwindow.go).

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"kompact"
)

// appendLookupWait bounds how long an append's answer waits for the
// context size when the provider's model list is not known yet.
const appendLookupWait = 2 * time.Second

// contextBody is the answer of GET /v1/sessions/{id}/context and the
// "context" field of append and continue answers: kimi-cli's figures and
// the trigger, plus the state of automatic compaction for the session.
type contextBody struct {
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
}

// The statuses of an automatic compaction's report.
const (
	autoCompacted   = "compacted"   // committed as an auto_compaction revision
	autoNoop        = "noop"        // nothing to compact; the session is unchanged
	autoNotReduced  = "not_reduced" // refused by CheckReduction; the session is unchanged
	autoFailed      = "error"       // the compaction failed; the session is unchanged
	autoStarted     = "started"     // runs in the background (append with ?auto_compact=true)
	autoNotDue      = "not_due"     // not due, or not enabled: Reason says which
	autoAlreadyRuns = "running"     // one runs for the session already
)

// autoReport is the outcome of an automatic compaction, as the "auto_compaction"
// field of append and continue answers reports it.
type autoReport struct {
	Status string `json:"status"`
	// Reason is the trigger's reason (kompact.Reason* constants) or, for a
	// no-op, why there was nothing to compact.
	Reason string `json:"reason,omitempty"`
	// Revision is the revision a committed compaction recorded.
	Revision int64 `json:"revision,omitempty"`
	// TokensBefore is the session's token_count_with_pending before;
	// TokensAfter the compaction's estimated_token_count.
	TokensBefore int        `json:"tokens_before,omitempty"`
	TokensAfter  int        `json:"tokens_after,omitempty"`
	Error        *errorBody `json:"error,omitempty"`
	// AutoFailures is the breaker's count after a failure.
	AutoFailures int `json:"auto_failures,omitempty"`
}

// contextSize returns the context size of a's model in tokens, 0 when it is
// unknown: Config.ContextSize when set (llm.max_context_size, the
// provider's model list, KIMI_MODEL_MAX_CONTEXT_SIZE), else
// llm.max_context_size. A failed lookup is logged and means unknown.
func (s *Server) contextSize(ctx context.Context, a *kompact.Agent) int {
	if s.cfg.ContextSize == nil {
		return max(a.LLM.MaxContextSize, 0)
	}
	n, err := s.cfg.ContextSize(ctx, a)
	if err != nil {
		s.log.Warn("context size unknown", "agent", a.Name, "error", err.Error())
		return 0
	}
	return max(n, 0)
}

// autoEnabled reports whether a compacts by itself: automatic compaction is
// on and the compaction actions exist.
func autoEnabled(a *kompact.Agent) bool {
	return a.CompactionEnabled() && a.Compaction.Auto.Enabled
}

// contextOf evaluates a session's account for agent a.
func (s *Server) contextOf(ctx context.Context, a *kompact.Agent, acct kompact.TokenAccount, b kompact.CompactionBreaker) contextBody {
	eff := a.Compaction.Auto.Effective()
	return contextBody{
		ContextStatus:       kompact.NewContextStatus(acct, s.contextSize(ctx, a), a.Compaction.Auto),
		AutoCompaction:      autoEnabled(a),
		AutoFailures:        b.AutoFailures,
		AutoPaused:          b.Paused(),
		TriggerRatio:        eff.TriggerRatio,
		ReservedContextSize: eff.ReservedContextSize,
	}
}

// due says whether a session with status c compacts by itself now, and why.
func due(a *kompact.Agent, c contextBody) (bool, string) {
	auto := a.Compaction.Auto
	auto.Enabled = autoEnabled(a)
	return kompact.AutoCompactionDue(auto, c.ContextStatus, kompact.CompactionBreaker{AutoFailures: c.AutoFailures})
}

func (s *Server) getContext(w http.ResponseWriter, r *http.Request) error {
	stored, a, err := s.sessionAgent(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.contextOf(r.Context(), a, stored.Tokens, stored.Breaker))
	return nil
}

// autoCompact runs compact_conversation on cur with a's own settings as an
// automatic compaction and commits it unless it would not lower the token
// count (kompact.CheckReduction). A failure, a refused result included,
// counts in the session's breaker; the session is then unchanged. It
// returns the report.
func (s *Server) autoCompact(ctx context.Context, a *kompact.Agent, cur *kompact.StoredSession, r *http.Request) autoReport {
	before := cur.Tokens.WithPending()
	rep := autoReport{TokensBefore: before}
	fail := func(status string, err error) autoReport {
		rep.Status = status
		e := s.publicError(r, err)
		rep.Error = &errorBody{Code: e.Code, Message: e.Message, Fixes: e.Fixes}
		if ctx.Err() == nil { // a client that went away is no failure of the compaction
			if b, berr := s.cfg.Store.RecordAutoFailure(context.WithoutCancel(ctx), cur.ID); berr == nil {
				rep.AutoFailures = b.AutoFailures
			} else {
				s.log.Warn("record automatic compaction failure", "session", cur.ID, "error", berr.Error())
			}
		}
		return rep
	}
	job, err := s.comp.NewJob(a, &cur.Session, kompact.ActionRequest{Action: kompact.ActionCompactConversation})
	if err != nil {
		return fail(autoFailed, err)
	}
	job.LimitCompletion(a, s.contextSize(ctx, a))
	out := job.Run(ctx, nil)
	switch out.Status {
	case kompact.OutcomeNoop:
		rep.Status, rep.Reason = autoNoop, out.Reason
		return rep
	case kompact.OutcomeError:
		return fail(autoFailed, out.Err)
	}
	rep.TokensAfter = out.Result.EstimatedTokenCount
	if err := kompact.CheckReduction(before, out.Result.EstimatedTokenCount); err != nil {
		return fail(autoNotReduced, err)
	}
	c := out.Result.Commit()
	c.Kind = kompact.RevisionAutoCompaction
	c.Note = "automatically " + c.Note
	c.Version = cur.Version
	_, info, err := s.cfg.Store.CommitCompaction(context.WithoutCancel(ctx), cur.ID, c)
	if err != nil {
		return fail(autoFailed, err)
	}
	rep.Status, rep.Revision = autoCompacted, info.Rev
	return rep
}

// compactBeforeTurn is kimi-cli's check before a step: with the user's
// message counted as appended, it compacts cur when due. It returns the
// report (nil when not due) and, when the compaction failed, the error
// that stops the turn; a result refused by CheckReduction does not stop it.
func (s *Server) compactBeforeTurn(r *http.Request, a *kompact.Agent, cur *kompact.StoredSession, user kompact.Message) (*autoReport, error) {
	ctx := r.Context()
	c := s.contextOf(ctx, a, cur.Tokens.Append([]kompact.Message{user}), cur.Breaker)
	ok, reason := due(a, c)
	if !ok {
		return nil, nil
	}
	if _, running := s.autoRunning.LoadOrStore(cur.ID, true); running {
		// One runs in the background already: the turn does not wait.
		return &autoReport{Status: autoAlreadyRuns, Reason: reason}, nil
	}
	defer s.autoRunning.Delete(cur.ID)
	rep := s.autoCompact(ctx, a, cur, r)
	rep.Reason = cmpOr(rep.Reason, reason)
	if rep.Status != autoFailed {
		return &rep, nil
	}
	return &rep, turnNotSent(rep.Error)
}

// turnNotSent is the error of a continue whose automatic compaction failed.
func turnNotSent(e *errorBody) error {
	return (&kompact.Error{Code: e.Code, Message: "the automatic compaction before this turn failed, so the message was not sent and the session is unchanged: " + e.Message}).
		WithFixes(append(e.Fixes, "Compact the session manually, or turn compaction.auto off for the agent.")...)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// afterAppend returns the context figures after an append to session id of
// agent name and, with ?auto_compact=true, starts an automatic compaction
// in the background when one is due. Figures it cannot give (an agent no
// longer configured) are left out: the append itself succeeded.
func (s *Server) afterAppend(r *http.Request, id, agent string, added *kompact.Appended) (*contextBody, *autoReport) {
	ctx := r.Context()
	a, err := s.agent(agent)
	if err != nil {
		return nil, nil
	}
	acct, b := added.Tokens, added.Breaker
	if acct == nil { // a session stored before token figures: estimate it whole
		stored, err := s.cfg.Store.GetSession(ctx, id)
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
	if want, _ := strconv.ParseBool(r.URL.Query().Get("auto_compact")); !want {
		return &c, nil
	}
	if ok, reason := due(a, c); !ok {
		return &c, &autoReport{Status: autoNotDue, Reason: reason}
	}
	if _, running := s.autoRunning.LoadOrStore(id, true); running {
		return &c, &autoReport{Status: autoAlreadyRuns}
	}
	go s.backgroundCompaction(context.WithoutCancel(ctx), r.Clone(context.WithoutCancel(ctx)), id, a)
	return &c, &autoReport{Status: autoStarted, Reason: c.Reason}
}

// backgroundCompaction compacts session id automatically when it is still
// due, and logs the outcome; the result appears as a revision.
func (s *Server) backgroundCompaction(ctx context.Context, r *http.Request, id string, a *kompact.Agent) {
	defer s.autoRunning.Delete(id)
	cur, err := s.cfg.Store.GetSession(ctx, id)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			s.log.Warn("automatic compaction", "session", id, "error", err.Error())
		}
		return
	}
	if ok, _ := due(a, s.contextOf(ctx, a, cur.Tokens, cur.Breaker)); !ok {
		return
	}
	rep := s.autoCompact(ctx, a, cur, r)
	attrs := []any{"session", id, "status", rep.Status, "revision", rep.Revision, "tokens_before", rep.TokensBefore, "tokens_after", rep.TokensAfter}
	if rep.Error != nil {
		attrs = append(attrs, "code", string(rep.Error.Code))
	}
	s.log.Info("automatic compaction", attrs...)
}
