package service

import (
	"context"

	"kompact"
	"kompact/toolprune"
)

// This file is the prune_tool_results action on a stored session and the
// pruning automatic compaction runs first when the agent's
// compaction.prune is enabled (docs/compaction.md, "Pruning tool output").

// pruneOptions returns the settings of a pruning for agent a: those given
// (o's KeepRecent and MinChars when set), else the agent's
// compaction.prune values, else the defaults.
func pruneOptions(a *kompact.Agent, o kompact.PruneOptions) toolprune.Options {
	eff := a.Compaction.Prune
	if o.KeepRecent != nil {
		eff.KeepRecent = o.KeepRecent
	}
	if o.MinChars != nil {
		eff.MinChars = o.MinChars
	}
	return toolprune.OptionsOf(eff)
}

// Prune runs prune_tool_results on session id with the settings o (see
// pruneOptions) and commits it at the version it read, as a prune revision
// that Undo takes back: messages appended meanwhile stay, and a session
// rewritten meanwhile is EConflict, with nothing written. It makes no LLM
// call, but it holds the whole session and its pruned copy: it checks all
// it can on the session's head first (the settings, the agent, a gateway
// session, a compaction running), then takes one of the action slots
// (EBusy when none is free) and only then reads the messages, so that
// refused prunes read nothing and pruning at once costs at most
// --max-actions sessions. An unknown session is the error; what the action
// itself met (settings out of bounds, compaction disabled for the agent, a
// compaction running, no free slot, a conflict) is an error outcome.
func (s *Sessions) Prune(ctx context.Context, id string, o kompact.PruneOptions) (*toolprune.Outcome, error) {
	head, a, err := s.OpenHead(ctx, id)
	if err != nil {
		return nil, err
	}
	opts, err := s.checkPrune(head, a, o)
	if err != nil {
		return toolprune.ErrorOutcome(err), nil
	}
	release, ok := s.slots.TryTake()
	if !ok {
		return toolprune.ErrorOutcome(kompact.Errorf(kompact.EBusy, "the server already runs %d actions, as many as it allows at once; a prune takes one too", s.slots.Cap()).
			WithFixes("Retry in a few seconds.", "Or restart the server with a larger --max-actions.")), nil
	}
	defer release()
	cur, err := s.store.GetSession(ctx, id)
	if err != nil {
		return nil, err
	}
	opts.Pinned = PinnedIndexes(&cur.Session)
	r := toolprune.Prune(cur.Messages, opts)
	if r.Noop() {
		return &toolprune.Outcome{Status: toolprune.StatusNoop, Reason: r.NoopReason(), Prune: r.Report()}, nil
	}
	info, rev, err := s.commitPrune(ctx, cur, r, "")
	if err != nil {
		out := toolprune.ErrorOutcome(err)
		out.Prune = r.Report()
		return out, nil
	}
	return &toolprune.Outcome{Status: toolprune.StatusPruned, Revision: rev.Rev, Version: info.Version, Prune: r.Report()}, nil
}

// checkPrune checks a prune of the session whose head is head, of agent
// a, with the settings o, before its messages are read: the settings'
// bounds, the agent's compaction type, not a gateway session, no
// compaction running. It returns the settings to prune with.
func (s *Sessions) checkPrune(head *kompact.StoredSession, a *kompact.Agent, o kompact.PruneOptions) (toolprune.Options, error) {
	opts := pruneOptions(a, o)
	if err := opts.Check(); err != nil {
		return opts, err
	}
	if _, err := typeOf(a); err != nil {
		return opts, err
	}
	if head.Gateway {
		return opts, kompact.Errorf(kompact.EInvalid, "session %q is a gateway session: the gateway forwards its client's own messages, so a prune would not change what it sends", head.ID).
			WithFixes("Enable compaction.prune for the gateway's agent: its compactions then prune first.")
	}
	if id := head.ID; s.auto.has(id) || s.gateway.has(id) || s.actions.has(id) {
		return opts, kompact.Errorf(kompact.EConflict, "a compaction of session %q runs; a prune now would conflict with it", id).
			WithFixes("Wait until it ends (the session list marks the session as running), then prune again.")
	}
	return opts, nil
}

// commitPrune stores pruning r of cur at the version cur was read, its
// note after how (e.g. "automatically "), and logs it.
func (s *Sessions) commitPrune(ctx context.Context, cur *kompact.StoredSession, r *toolprune.Result, how string) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	c := r.Commit(cur.Tokens)
	c.Note = how + c.Note
	c.Version, c.Generation = cur.Version, cur.Generation
	info, rev, err := s.store.CommitCompaction(context.WithoutCancel(ctx), cur.ID, c)
	if err != nil {
		return nil, nil, err
	}
	s.info(ctx, "tool output pruned", "session", cur.ID, "revision", rev.Rev, "cleared", len(r.Cleared),
		"tokens_before", r.TokensBefore, "tokens_after", r.TokensAfter)
	return info, rev, nil
}

// autoPrune is the first step of an automatic compaction of cur when a's
// compaction.prune is enabled: it prunes and commits, then reads the
// session again. It returns the session to summarise (cur when nothing was
// cleared) and the prune revision, and, when the pruning brought the
// session under the trigger (or failed), the report that ends the
// automatic compaction. A gateway session is summarised whatever the
// prune did: the gateway forwards its client's own messages but for those
// a summary replaces, so only the summary changes what it sends.
func (s *Sessions) autoPrune(ctx context.Context, a *kompact.Agent, cur *kompact.StoredSession) (*kompact.StoredSession, int64, *AutoCompactionReport) {
	opts := pruneOptions(a, kompact.PruneOptions{})
	if !a.Compaction.Prune.Enabled || opts.Check() != nil {
		return cur, 0, nil
	}
	opts.Pinned = PinnedIndexes(&cur.Session)
	r := toolprune.Prune(cur.Messages, opts)
	if r.Noop() {
		return cur, 0, nil
	}
	rep := AutoCompactionReport{TokensBefore: cur.Tokens.WithPending()}
	_, rev, err := s.commitPrune(ctx, cur, r, "automatically ")
	if err != nil {
		rep = s.autoFailed(ctx, cur.ID, rep, AutoFailed, err)
		return nil, 0, &rep
	}
	rep.PruneRevision = rev.Rev
	next, err := s.store.GetSession(ctx, cur.ID)
	if err != nil {
		rep = s.autoFailed(ctx, cur.ID, rep, AutoFailed, err)
		return nil, rev.Rev, &rep
	}
	rep.TokensAfter = next.Tokens.WithPending()
	if ok, _ := due(a, s.contextOf(ctx, a, next.Tokens, next.Breaker)); !ok && !cur.Gateway {
		rep.Status = AutoPruned // the commit closed the breaker, as a compaction's does
		return nil, rev.Rev, &rep
	}
	return next, rev.Rev, nil
}
