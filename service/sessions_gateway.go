package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"

	"kompact"
)

// This file is the compaction gateway's turn (docs/gateway.md): find the
// session behind a chat-completions request, store the messages it does
// not have yet, compact when due (sessions_gateway_compact.go) and say
// what to forward; then record the upstream's usage.

// maxGatewayCandidates is how many of a request's chains the first lookup
// of its session asks for (gatewayLookup), and how many records beyond
// one a chain each lookup reads at most.
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
	// the session's, under an X-Kompact-Session id), and NotStored says
	// it in one of the GatewayNot* words.
	Stored    bool
	Skipped   string
	NotStored string
	Head      int
	Summary   []kompact.Message
	From      int
	// Appended counts the messages this request added to the session.
	Appended int
	// Compaction is what a compaction due before this turn did (nil when
	// none was due); Precomputed says it applied a precomputed summary.
	Compaction  *AutoCompactionReport
	Precomputed bool
	// Precompute says a compaction started in the background for a later
	// turn.
	Precompute bool
	// Version and Generation are the session's as the turn left it
	// (StoredSession.Version and Generation).
	Version    int64
	Generation int64
	// agent is the agent whose gateway took the turn, for what
	// GatewayUsage starts after it.
	agent *kompact.Agent
}

// Why a gateway request was not stored (GatewayTurn.NotStored).
const (
	// GatewayNotReadable: a message the gateway cannot read (the legacy
	// role "function", say); such a conversation is never stored or
	// compacted.
	GatewayNotReadable = "unreadable-message"
	// GatewayNotContinued: the history is not the one of the session
	// X-Kompact-Session names (the client edited or dropped a message).
	GatewayNotContinued = "diverged"
	// GatewayNotKept: the store failed, or keeps no gateway sessions.
	GatewayNotKept = "store-failed"
)

// unreadableMessage is the error of a request message the gateway cannot
// read into kompact's form.
type unreadableMessage struct{ err error }

func (e *unreadableMessage) Error() string { return e.err.Error() }
func (e *unreadableMessage) Unwrap() error { return e.err }

// gatewaySession is a gateway session while a turn works on it.
type gatewaySession struct {
	id    string
	rec   *kompact.GatewayRecord
	state *GatewayState
	head  *kompact.StoredSession
	added int
}

// GatewayAgent returns the agent called name when its gateway is on
// (gateway.enabled); otherwise ENotFound.
func (s *Sessions) GatewayAgent(name string) (*kompact.Agent, error) {
	a, err := AgentOf(s.agents, name)
	if err != nil {
		return nil, err
	}
	if !a.Gateway.Enabled {
		return nil, kompact.Errorf(kompact.ENotFound, "agent %q has no gateway", name).
			WithFixes("Set agents." + name + ".gateway.enabled: true in the configuration and restart the server (docs/gateway.md).")
	}
	return a, nil
}

// GatewayTurn takes a chat-completions request for agent a's gateway, its
// conversation named by sessionID (the X-Kompact-Session header) or, when
// that is "", by ConversationKey. Whatever goes wrong in the bookkeeping,
// the request is still forwarded: as it came, with Skipped saying why.
func (s *Sessions) GatewayTurn(ctx context.Context, a *kompact.Agent, sessionID string, conv kompact.Conversation) *GatewayTurn {
	return s.GatewayTurnWith(ctx, a, GatewayNaming{SessionID: sessionID}, GatewayPolicy{}, conv)
}

