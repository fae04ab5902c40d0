package kompact

import (
	"context"
	"errors"
)

// This file is the compaction gateway's turn (docs/gateway.md): find the
// session behind a chat-completions request, store the messages it does
// not have yet, compact when due (sessions_gateway_compact.go) and say
// what to forward; then record the upstream's usage.

// maxGatewayCandidates bounds the sessions one conversation key is matched
// against.
const maxGatewayCandidates = 16

// GatewayTurn is what the gateway does with one request: the session it
// belongs to and what to forward upstream. Head, Summary and From say
// how: the request's messages [0:Head], then Summary, then the request's
// messages [From:]; with Summary nil the request goes out as it came.
type GatewayTurn struct {
	// SessionID names the session ("" when none could be found or made).
	SessionID string
	// Stored says the request's messages are in the session; Skipped says
	// why not, when they are not ("diverged": the client's history is not
	// the session's, under an X-Kompact-Session id).
	Stored  bool
	Skipped string
	Head    int
	Summary []Message
	From    int
	// Appended counts the messages this request added to the session.
	Appended int
	// Compaction is what a compaction due before this turn did (nil when
	// none was due); Precomputed says it applied a precomputed summary.
	Compaction  *AutoCompactionReport
	Precomputed bool
	// Precompute says a compaction started in the background for a later
	// turn.
	Precompute bool
	// Version is the session's version as the turn left it.
	Version int64
}

// gatewaySession is a gateway session while a turn works on it.
type gatewaySession struct {
	id    string
	rec   *GatewayRecord
	state *GatewayState
	head  *StoredSession
	added int
}

// GatewayAgent returns the agent called name when its gateway is on
// (gateway.enabled); otherwise ENotFound.
func (s *Sessions) GatewayAgent(name string) (*Agent, error) {
	a, err := s.agents.Agent(name)
	if err != nil {
		return nil, err
	}
	if !a.Gateway.Enabled {
		return nil, Errorf(ENotFound, "agent %q has no gateway", name).
			WithFixes("Set agents." + name + ".gateway.enabled: true in the configuration and restart the server (docs/gateway.md).")
	}
	return a, nil
}

// GatewayTurn takes a chat-completions request for agent a's gateway, its
// conversation named by sessionID (the X-Kompact-Session header) or, when
// that is "", by ConversationKey. Whatever goes wrong in the bookkeeping,
// the request is still forwarded: as it came, with Skipped saying why.
func (s *Sessions) GatewayTurn(ctx context.Context, a *Agent, sessionID string, conv Conversation) *GatewayTurn {
	gs, ok := s.store.(GatewayStore)
	if !ok {
		return &GatewayTurn{Skipped: "the store keeps no gateway sessions"}
	}
	ch := ChainOf(conv)
	g, err := s.gatewayStore(ctx, a, gs, sessionID, conv, ch)
	for tries := 1; ErrorCodeOf(err) == EConflict && tries < 4; tries++ {
		g, err = s.gatewayStore(ctx, a, gs, sessionID, conv, ch) // another request of the conversation came between
	}
	switch {
	case err != nil:
		s.warn(ctx, "gateway: request not stored", "agent", a.Name, "session", sessionID, "error", err.Error())
		return &GatewayTurn{SessionID: sessionID, Skipped: AsError(err).Message}
	case g == nil:
		return &GatewayTurn{SessionID: sessionID, Skipped: "diverged"}
	}
	t := &GatewayTurn{SessionID: g.id, Stored: true, Appended: g.added}
	s.gatewayCompaction(ctx, a, gs, g, ch, t)
	t.Head, t.Summary, t.From = g.state.forward(ch)
	t.Version = g.head.Version
	return t
}

