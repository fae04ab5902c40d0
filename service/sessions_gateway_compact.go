package service

import (
	"context"
	"time"

	"kompact"
)

// This file is the gateway's compaction (docs/gateway.md, "Compaction"):
// kimi-cli's trigger before a turn, the precompute that runs ahead of it,
// and the lease in the session's gateway state that lets one compaction
// at a time run for a session, across every instance over the store.

// gatewayPoll is how often a turn that waits for another's compaction
// looks at the session's state again.
const gatewayPoll = 50 * time.Millisecond

// leaseGrace is how long a lease outlives its compaction's deadline.
const leaseGrace = 5 * time.Second

// maxLeaseTTL bounds how long a lease lasts without being renewed: its
// holder renews it every third of that while it compacts, so that the
// lease of an instance killed while compacting ends soon. (A variable for
// the tests.)
var maxLeaseTTL = 15 * time.Second

// leaseTTL is how long a lease of agent a's sessions lasts unrenewed: its
// compaction's deadline and leaseGrace, at most maxLeaseTTL.
func leaseTTL(a *kompact.Agent) time.Duration {
	return min(a.Compaction.LLMTimeout()+leaseGrace, maxLeaseTTL)
}

// gatewayCompaction compacts the session before the turn when kimi-cli's
// trigger says it is due, or starts the precompute when the session has
// reached gateway.precompute_ratio of the trigger.
func (s *Sessions) gatewayCompaction(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, g *gatewaySession, ch Chain, t *GatewayTurn) {
	c := s.contextOf(ctx, a, g.head.Tokens, g.head.Breaker)
	if ok, reason := due(a, c); ok {
		rep, hit := s.gatewayCompactNow(ctx, a, gs, g, ch)
		if rep != nil && rep.Reason == "" {
			rep.Reason = reason
		}
		t.Compaction, t.Precomputed = rep, hit
		return
	}
	if precomputeDue(a, c, g.state, s.now()) {
		t.Precompute = s.startPrecompute(ctx, a, gs, g.id)
	}
}

// gatewayPrecompute starts the precompute when the session has reached
// gateway.precompute_ratio of the trigger (a due compaction too): the
// turn of a client that compacts on its own side (GatewayPolicy.StoreOnly).
func (s *Sessions) gatewayPrecompute(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, g *gatewaySession, t *GatewayTurn) {
	if g.head == nil {
		return
	}
	c := s.contextOf(ctx, a, g.head.Tokens, g.head.Breaker)
	if precomputeDue(a, c, g.state, s.now()) {
		t.Precompute = s.startPrecompute(ctx, a, gs, g.id)
	}
}

// precomputeDue says whether a session with context c should compact in
// the background now: the precompute is on, automatic compaction can run,
// the token count has reached gateway.precompute_ratio of the count at
// which the agent's compaction type's trigger fires, and no summary is ready or being made.
func precomputeDue(a *kompact.Agent, c SessionContext, st *GatewayState, now time.Time) bool {
	ratio := a.Gateway.Precompute()
	if ratio <= 0 || !a.AutoCompacts() || c.AutoPaused || c.MaxContextSize <= 0 || st.PreviewID != "" || st.leased("", now) {
		return false
	}
	scaled := int(float64(c.TokenCount+c.PendingTokens) / ratio)
	return TypeFor(a).ContextStatus(kompact.TokenAccount{TokenCount: scaled}, c.MaxContextSize, a.Compaction.Auto).ShouldCompact
}

// takeLease makes owner the holder of session id's compaction lease,
// unless someone else holds it; it reports whether owner holds it.
func (s *Sessions) takeLease(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id, owner string) (bool, error) {
	taken := false
	_, _, err := s.updateGateway(ctx, gs, id, func(st *GatewayState) bool {
		now := s.now()
		if taken = !st.leased(owner, now); taken {
			st.LeaseOwner, st.LeaseUntil = owner, now.Add(leaseTTL(a))
		}
		return taken
	})
	return taken && err == nil, err
}

// keepLease renews owner's lease on session id every third of its TTL
// until the returned stop is called.
func (s *Sessions) keepLease(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id, owner string) (stop func()) {
	done := make(chan struct{})
	ttl := leaseTTL(a)
	go func() {
		tick := time.NewTicker(ttl / 3)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			_, _, err := s.updateGateway(context.WithoutCancel(ctx), gs, id, func(st *GatewayState) bool {
				if st.LeaseOwner != owner {
					return false
				}
				st.LeaseUntil = s.now().Add(ttl)
				return true
			})
			if err != nil {
				s.warn(ctx, "gateway: renew the compaction lease", "session", id, "error", err.Error())
			}
		}
	}()
	return func() { close(done) }
}