// GatewayNaming says how a gateway request names its conversation.
type GatewayNaming struct {
	// SessionID is the X-Kompact-Session header's id ("" for none).
	SessionID string
	// Key, when SessionID is "", names the conversation instead of
	// ConversationKey (the Messages face's "claude-code:" and Claude
	// Code's session id); NewID is the id its first session gets (taken:
	// NewID and a suffix; "" or not a session id: a new gw_ id).
	Key, NewID string
	// LegacyKey, when not "", is the key Key's conversations were stored
	// under before it (the Messages face's "claude-code:ID", which named
	// no agent): a request Key finds no session for looks there too, for
	// a session of this agent only.
	LegacyKey string
	// OneConversation says Key names one conversation of the client (its
	// own session id, as opencode's): a new history under it, one the
	// client reshaped (after its own compaction, say), continues the
	// newest earlier session of the key (GatewayState.ContinuedFrom),
	// as Claude Code's continuation does under its key.
	OneConversation bool
	// SideCall is the face's word that the request is a one-shot side
	// call of a client known to send them (opencode's, Codex's and
	// Claude Code's title requests), told by the client's identity and
	// the request's shape, never by its words (docs/gateway.md, "Side
	// calls"). The session such a request makes is stored whole but
	// marked (kompact.GatewayRecord.SideCall: the session list leaves it
	// out unless asked), gets an id of its own (never NewID) and is never
	// a later session's predecessor; the first request that continues it
	// clears the mark. A request that names its session
	// (SessionID), or whose history holds an answer (an assistant or a
	// tool message), is never one. Side calls are kept under a key of
	// their own (sideKey), so that a conversation never joins one that
	// opens with the same messages; a request of the side call's shape
	// that continues one finds it there first.
	SideCall bool
	// Face is the face the request comes through (GatewayFace…), kept
	// with the session it makes (GatewayState.Face); "" for the one its
	// agent's llm.api implies (the Messages face, or chat completions).
	Face string
	// side says the request is a side call; sideShaped that the face
	// said so, whatever its history holds (resolveSideCall).
	side, sideShaped bool
}

// resolveSideCall decides the face's SideCall for conv: a request that
// names no session and whose history holds no answer (only system and
// user messages, read up to the first other one) is a side call.
func (n GatewayNaming) resolveSideCall(conv kompact.Conversation) GatewayNaming {
	n.sideShaped = n.SideCall && n.SessionID == ""
	n.side = n.sideShaped
	for i := 0; n.side && i < conv.Len(); i++ {
		m, err := conv.Message(i)
		n.side = err == nil && (m.Role == kompact.RoleSystem || m.Role == kompact.RoleUser)
	}
	return n
}

// sideKey is the key side calls of a conversation of key are kept under.
func sideKey(key string) string { return "side-call:" + key }

// GatewayPolicy is what the gateway may do to a face's conversations: the
// face's declared behaviour (httpapi's gatewayFace), the same for each of
// its turns.
type GatewayPolicy struct {
	// StoreOnly stores the conversation and precomputes its compaction,
	// but never compacts before a turn nor changes what is forwarded: the
	// client compacts on its own side (Claude Code).
	StoreOnly bool
	// Continue only stores a request that continues a session: none is
	// made for it (a client's compaction request, whose history the
	// client may have reshaped).
	Continue bool
}

// GatewayTurnWith is GatewayTurn with the conversation named by n, under
// the face's policy p.
func (s *Sessions) GatewayTurnWith(ctx context.Context, a *kompact.Agent, n GatewayNaming, p GatewayPolicy, conv kompact.Conversation) *GatewayTurn {
	gs, ok := s.store.(kompact.GatewayStore)
	if !ok {
		return &GatewayTurn{Skipped: "the store keeps no gateway sessions", NotStored: GatewayNotKept}
	}
	sessionID := n.SessionID
	ch := ChainOf(conv)
	n = n.resolveSideCall(conv)
	g, err := s.gatewayStore(ctx, a, gs, n, p, conv, ch, false)
	for tries := 1; kompact.ErrorCodeOf(err) == kompact.EConflict && tries < 4; tries++ {
		// Another request of the conversation came between, or the
		// session was rewritten: read it again first.
		g, err = s.gatewayStore(ctx, a, gs, n, p, conv, ch, true)
	}
	switch {
	case err != nil:
		s.warn(ctx, "gateway: request not stored", "agent", a.Name, "session", sessionID, "error", err.Error())
		why := GatewayNotKept
		if errors.As(err, new(*unreadableMessage)) {
			why = GatewayNotReadable
		}
		return &GatewayTurn{SessionID: sessionID, Skipped: kompact.AsError(err).Message, NotStored: why}
	case g == nil:
		s.warn(ctx, "gateway: the request's history is not its session's; it is forwarded as sent and not stored",
			"agent", a.Name, "session", sessionID)
		return &GatewayTurn{SessionID: sessionID, Skipped: "diverged", NotStored: GatewayNotContinued}
	}
	t := &GatewayTurn{SessionID: g.id, Stored: true, Appended: g.added, agent: a}
	if p.StoreOnly {
		s.gatewayPrecompute(ctx, a, gs, g, t)
	} else {
		s.gatewayCompaction(ctx, a, gs, g, ch, t)
		t.Head, t.Summary, t.From = g.state.forward(ch)
	}
	if g.head != nil { // nil when the session could not be read after its compaction
		t.Version, t.Generation = g.head.Version, g.head.Generation
	}
	return t
}