// gatewayStore finds or makes the session of a request and stores the
// messages it does not have; nil (no error) when the request diverges
// from the session its X-Kompact-Session names.
func (s *Sessions) gatewayStore(ctx context.Context, a *Agent, gs GatewayStore, sessionID string, conv Conversation, ch Chain) (*gatewaySession, error) {
	rec, st, err := s.gatewayFind(ctx, a, gs, sessionID, conv, ch)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		if sessionID != "" && st != nil {
			return nil, nil // the named session's history is not this one
		}
		return s.gatewayCreate(ctx, a, gs, sessionID, conv, ch)
	}
	g := &gatewaySession{id: rec.SessionID, rec: rec, state: st}
	if err := s.gatewayAppend(ctx, gs, g, conv, ch); err != nil {
		return nil, err
	}
	return g, s.gatewayRefresh(ctx, gs, g, ch)
}

// gatewayFind returns the record a request continues and its state; no
// record when there is none (with the named session's state when it
// exists but the request does not continue it).
func (s *Sessions) gatewayFind(ctx context.Context, a *Agent, gs GatewayStore, sessionID string, conv Conversation, ch Chain) (*GatewayRecord, *GatewayState, error) {
	if sessionID != "" {
		if err := ValidateSessionID(sessionID); err != nil {
			return nil, nil, err
		}
		rec, err := gs.GetGatewayRecord(ctx, sessionID)
		if ErrorCodeOf(err) == ENotFound {
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		st, err := decodeGatewayState(rec.State)
		if err != nil || !st.matches(ch) {
			return nil, st, err
		}
		return rec, st, nil
	}
	recs, err := gs.FindGatewayRecords(ctx, conversationKey(a, conv), maxGatewayCandidates)
	if err != nil {
		return nil, nil, err
	}
	var best *GatewayRecord
	var bestState *GatewayState
	for i := range recs {
		st, err := decodeGatewayState(recs[i].State)
		if err == nil && st.matches(ch) && (best == nil || st.ClientCount > bestState.ClientCount) {
			best, bestState = &recs[i], st
		}
	}
	return best, bestState, nil
}

// conversationKey is ConversationKey of conv for agent a, reading roles
// from the messages.
func conversationKey(a *Agent, conv Conversation) string {
	return ConversationKey(a.Name, conv, func(i int) Role {
		m, err := conv.Message(i)
		if err != nil {
			return ""
		}
		return m.Role
	})
}

// clientMessages reads the request's messages [from:] for the session,
// each with its gatewayMessageID.
func clientMessages(conv Conversation, from int) ([]Message, error) {
	msgs := make([]Message, 0, conv.Len()-from)
	for i := from; i < conv.Len(); i++ {
		m, err := conv.Message(i)
		if err != nil {
			return nil, err
		}
		m.ID = gatewayMessageID(i)
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// gatewayCreate makes the session of a new conversation with all its
// messages.
func (s *Sessions) gatewayCreate(ctx context.Context, a *Agent, gs GatewayStore, sessionID string, conv Conversation, ch Chain) (*gatewaySession, error) {
	msgs, err := clientMessages(conv, 0)
	if err != nil {
		return nil, err
	}
	key, id := "session:"+sessionID, sessionID
	if sessionID == "" {
		if s.newID == nil {
			return nil, Errorf(EInternal, "no id source for gateway sessions (SessionsConfig.NewID)")
		}
		key, id = conversationKey(a, conv), "gw_"+s.newID()
	}
	st := &GatewayState{ClientCount: conv.Len(), ClientChain: ch.at(conv.Len()), DerivedAt: 1}
	if _, err := gs.CreateGatewaySession(ctx, &Session{ID: id, Agent: a.Name, Messages: msgs}, key, st.encode()); err != nil {
		return nil, err
	}
	head, err := s.store.GetSessionHead(ctx, id)
	if err != nil {
		return nil, err
	}
	return &gatewaySession{id: id, state: st, head: head, added: len(msgs)}, nil
}

// gatewayAppend appends the request's messages the session does not hold,
// moving the state's chain on in the same write.
func (s *Sessions) gatewayAppend(ctx context.Context, gs GatewayStore, g *gatewaySession, conv Conversation, ch Chain) error {
	n := conv.Len()
	if n == g.state.ClientCount {
		return nil
	}
	msgs, err := clientMessages(conv, g.state.ClientCount)
	if err != nil {
		return err
	}
	next := *g.state
	next.ClientCount, next.ClientChain = n, ch.at(n)
	rec, _, err := gs.SwapGatewayRecord(ctx, g.id, g.rec.Seq, next.encode(), msgs)
	if err != nil {
		return err
	}
	g.rec, g.state, g.added = rec, &next, len(msgs)
	return nil
}

// gatewayRefresh reads the session's head and, when the session was
// rewritten since its substitution was derived (a compaction, a restore,
// an undo, by anyone), derives it again from the session's messages.
func (s *Sessions) gatewayRefresh(ctx context.Context, gs GatewayStore, g *gatewaySession, ch Chain) error {
	head, err := s.store.GetSessionHead(ctx, g.id)
	if err != nil {
		return err
	}
	g.head = head
	if g.state.DerivedAt == head.Rewritten {
		return nil
	}
	sub, err := s.deriveSubstitution(ctx, g.id, g.state.ClientCount, ch)
	if err != nil {
		return err
	}
	rec, st, err := s.updateGateway(ctx, gs, g.id, func(st *GatewayState) bool {
		st.Sub, st.DerivedAt = sub, head.Rewritten
		return true
	})
	if err != nil {
		return err
	}
	g.rec, g.state = rec, st
	return nil
}

// errScanDone ends a session read once the substitution is known.
var errScanDone = errors.New("substitution found")

// deriveSubstitution reads the beginning of session id, as far as the
// first client message after its summary, and returns the substitution it
// makes for a request with chain ch; n is the client messages the session
// holds.
func (s *Sessions) deriveSubstitution(ctx context.Context, id string, n int, ch Chain) (*Substitution, error) {
	var sc substitutionScan
	i := 0
	err := s.store.StreamSession(ctx, id, func(*StoredSession) error { return nil }, func(b []byte) error {
		m, err := DecodeMessage(b, i)
		if err != nil {
			return err
		}
		i++
		if !sc.add(m) {
			return errScanDone
		}
		return nil
	})
	if err != nil && !errors.Is(err, errScanDone) {
		return nil, err
	}
	return sc.result(n, ch), nil
}

// updateGateway changes session id's gateway state with change (which
// reports whether there is anything to write) and writes it, reading it
// again when another write came between.
func (s *Sessions) updateGateway(ctx context.Context, gs GatewayStore, id string, change func(*GatewayState) bool) (*GatewayRecord, *GatewayState, error) {
	for tries := 0; ; tries++ {
		rec, err := gs.GetGatewayRecord(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		st, err := decodeGatewayState(rec.State)
		if err != nil {
			return nil, nil, err
		}
		if !change(st) {
			return rec, st, nil
		}
		next, _, err := gs.SwapGatewayRecord(ctx, id, rec.Seq, st.encode(), nil)
		if ErrorCodeOf(err) == EConflict && tries < 8 {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		return next, st, nil
	}
}

// GatewayUsage records the usage the upstream reported for a turn's
// request as the session's token count (kimi-cli's update_token_count
// with the step's input tokens: the context as the request carried it),
// unless the session changed since the turn.
func (s *Sessions) GatewayUsage(ctx context.Context, t *GatewayTurn, u *Usage) {
	if !t.Stored || u == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	head, err := s.store.GetSessionHead(ctx, t.SessionID)
	if err != nil || head.Version != t.Version {
		return
	}
	if err := s.store.SetTokenCount(ctx, t.SessionID, int(u.Input())); err != nil {
		s.warn(ctx, "gateway: record the token count", "session", t.SessionID, "error", err.Error())
	}
}