// keepPreview, as releaseLease's preview, leaves the session's
// precomputed summary as it is recorded.
const keepPreview = "\x00keep"

// releaseLease gives owner's lease back and records preview as the
// session's precomputed summary ("" for none; keepPreview leaves it),
// when owner still holds the lease: a lease that lapsed and another took
// is not its to change. A new preview that is not recorded (the lease
// lost, the write failed) is removed, so that it does not fill the
// preview budget.
func (s *Sessions) releaseLease(ctx context.Context, gs kompact.GatewayStore, id, owner, preview string) {
	ctx = context.WithoutCancel(ctx)
	held := false
	_, _, err := s.updateGateway(ctx, gs, id, func(st *GatewayState) bool {
		if held = st.LeaseOwner == owner; !held {
			return false
		}
		st.LeaseOwner, st.LeaseUntil = "", time.Time{}
		if preview != keepPreview {
			st.PreviewID = preview
		}
		return true
	})
	if err != nil {
		s.warn(ctx, "gateway: release the compaction lease", "session", id, "error", err.Error())
	}
	if (err != nil || !held) && preview != "" && preview != keepPreview {
		if _, err := s.store.TakePreview(ctx, id, preview, s.now()); err != nil && kompact.ErrorCodeOf(err) != kompact.ENotFound {
			s.warn(ctx, "gateway: remove a precomputed summary that was not recorded", "session", id, "error", err.Error())
		}
	}
}

// gatewayCompactNow compacts a due session before the turn: it waits for a
// compaction that runs for the session already (a precompute, another
// instance's turn), then applies the precomputed summary when there is
// one, else compacts as automatic compaction does. It reports what was
// done (nil when another's compaction made it no longer due) and whether
// a precomputed summary was applied; g is up to date after it.
func (s *Sessions) gatewayCompactNow(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, g *gatewaySession, ch Chain) (*AutoCompactionReport, bool) {
	owner := "lease_" + s.leaseID()
	if !s.waitLease(ctx, a, gs, g.id, owner) {
		return &AutoCompactionReport{Status: AutoAlreadyRuns}, false
	}
	ctx = withTrigger(ctx, logGateway)
	s.gateway.start(g.id)
	stop := s.keepLease(ctx, a, gs, g.id, owner)
	rep, hit, preview := s.compactLeased(ctx, a, gs, g)
	stop()
	s.releaseLease(ctx, gs, g.id, owner, preview)
	s.gateway.done(g.id)
	g.head = nil // read again: the compaction changed it
	if err := s.gatewayRefresh(ctx, gs, g, ch); err != nil {
		s.warn(ctx, "gateway: read the session after its compaction", "session", g.id, "error", err.Error())
	}
	return rep, hit
}

// waitLease takes session id's lease for owner, waiting while another
// holds it, up to the agent's compaction.timeout; it reports whether
// owner holds it.
func (s *Sessions) waitLease(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id, owner string) bool {
	deadline := s.now().Add(a.Compaction.LLMTimeout())
	for {
		taken, err := s.takeLease(ctx, a, gs, id, owner)
		if taken || err != nil || !s.now().Before(deadline) {
			return taken
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(gatewayPoll):
		}
	}
}