// gatewayStore finds or makes the session of a request and stores the
// messages it does not have; nil (no error) when the request diverges
// from the session its X-Kompact-Session names. With verify, or when
// there is nothing to append, it reads the session's head first and
// derives the state again when the session was rewritten (gatewayRefresh);
// otherwise the append itself is refused (EConflict) when the session was
// rewritten since the state was derived, and the caller retries with
// verify.
func (s *Sessions) gatewayStore(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, p GatewayPolicy, conv kompact.Conversation, ch Chain, verify bool) (*gatewaySession, error) {
	sessionID := n.SessionID
	rec, st, err := s.gatewayFind(ctx, a, gs, n, conv, ch)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		if (sessionID != "" && st != nil) || p.Continue {
			return nil, nil // the named session's history is not this one
		}
		if rec, st, err = s.gatewayContinued(ctx, a, gs, n, conv, ch); err != nil {
			return nil, err
		}
		if rec == nil {
			return s.gatewayCreate(ctx, a, gs, n, conv, ch)
		}
		verify = true // the session was compacted: derive its state again
	}
	g := &gatewaySession{id: rec.SessionID, rec: rec, state: st}
	if verify || conv.Len() == st.ClientCount {
		if err := s.gatewayRefresh(ctx, gs, g, ch); err != nil {
			return nil, err
		}
		if !g.state.matches(ch) { // the session lost messages it cannot get back in their place
			s.warn(ctx, "gateway: the session no longer holds the client's history in order; the request is not stored there",
				"session", g.id)
			if sessionID != "" {
				return nil, nil
			}
			return s.gatewayCreate(ctx, a, gs, n, conv, ch)
		}
	}
	if err := s.gatewayAppend(ctx, gs, g, conv, ch); err != nil {
		return nil, err
	}
	return g, s.gatewayRefresh(ctx, gs, g, ch)
}

