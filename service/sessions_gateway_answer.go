package service

import (
	"context"
	"strings"

	"kompact"
)

// This file answers a client's own compaction request from the gateway's
// precomputed summary (docs/gateway.md, "Claude Code"): the summary is
// committed as the session's revision, and the client gets its text, so
// that the upstream never sees the request.

// GatewaySummary is a precomputed summary committed to answer a client's
// compaction request.
type GatewaySummary struct {
	// SessionID and Revision name the session and the revision the
	// summary was committed as.
	SessionID string
	Revision  int64
	// Summary is the summary message's text (with the fidelity appendix
	// when the agent asks for it); Recent the client's messages after it
	// that the request holds, as text, for the client to keep.
	Summary string
	Recent  string
	// Tokens is the compaction's estimate of the session's tokens after.
	Tokens int
}

// GatewayAnswerCompaction looks for a ready precomputed summary of the
// session a client's compaction request belongs to and commits it; with
// wait, it first waits for a precompute that runs (up to
// compaction.timeout). history is the request without its instruction:
// only a session of agent a whose client messages it continues, as a
// turn's must (GatewayState.matches), is answered for, found by n as a
// turn finds its session; so a client that names another's session, or
// shares its key, gets no summary of a history that is not its own. It
// returns nil when there is none: the request then goes upstream.
func (s *Sessions) GatewayAnswerCompaction(ctx context.Context, a *kompact.Agent, n GatewayNaming, history kompact.Conversation, wait bool) *GatewaySummary {
	gs, ok := s.store.(kompact.GatewayStore)
	if !ok {
		return nil
	}
	ch := ChainOf(history)
	rec, st := s.answerableSession(ctx, a, gs, n, history, ch)
	if rec == nil || (st.PreviewID == "" && !(wait && st.leased("", s.now()))) {
		return nil
	}
	id := rec.SessionID
	owner := "lease_" + s.leaseID()
	if taken := s.waitLease(ctx, a, gs, id, owner); !taken {
		return nil
	}
	sum, consumed, held := s.commitReady(ctx, gs, id, ch)
	preview := keepPreview
	if consumed {
		preview = ""
	}
	s.releaseLease(ctx, gs, id, owner, preview)
	if sum != nil {
		sum.Recent = recentText(ctx, s, id, held)
	}
	return sum
}

// answerableSession finds the session of agent a that a compaction
// request whose history has chain ch may be answered for
// (GatewayState.answerable): the session n names by X-Kompact-Session,
// or of the sessions of its key the one whose client messages the
// history continues (as a turn finds it), else the newest of the key's
// latest maxGatewayCandidates that the history answers; nil for none.
func (s *Sessions) answerableSession(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, history kompact.Conversation, ch Chain) (*kompact.GatewayRecord, *GatewayState) {
	rec, st, err := s.gatewayFind(ctx, a, gs, n, history, ch)
	if err != nil {
		return nil, nil
	}
	if rec != nil || n.SessionID != "" {
		if rec == nil && st != nil && st.Agent == a.Name && st.answerable(ch) {
			rec, _ = gs.GetGatewayRecord(ctx, n.SessionID)
		}
		if rec == nil || st.Agent != a.Name {
			return nil, nil
		}
		return rec, st
	}
	for _, key := range []string{n.key(a, history), n.LegacyKey} {
		if key == "" {
			continue
		}
		recs, err := gs.FindGatewayRecords(ctx, key, nil, maxGatewayCandidates)
		if err != nil {
			return nil, nil
		}
		for i := range recs {
			st, err := decodeGatewayState(recs[i].State)
			if err == nil && st.Agent == a.Name && st.answerable(ch) {
				return &recs[i], st
			}
		}
	}
	return nil, nil
}

// commitReady commits session id's precomputed summary, under its lease,
// when the request's history ch still continues the session; it reports
// whether the preview was used up, and how many of the client's messages
// the session held.
func (s *Sessions) commitReady(ctx context.Context, gs kompact.GatewayStore, id string, ch Chain) (*GatewaySummary, bool, int) {
	rec, err := gs.GetGatewayRecord(ctx, id)
	if err != nil {
		return nil, false, 0
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil || st.PreviewID == "" || !st.answerable(ch) {
		return nil, false, 0
	}
	head, err := s.store.GetSessionHead(ctx, id)
	if err != nil {
		return nil, false, 0
	}
	ctx = withTrigger(ctx, logGateway)
	rep, ok := s.applyPrecomputed(ctx, id, st.PreviewID, head)
	if !ok {
		return nil, true, 0 // gone, or no longer applies: not to be tried again
	}
	sum := &GatewaySummary{SessionID: id, Revision: rep.Revision, Tokens: rep.TokensAfter}
	sum.Summary = summaryText(ctx, s, id)
	return sum, true, st.ClientCount
}

// summaryText is the text of session id's summary: the messages that are
// not the client's (the summary message and what keeps company with it).
func summaryText(ctx context.Context, s *Sessions, id string) string {
	var parts []string
	s.eachMessage(ctx, id, func(m *kompact.Message) {
		if clientIndex(m.ID) < 0 {
			m.Texts(func(t string) { parts = append(parts, t) })
		}
	})
	return strings.Join(parts, "\n\n")
}

// recentText renders the client's messages after session id's summary
// that the session held when the request was matched to it (index below
// n: the request's, not the ones a later request added) as text: a line naming each message's role, then its
// text and tool calls.
func recentText(ctx context.Context, s *Sessions, id string, n int) string {
	var b strings.Builder
	seen := false
	s.eachMessage(ctx, id, func(m *kompact.Message) {
		i := clientIndex(m.ID)
		if i < 0 {
			seen = true
			return
		}
		if !seen || i >= n {
			return
		}
		b.WriteString("[" + string(m.Role) + "]\n")
		m.Texts(func(t string) { b.WriteString(t + "\n") })
		for _, c := range m.ToolCalls {
			args := ""
			if c.Arguments != nil {
				args = *c.Arguments
			}
			b.WriteString("(tool call " + c.Name + " " + args + ")\n")
		}
		b.WriteString("\n")
	})
	return strings.TrimSpace(b.String())
}

// eachMessage calls fn with each of session id's messages, in order (none
// when it cannot be read).
func (s *Sessions) eachMessage(ctx context.Context, id string, fn func(*kompact.Message)) {
	cur, err := s.store.GetSession(context.WithoutCancel(ctx), id)
	if err != nil {
		s.warn(ctx, "gateway: read the session after its summary", "session", id, "error", err.Error())
		return
	}
	for i := range cur.Messages {
		fn(&cur.Messages[i])
	}
}
