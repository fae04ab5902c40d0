package service

import (
	"context"

	"kompact"
)

// This file is the service's log of compactions: one line when a manual,
// automatic, gateway or precompute compaction starts, one for how it
// ended (committed, with its counts, revision and recall; kept as a
// preview; nothing to compact; failed, with the error's code), and one
// when automatic compaction of a session pauses (the breaker opens) or
// resumes. The lines go to SessionsConfig.Info, failures and the pause
// to Warn; the surface picks their form (cmd/kompact's --log-format).

// The triggers a compaction's log lines name.
const (
	logManual     = "manual"     // an action or an applied preview
	logAuto       = "auto"       // automatic compaction (after an append, before a turn)
	logGateway    = "gateway"    // the gateway's compaction before a turn
	logPrecompute = "precompute" // the gateway's compaction ahead of the trigger
)

// triggerKey is the context key of the trigger a compaction logs.
type triggerKey struct{}

// withTrigger returns ctx with the trigger the compactions under it log.
func withTrigger(ctx context.Context, trigger string) context.Context {
	return context.WithValue(ctx, triggerKey{}, trigger)
}

// triggerOf is ctx's trigger (withTrigger), automatic when none is set.
func triggerOf(ctx context.Context) string {
	if t, ok := ctx.Value(triggerKey{}).(string); ok {
		return t
	}
	return logAuto
}

// logStart logs that a compaction of session id starts.
func (s *Sessions) logStart(ctx context.Context, id string) {
	s.info(ctx, "compaction started", "trigger", triggerOf(ctx), "session", id)
}

// logCommitted logs result res, committed to session id as revision rev
// (from preview pid when it is not "").
func (s *Sessions) logCommitted(ctx context.Context, id string, res *kompact.Result, rev int64, pid string) {
	args := append([]any{"trigger", triggerOf(ctx), "session", id, "revision", rev}, resultArgs(res)...)
	if pid != "" {
		args = append(args, "preview", pid)
	}
	s.info(ctx, "compaction committed", args...)
}

// resultArgs are the log attributes of result res: its counts (as the
// outcome has them: replaced_messages is the count people are shown, the
// revision's note among them), estimate and recall.
func resultArgs(res *kompact.Result) []any {
	args := []any{"compacted_messages", res.Compacted, "replaced_messages", res.Replaced(), "preserved_messages", res.Preserved,
		"estimated_token_count", res.EstimatedTokenCount}
	if res.Fidelity != nil {
		args = append(args, "recall", res.Fidelity.Recall)
	}
	return args
}

// logEnded logs how a compaction of session id that committed nothing
// ended: kept as a preview (with the result's counts and recall), nothing
// to compact, or failed (status says which failure, for automatic
// compaction; extra are more attributes of a failure, such as why the
// quality gate refused the summary).
func (s *Sessions) logEnded(ctx context.Context, id string, out kompact.Outcome, status string, extra ...any) {
	t := triggerOf(ctx)
	switch out.Status {
	case kompact.OutcomePreview:
		args := []any{"trigger", t, "session", id, "preview", out.PreviewID}
		if out.Result != nil {
			args = append(args, resultArgs(out.Result)...)
		}
		s.info(ctx, "compaction kept as a preview", args...)
	case kompact.OutcomeNoop:
		s.info(ctx, "compaction: nothing to compact", "trigger", t, "session", id, "reason", out.Reason)
	case kompact.OutcomeError:
		if status == "" {
			status = string(kompact.OutcomeError)
		}
		s.warn(ctx, "compaction failed", append([]any{"trigger", t, "session", id, "status", status, "code", string(out.Err.Code), "error", out.Err.Error()}, extra...)...)
	}
}

// logBreaker logs that automatic compaction of session id paused, when
// failure b is the one that opened its breaker.
func (s *Sessions) logBreaker(ctx context.Context, id string, b kompact.CompactionBreaker) {
	if b.AutoFailures == kompact.AutoCompactionFailureLimit {
		s.warn(ctx, "automatic compaction paused", "session", id, "auto_failures", b.AutoFailures,
			"resume", "a manual compaction of the session that commits resumes it")
	}
}

// logResumed logs that automatic compaction of session id resumed: a
// commit closed a breaker that was open (paused).
func (s *Sessions) logResumed(ctx context.Context, id string, paused bool) {
	if paused {
		s.info(ctx, "automatic compaction resumed", "session", id, "trigger", triggerOf(ctx))
	}
}