// compactLeased compacts session g under the lease, when it is still due:
// the precomputed summary first, else a compaction now. It returns the
// report, whether the precomputed summary was applied, and the preview to
// keep as the session's precomputed summary (none once one is applied;
// keepPreview when it did not get as far as reading it). A compaction now
// runs in one of the action slots: AutoBusy when none is free (the
// turn goes as sent, and a later one compacts).
func (s *Sessions) compactLeased(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, g *gatewaySession) (*AutoCompactionReport, bool, string) {
	rec, err := gs.GetGatewayRecord(ctx, g.id)
	if err != nil {
		return &AutoCompactionReport{Status: AutoFailed, Error: kompact.AsError(err)}, false, keepPreview
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil {
		return &AutoCompactionReport{Status: AutoFailed, Error: kompact.AsError(err)}, false, keepPreview
	}
	head, err := s.store.GetSessionHead(ctx, g.id)
	if err != nil {
		return &AutoCompactionReport{Status: AutoFailed, Error: kompact.AsError(err)}, false, keepPreview
	}
	if ok, _ := due(a, s.contextOf(ctx, a, head.Tokens, head.Breaker)); !ok {
		return nil, false, keepPreview // compacted meanwhile
	}
	if st.PreviewID != "" {
		if rep, ok := s.applyPrecomputed(ctx, g.id, st.PreviewID, head); ok {
			return rep, true, ""
		}
	}
	release, ok := s.slots.TryTake()
	if !ok {
		return &AutoCompactionReport{Status: AutoBusy}, false, ""
	}
	defer release()
	cur, err := s.store.GetSession(ctx, g.id)
	if err != nil {
		return &AutoCompactionReport{Status: AutoFailed, Error: kompact.AsError(err)}, false, ""
	}
	rep := s.autoCompact(ctx, a, cur)
	return &rep, false, ""
}

// applyPrecomputed commits the precomputed summary kept as preview pid,
// with the messages appended since it read the session after it (Rebase),
// as an automatic compaction; it reports false when the preview is gone
// or no longer applies.
func (s *Sessions) applyPrecomputed(ctx context.Context, id, pid string, head *kompact.StoredSession) (*AutoCompactionReport, bool) {
	rep, _, ok := s.applyPrecomputedAs(ctx, id, pid, head, false, "")
	return rep, ok
}

// applyPrecomputedAs is applyPrecomputed, recorded as a manual compaction
// when manual (a person asked for it: the client's /compact), origin
// (GatewayAsk.Origin) after "precomputed" in its note; it returns the
// committed result too.
func (s *Sessions) applyPrecomputedAs(ctx context.Context, id, pid string, head *kompact.StoredSession, manual bool, origin string) (*AutoCompactionReport, *kompact.Result, bool) {
	pv, err := s.takePreview(ctx, id, pid)
	if err != nil || pv.outcome.Result == nil {
		return nil, nil, false
	}
	res := pv.outcome.Result
	c := res.Commit()
	c.Note += " (" + joinNote("precomputed", origin) + ")"
	if manual {
		c.Kind = kompact.RevisionCompaction
	} else {
		c.Kind, c.Note = kompact.RevisionAutoCompaction, "automatically "+c.Note
	}
	c.Version, c.Generation = pv.read.version, pv.read.generation
	_, info, err := s.store.CommitCompaction(context.WithoutCancel(ctx), id, c)
	if err != nil {
		s.warn(ctx, "gateway: the precomputed summary did not apply", "session", id, "error", err.Error())
		return nil, nil, false
	}
	s.logCommitted(ctx, id, res, info.Rev, pid)
	return &AutoCompactionReport{Status: AutoCompacted, Revision: info.Rev,
		TokensBefore: head.Tokens.WithPending(), TokensAfter: res.EstimatedTokenCount}, res, true
}

// startPrecompute takes one of the action slots and session id's lease,
// and compacts the session in the background, keeping the result as a
// preview that a later turn applies; it reports whether it started (not
// when no slot is free: a later turn starts it).
func (s *Sessions) startPrecompute(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id string) bool {
	release, ok := s.slots.TryTake()
	if !ok {
		return false
	}
	owner := "lease_" + s.leaseID()
	if taken, _ := s.takeLease(ctx, a, gs, id, owner); !taken {
		release()
		return false
	}
	s.gateway.start(id)
	go func() {
		defer release()
		defer s.gateway.done(id)
		s.precompute(withTrigger(context.WithoutCancel(ctx), logPrecompute), a, gs, id, owner)
	}()
	return true
}

// precompute compacts session id as automatic compaction does, without
// committing: the result becomes a preview, which the lease's release
// records as the session's precomputed summary. A failure counts in the
// breaker.
func (s *Sessions) precompute(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, id, owner string) {
	preview := ""
	stop := s.keepLease(ctx, a, gs, id, owner)
	defer func() {
		stop()
		s.releaseLease(ctx, gs, id, owner, preview)
	}()
	cur, err := s.store.GetSession(ctx, id)
	if err != nil {
		s.warn(ctx, "gateway: precompute", "session", id, "error", err.Error())
		return
	}
	out, rep := s.autoRun(ctx, a, cur)
	if out == nil {
		s.warn(ctx, "gateway: precompute", "session", id, "status", string(rep.Status))
		return
	}
	pid, err := s.putPreview(ctx, id, readOf(cur), *out, true)
	if err != nil {
		s.warn(ctx, "gateway: keep the precomputed summary", "session", id, "error", err.Error())
		return
	}
	preview = pid
	out.Status, out.PreviewID = kompact.OutcomePreview, pid
	s.logEnded(ctx, id, *out, "")
}

// leaseID returns a new random id for a lease's owner.
func (s *Sessions) leaseID() string {
	if s.newID == nil {
		return "local"
	}
	return s.newID()
}
