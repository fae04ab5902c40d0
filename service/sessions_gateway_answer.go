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
// session a client's compaction request conv belongs to (named by n; the
// newest session of the conversation's key) and commits it; with wait, it
// first waits for a precompute that runs (up to compaction.timeout). It
// returns nil when there is none: the request then goes upstream.
func (s *Sessions) GatewayAnswerCompaction(ctx context.Context, a *kompact.Agent, n GatewayNaming, conv kompact.Conversation, wait bool) *GatewaySummary {
	gs, ok := s.store.(kompact.GatewayStore)
	if !ok {
		return nil
	}
	id := n.SessionID
	if id == "" {
		recs, err := gs.FindGatewayRecords(ctx, n.key(a, conv), nil, 1)
		if err != nil || len(recs) == 0 {
			return nil
		}
		id = recs[0].SessionID
	}
	rec, err := gs.GetGatewayRecord(ctx, id)
	if err != nil {
		return nil
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil || st.Agent != a.Name || (st.PreviewID == "" && !(wait && st.leased("", s.now()))) {
		return nil
	}
	owner := "lease_" + s.leaseID()
	if taken := s.waitLease(ctx, a, gs, id, owner); !taken {
		return nil
	}
	sum, consumed := s.commitReady(ctx, gs, id)
	preview := keepPreview
	if consumed {
		preview = ""
	}
	s.releaseLease(ctx, gs, id, owner, preview)
	if sum != nil {
		sum.Recent = recentText(ctx, s, id, conv.Len())
	}
	return sum
}

// commitReady commits session id's precomputed summary, under its lease;
// it reports whether the preview was used up.
func (s *Sessions) commitReady(ctx context.Context, gs kompact.GatewayStore, id string) (*GatewaySummary, bool) {
	rec, err := gs.GetGatewayRecord(ctx, id)
	if err != nil {
		return nil, false
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil || st.PreviewID == "" {
		return nil, false
	}
	head, err := s.store.GetSessionHead(ctx, id)
	if err != nil {
		return nil, false
	}
	ctx = withTrigger(ctx, logGateway)
	rep, ok := s.applyPrecomputed(ctx, id, st.PreviewID, head)
	if !ok {
		return nil, true // gone, or no longer applies: not to be tried again
	}
	sum := &GatewaySummary{SessionID: id, Revision: rep.Revision, Tokens: rep.TokensAfter}
	sum.Summary = summaryText(ctx, s, id)
	return sum, true
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
// that the request holds (index below n: not the ones the client keeps
// after it itself) as text: a line naming each message's role, then its
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
