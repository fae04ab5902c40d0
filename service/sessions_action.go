package service

import (
	"context"

	"kompact"
)

// ActionOptions say what becomes of an action's compacted result.
type ActionOptions struct {
	// Preview keeps the result as a preview rather than committing it.
	Preview bool
	// HoldOnWarnings keeps a result with warnings as a preview for the
	// caller to confirm, rather than committing it with its warnings (the
	// default, as kimi-cli keeps every non-empty summary).
	HoldOnWarnings bool
}

// SessionJob is an action prepared on a stored session (Sessions.NewJob):
// Job says what it compacts and how it asks; Run runs it and commits the
// result at the version the session was read at, or keeps it as a preview.
type SessionJob struct {
	Job   *Job
	s     *Sessions
	agent *kompact.Agent
	id    string
	read  readAt
	// paused says automatic compaction of the session was paused when
	// it was read: a commit resumes it.
	paused bool
	// gateway says the session is a gateway session (Busy).
	gateway bool
}

// readAt is the session a compaction read, as its commit names it: its
// version and generation (Commit.Version, Commit.Generation).
type readAt struct{ version, generation int64 }

// readOf returns the readAt of st.
func readOf(st *kompact.StoredSession) readAt { return readAt{st.Version, st.Generation} }

// NewJob prepares action req on stored session st of agent a (see
// Compactor.NewJob), with the session's standing instructions
// (req.SessionInstructions) and, for a gateway session whose client
// injects context, its range after that context (contextRequest: it
// reads the session's gateway record). It makes no LLM call.
func (s *Sessions) NewJob(ctx context.Context, st *kompact.StoredSession, a *kompact.Agent, req kompact.ActionRequest) (*SessionJob, error) {
	req.SessionInstructions = st.Instructions
	req, err := s.contextRequest(ctx, a, st, req)
	if err != nil {
		return nil, err
	}
	job, err := s.comp.NewJob(a, &st.Session, req)
	if err != nil {
		return nil, err
	}
	return &SessionJob{Job: job, s: s, agent: a, id: st.ID, read: readOf(st), paused: st.Breaker.Paused(), gateway: st.Gateway}, nil
}

// Run runs the job, with its completion limit set for the agent's context
// size, and then commits a compacted result, or keeps it as a preview:
// when opts ask for one, or when the result has warnings and opts hold on
// them. A result that cannot be committed or kept is an error outcome.
// While it runs, Sessions.Running reports the session. A session whose
// compaction runs already (Busy) is an error outcome, without an LLM call.
func (j *SessionJob) Run(ctx context.Context, opts ActionOptions, progress func(kompact.Progress)) kompact.Outcome {
	if err := j.Busy(ctx); err != nil {
		return kompact.ErrorOutcome(err)
	}
	j.s.actions.start(j.id)
	defer j.s.actions.done(j.id)
	ctx = withTrigger(ctx, logManual)
	j.s.logStart(ctx, j.id)
	j.Job.LimitCompletion(j.agent, j.s.contextSizeOf(ctx, j.agent))
	out := j.Job.Run(ctx, progress)
	switch {
	case out.Status != kompact.OutcomeCompacted:
		j.s.logEnded(ctx, j.id, out, "")
		return out
	case opts.Preview, opts.HoldOnWarnings && len(out.Warnings()) > 0:
		out = j.s.keepPreview(ctx, j.id, j.read, out)
		j.s.logEnded(ctx, j.id, out, "")
		return out
	}
	return j.s.commit(ctx, j.id, j.read, out, j.paused, "")
}

// commit stores a compacted outcome of session id, read at read, and
// returns it holding the committed session; a commit that fails turns it
// into an error outcome. It logs the outcome (pid names the preview it
// applies, if any; paused says the commit resumes automatic compaction). The commit runs even when ctx is cancelled
// meanwhile: the summary is paid for, and the result is visible in the
// session and its revisions. The store's commit does work in proportion
// to what it replaces and what was appended meanwhile; the session the
// outcome shows is read after it (a later write may show in it too).
// Once the commit succeeded the outcome is compacted: when that read fails,
// it shows the compacted session as the result built it (without the
// messages appended meanwhile and the ids the store gave), and the failure
// is logged.
func (s *Sessions) commit(ctx context.Context, id string, read readAt, out kompact.Outcome, paused bool, pid string) kompact.Outcome {
	c := out.Result.Commit()
	c.Version, c.Generation = read.version, read.generation // the session the result read
	ctx = context.WithoutCancel(ctx)
	_, info, err := s.store.CommitCompaction(ctx, id, c)
	if err != nil {
		f := failedAs(out, err)
		s.logEnded(ctx, id, f, "")
		return f
	}
	s.logCommitted(ctx, id, out.Result, info.Rev, pid)
	s.logResumed(ctx, id, paused)
	stored, err := s.store.GetSession(ctx, id)
	if err != nil {
		s.warn(ctx, "read the session after its compaction was committed (the outcome shows the session as compacted)", "session", id, "error", err.Error())
		return out
	}
	res := *out.Result
	res.Session = &stored.Session
	out.Result = &res
	return out
}

// failedAs is the error outcome of err for what became of out: it keeps
// out's model.
func failedAs(out kompact.Outcome, err error) kompact.Outcome {
	f := kompact.ErrorOutcome(err)
	f.Model = out.Model
	return f
}