// gatewayFind returns the record a request continues and its state; no
// record when there is none (with the named session's state when it
// exists but the request does not continue it).
func (s *Sessions) gatewayFind(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, conv kompact.Conversation, ch Chain) (*kompact.GatewayRecord, *GatewayState, error) {
	if sessionID := n.SessionID; sessionID != "" {
		if err := kompact.ValidateSessionID(sessionID); err != nil {
			return nil, nil, err
		}
		rec, err := gs.GetGatewayRecord(ctx, sessionID)
		if kompact.ErrorCodeOf(err) == kompact.ENotFound {
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		st, err := decodeGatewayState(rec.State)
		if err == nil {
			err = s.gatewayAgentOf(ctx, sessionID, st)
		}
		if err != nil {
			return nil, nil, err
		}
		if st.Agent != a.Name {
			s.warn(ctx, "gateway: X-Kompact-Session names another agent's session; the request is forwarded as sent and not stored",
				"agent", a.Name, "session", sessionID, "session_agent", st.Agent)
			return nil, st, nil
		}
		if !st.matches(ch) {
			return nil, st, nil
		}
		return rec, st, nil
	}
	return s.gatewayLookupNamed(ctx, gs, a, n, conv, ch)
}

// gatewayLookupNamed is gatewayLookup under the request's key (for a
// request of a side call's shape that may continue one, under the side
// calls' key first), then under its LegacyKey for a session of agent a.
func (s *Sessions) gatewayLookupNamed(ctx context.Context, gs kompact.GatewayStore, a *kompact.Agent, n GatewayNaming, conv kompact.Conversation, ch Chain) (*kompact.GatewayRecord, *GatewayState, error) {
	if n.sideShaped && !n.side {
		rec, st, err := s.gatewayLookup(ctx, gs, sideKey(n.conversationKey(a, conv)), ch, "")
		if rec != nil || err != nil {
			return rec, st, err
		}
	}
	rec, st, err := s.gatewayLookup(ctx, gs, n.key(a, conv), ch, "")
	if rec != nil || err != nil || n.LegacyKey == "" || n.side {
		return rec, st, err
	}
	return s.gatewayLookup(ctx, gs, n.LegacyKey, ch, a.Name)
}

// key is the key of a request that names no session: its
// conversationKey, or for a side call that key's sideKey.
func (n GatewayNaming) key(a *kompact.Agent, conv kompact.Conversation) string {
	if n.side {
		return sideKey(n.conversationKey(a, conv))
	}
	return n.conversationKey(a, conv)
}

// conversationKey is the conversation key of a request that names no
// session: Key, or ConversationKey.
func (n GatewayNaming) conversationKey(a *kompact.Agent, conv kompact.Conversation) string {
	if n.Key != "" {
		return n.Key
	}
	return conversationKey(a, conv)
}

// gatewayLookup returns the record of key that a request with chain ch
// continues, and its state: of the records whose chain is one of the
// request's, the one that holds the most of its messages (the newest of
// equals); none when there is none. With agent, only a session of that
// agent is taken (a key that does not name the agent). It asks for the request's chains from
// the longest down, a batch at a time, so that a conversation's next turn
// (a few messages past what its session holds) costs one query however
// many sessions share the key, and a new conversation one per
// MaxGatewayChains of its messages.
func (s *Sessions) gatewayLookup(ctx context.Context, gs kompact.GatewayStore, key string, ch Chain, agent string) (*kompact.GatewayRecord, *GatewayState, error) {
	batch := maxGatewayCandidates
	for hi := len(ch) - 1; hi >= 1; hi -= batch {
		if hi < len(ch)-1 {
			batch = kompact.MaxGatewayChains
		}
		chains := make([]string, 0, min(batch, hi))
		for k := hi; k >= 1 && len(chains) < batch; k-- {
			chains = append(chains, ch.at(k))
		}
		recs, err := gs.FindGatewayRecords(ctx, key, chains, len(chains)+maxGatewayCandidates)
		if err != nil {
			return nil, nil, err
		}
		var best *kompact.GatewayRecord
		var bestState *GatewayState
		for i := range recs {
			st, err := decodeGatewayState(recs[i].State)
			if err == nil && agent != "" {
				if err = s.gatewayAgentOf(ctx, recs[i].SessionID, st); err == nil && st.Agent != agent {
					continue
				}
			}
			if err == nil && st.matches(ch) && (best == nil || st.ClientCount > bestState.ClientCount) {
				best, bestState = &recs[i], st
			}
		}
		if best != nil {
			return best, bestState, nil
		}
	}
	return nil, nil, nil
}

// gatewayAgentOf fills in st.Agent from the session's head when the state
// was written without it; the next write of the state keeps it.
func (s *Sessions) gatewayAgentOf(ctx context.Context, id string, st *GatewayState) error {
	if st.Agent != "" {
		return nil
	}
	head, err := s.store.GetSessionHead(ctx, id)
	if err != nil {
		return err
	}
	st.Agent = head.Agent
	return nil
}

// conversationKey is ConversationKey of conv for agent a, reading roles
// from the messages.
func conversationKey(a *kompact.Agent, conv kompact.Conversation) string {
	return ConversationKey(a.Name, conv, func(i int) kompact.Role {
		m, err := conv.Message(i)
		if err != nil {
			return ""
		}
		return m.Role
	})
}

// clientMessages reads the request's messages [from:] for the session,
// each with its gatewayMessageID.
func clientMessages(conv kompact.Conversation, from, offset int) ([]kompact.Message, error) {
	msgs := make([]kompact.Message, 0, conv.Len()-from)
	for i := from; i < conv.Len(); i++ {
		m, err := conv.Message(i)
		if err != nil {
			return nil, &unreadableMessage{err}
		}
		m.ID = gatewayMessageID(i + offset)
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// gatewayCreate makes the session of a new conversation with all its
// messages. A conversation named by its key gets, in turn, the ids
// createIDs gives, the same for every request of the same history: when
// one is taken and a session of the key now holds the request's history
// (another request of the conversation made it first, a moment ago), it
// is EConflict, and the caller's retry joins that session; when the id is
// another history's, the next id is tried.
func (s *Sessions) gatewayCreate(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, conv kompact.Conversation, ch Chain) (*gatewaySession, error) {
	msgs, err := clientMessages(conv, 0, 0)
	if err != nil {
		return nil, err
	}
	st := &GatewayState{Agent: a.Name, DerivedAt: 1, Face: n.Face, ContextHead: contextHead(conv, len(msgs))}
	st.setClient(conv.Len(), ch)
	sess := &kompact.Session{Agent: a.Name, Messages: msgs, Pinned: contextPins(conv, 0, msgs)}
	if n.SessionID != "" {
		return s.gatewayCreateAs(ctx, gs, n.SessionID, "session:"+n.SessionID, sess, st, false)
	}
	if s.newID == nil {
		return nil, kompact.Errorf(kompact.EInternal, "no id source for gateway sessions (SessionsConfig.NewID)")
	}
	key, newID, side := n.key(a, conv), n.NewID, n.side
	if side {
		newID = "" // the client's id is its conversation's
	} else {
		st.ContinuedFrom = s.predecessor(ctx, a, gs, n, key, conv)
	}
	for _, id := range createIDs(newID, key, st.ClientChain) {
		g, err := s.gatewayCreateAs(ctx, gs, id, key, sess, st, side)
		if kompact.ErrorCodeOf(err) != kompact.EConflict {
			return g, err
		}
		rec, _, lerr := s.gatewayLookupNamed(ctx, gs, a, n, conv, ch)
		if lerr != nil {
			return nil, lerr
		}
		if rec != nil {
			return nil, kompact.Errorf(kompact.EConflict, "another request of the conversation made its session %q first", rec.SessionID).
				WithFixes("Find the session again and continue it.")
		}
	}
	return s.gatewayCreateAs(ctx, gs, "gw_"+s.newID(), key, sess, st, side)
}

// maxCreateIDs is how many of createIDs' ids a new conversation tries
// before a random one.
const maxCreateIDs = 8

// createIDs are the ids a new conversation of key whose chain is chain
// tries, in order: the client's id (newID, when it is a session id) and
// then ids made from it and the history, or ids made from the key and
// the history alone. Two requests of the same history try the same ids,
// so that the store's one session per id lets only one of them create
// each.
func createIDs(newID, key, chain string) []string {
	client := newID != "" && kompact.ValidateSessionID(newID) == nil
	var ids []string
	if client {
		ids = append(ids, newID)
	}
	for k := range maxCreateIDs {
		sum := sha256.Sum256([]byte("kompact gateway id v1\x00" + key + "\x00" + chain + "\x00" + strconv.Itoa(k)))
		h := hex.EncodeToString(sum[:16])
		if client {
			// The client's id names an earlier history of the
			// conversation (Claude Code's after its own compaction): a
			// session beside it.
			ids = append(ids, continuedID(newID, h))
		} else {
			ids = append(ids, "gw_"+h)
		}
	}
	return ids
}

// gatewayCreateAs creates the gateway session id of sess (its agent,
// messages and pins) under key, with state st, marked a side call when
// side.
func (s *Sessions) gatewayCreateAs(ctx context.Context, gs kompact.GatewayStore, id, key string, sess *kompact.Session, st *GatewayState, side bool) (*gatewaySession, error) {
	rec := kompact.GatewayRecord{Key: key, Chain: st.ClientChain, State: st.encode(), SideCall: side}
	c := *sess
	c.ID = id
	if _, err := gs.CreateGatewaySession(ctx, &c, rec); err != nil {
		return nil, err
	}
	head, err := s.store.GetSessionHead(ctx, id)
	if err != nil {
		return nil, err
	}
	return &gatewaySession{id: id, state: st, head: head, added: len(sess.Messages)}, nil
}

// continuedID is the id of a later session of the conversation whose
// first session is id: id, "-" and the start of a new id, within the
// session id rule's length.
func continuedID(id, fresh string) string {
	if len(fresh) > 12 {
		fresh = fresh[:12]
	}
	fresh = "-" + fresh
	if len(id)+len(fresh) > kompact.MaxSessionIDLen {
		id = id[:kompact.MaxSessionIDLen-len(fresh)]
	}
	return id + fresh
}

// gatewayAppend appends the request's messages the session does not hold,
// moving the state's chain on and pinning the ones that are the client's
// injected context (contextPins) in the same write.
func (s *Sessions) gatewayAppend(ctx context.Context, gs kompact.GatewayStore, g *gatewaySession, conv kompact.Conversation, ch Chain) error {
	n := conv.Len()
	if n == g.state.ClientCount {
		return nil
	}
	msgs, err := clientMessages(conv, g.state.ClientCount, g.state.Offset)
	if err != nil {
		return err
	}
	next := *g.state
	next.setClient(n, ch)
	// Only onto the list the state was derived from: after a rewrite the
	// session may hold fewer of the client's messages than ClientCount.
	u := kompact.GatewayUpdate{Chain: next.ClientChain, State: next.encode(), Rewritten: max(next.DerivedAt, 1),
		Pin: contextPins(conv, g.state.ClientCount, msgs)}
	rec, added, err := gs.SwapGatewayRecord(ctx, g.id, g.rec.Seq, u, msgs)
	if err != nil {
		return err
	}
	g.rec, g.state, g.added = rec, &next, len(msgs)
	if added != nil && added.Tokens != nil { // the session's head, without reading it again
		g.head = &kompact.StoredSession{Session: kompact.Session{ID: g.id, Agent: added.Agent}, Version: added.Version, Generation: added.Generation,
			Tokens: *added.Tokens, Breaker: added.Breaker, Rewritten: added.Rewritten, Gateway: true}
	}
	return nil
}

// gatewayRefresh reads the session's head and, when the session was
// rewritten since the state was derived (a compaction, a restore, an
// undo, by anyone), derives it again from the session's messages: the
// substitution, and how many of the client's messages the session holds
// (a restore takes back the ones sent after its revision; the client's
// next request brings them again). A session that no longer holds the
// client's messages in order gets a state that matches no request.
func (s *Sessions) gatewayRefresh(ctx context.Context, gs kompact.GatewayStore, g *gatewaySession, ch Chain) error {
	if g.head == nil {
		head, err := s.store.GetSessionHead(ctx, g.id)
		if err != nil {
			return err
		}
		g.head = head
	}
	if g.state.DerivedAt == g.head.Rewritten {
		return nil
	}
	sc, head, err := s.scanGatewaySession(ctx, g.id)
	if err != nil {
		return err
	}
	rec, st, err := s.updateGateway(ctx, gs, g.id, func(st *GatewayState) bool {
		if st.DerivedAt == head.Rewritten || !st.matches(ch) {
			return false // derived already, or moved on, by another request
		}
		held := sc.held(st.ClientCount + st.Offset)
		st.DerivedAt = head.Rewritten
		if held < 0 || held < st.Offset {
			st.Sub, st.ClientCount, st.ClientChain = nil, 0, "" // matches no request
			return true
		}
		st.Sub = nil
		if st.Offset == 0 { // a substitution is of the chat face's histories, which never continue so
			st.Sub = sc.result(held, ch)
		}
		st.setClient(held-st.Offset, ch)
		return true
	})
	if err != nil {
		return err
	}
	g.rec, g.state = rec, st
	return nil
}

// scanGatewaySession reads session id whole, in one snapshot, for what
// gatewayRefresh derives from it; it returns the scan and the session's
// head as the snapshot had it.
func (s *Sessions) scanGatewaySession(ctx context.Context, id string) (*substitutionScan, *kompact.StoredSession, error) {
	sc := &substitutionScan{count: -1}
	var head *kompact.StoredSession
	i := 0
	err := s.store.StreamSession(ctx, id, func(h *kompact.StoredSession) error { head, sc.pinned = h, h.Pinned; return nil }, func(b []byte) error {
		m, err := kompact.DecodeMessage(b, i)
		if err != nil {
			return err
		}
		i++
		sc.add(m)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return sc, head, nil
}

// updateGateway changes session id's gateway state with change (which
// reports whether there is anything to write) and writes it, reading it
// again when another write came between.
func (s *Sessions) updateGateway(ctx context.Context, gs kompact.GatewayStore, id string, change func(*GatewayState) bool) (*kompact.GatewayRecord, *GatewayState, error) {
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
		next, _, err := gs.SwapGatewayRecord(ctx, id, rec.Seq, kompact.GatewayUpdate{Chain: st.ClientChain, State: st.encode()}, nil)
		if kompact.ErrorCodeOf(err) == kompact.EConflict && tries < 8 {
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
// unless the session changed since the turn; then, when that count
// reached gateway.precompute_ratio, it starts the precompute at once
// (one per session at a time), so that a compaction right after this
// turn finds its summary ready or running.
func (s *Sessions) GatewayUsage(ctx context.Context, t *GatewayTurn, u *kompact.Usage) {
	if !t.Stored || u == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	n := upstreamTokens(u)
	set := kompact.SessionSettings{TokenCount: &n, At: &kompact.SessionAt{Generation: t.Generation, Version: t.Version}}
	if _, err := s.store.UpdateSettings(ctx, t.SessionID, set); err != nil {
		if kompact.ErrorCodeOf(err) != kompact.EConflict {
			s.warn(ctx, "gateway: record the token count", "session", t.SessionID, "error", err.Error())
		}
		return
	}
	s.precomputeAfter(ctx, t)
}

// precomputeAfter starts the precompute of turn t's session when the
// token count its answer reported reached gateway.precompute_ratio.
func (s *Sessions) precomputeAfter(ctx context.Context, t *GatewayTurn) {
	gs, ok := s.store.(kompact.GatewayStore)
	if !ok || t.agent == nil || t.agent.Gateway.Precompute() <= 0 || !t.agent.AutoCompacts() {
		return
	}
	rec, err := gs.GetGatewayRecord(ctx, t.SessionID)
	if err != nil {
		return
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil {
		return
	}
	head, err := s.store.GetSessionHead(ctx, t.SessionID)
	if err != nil {
		return
	}
	if precomputeDue(t.agent, s.contextOf(ctx, t.agent, head.Tokens, head.Breaker), st, s.now()) {
		t.Precompute = s.startPrecompute(ctx, t.agent, gs, t.SessionID) || t.Precompute
	}
}

// upstreamTokens is the input tokens of an upstream's usage report as the
// session records them: each figure within [0, MaxTokenFigure], as every
// figure kompact takes from a provider, and so their sum, so that the
// trigger's sums cannot overflow (a report of 2^63-1 tokens).
func upstreamTokens(u *kompact.Usage) int {
	n := int64(0)
	for _, f := range []int64{u.InputOther, u.InputCacheRead, u.InputCacheCreation} {
		n += min(max(f, 0), kompact.MaxTokenFigure)
	}
	return int(min(n, kompact.MaxTokenFigure))
}
