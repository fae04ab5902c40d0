package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"kompact"
	"kompact/internal/claudecode"
)

// This file maps Claude Code's continuation after a compaction the gateway
// answered onto the compacted session (docs/gateway.md, "Claude Code"):
// the answer's summary is known by a window of its text (AnsweredMark);
// a new history whose first message is Claude Code's continuation holding
// that window continues the session, under an offset that numbers its
// messages after the ones the session holds.

// answeredWindow is how many bytes of an answered summary's text, from its
// middle, mark it: far more than chance repeats, and clear of the framing
// before and after it.
const answeredWindow = 256

// minAnsweredWindow is the shortest window that marks a summary: a word
// or two could be anyone's.
const minAnsweredWindow = 16

// AnsweredMark is what a gateway state keeps of the summary text it
// answered a compaction request with: a window of it, by its length, its
// rolling hash (rollingHash) and its SHA-256 (hex).
type AnsweredMark struct {
	Len    int    `json:"len"`
	Roll   uint64 `json:"roll"`
	Digest string `json:"digest"`
}

// rollBase is rollingHash's base.
const rollBase = 1099511628211

// rollingHash is the polynomial hash of w (mod 2^64) that foundIn rolls
// over a text's windows.
func rollingHash(w string) uint64 {
	var h uint64
	for i := 0; i < len(w); i++ {
		h = h*rollBase + uint64(w[i])
	}
	return h
}

// markOf is the mark of summary text: a window from the middle (all of it
// when short) of its longest stretch without a tag's angle brackets
// (which an answer may rewrite), kompact's summary prefix left out, cut
// at code points; nil when there is none.
func markOf(text string) *AnsweredMark {
	longest := ""
	for _, part := range strings.FieldsFunc(strings.ReplaceAll(text, kompact.SummaryPrefix, ""), func(r rune) bool { return r == '<' || r == '>' }) {
		if part = strings.TrimSpace(part); len(part) > len(longest) {
			longest = part
		}
	}
	text = longest
	lo, hi := 0, len(text)
	if len(text) > answeredWindow {
		lo = len(text)/2 - answeredWindow/2
		for lo > 0 && !utf8.RuneStart(text[lo]) {
			lo--
		}
		hi = lo + answeredWindow
		for hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi++
		}
	}
	w := text[lo:hi]
	if len(w) < minAnsweredWindow {
		return nil
	}
	sum := sha256.Sum256([]byte(w))
	return &AnsweredMark{Len: len(w), Roll: rollingHash(w), Digest: hex.EncodeToString(sum[:])}
}

// foundIn reports whether text holds the marked window: its rolling hash
// over text's windows of its length, each hit confirmed by the SHA-256.
func (m *AnsweredMark) foundIn(text string) bool {
	if m == nil || m.Len <= 0 || m.Len > len(text) {
		return false
	}
	pow := uint64(1) // rollBase^(Len-1)
	for range m.Len - 1 {
		pow *= rollBase
	}
	h := rollingHash(text[:m.Len])
	for i := 0; ; i++ {
		if h == m.Roll {
			sum := sha256.Sum256([]byte(text[i : i+m.Len]))
			if hex.EncodeToString(sum[:]) == m.Digest {
				return true
			}
		}
		if i+m.Len >= len(text) {
			return false
		}
		h = (h-uint64(text[i])*pow)*rollBase + uint64(text[i+m.Len])
	}
}

// recordAnswered keeps the mark of the summary text session id's
// compaction request was answered with, for Claude Code's continuation to
// be known by.
func (s *Sessions) recordAnswered(ctx context.Context, gs kompact.GatewayStore, id, text string) {
	m := markOf(text)
	if m == nil {
		return
	}
	if _, _, err := s.updateGateway(context.WithoutCancel(ctx), gs, id, func(st *GatewayState) bool { st.Answered = m; return true }); err != nil {
		s.warn(ctx, "gateway: keep the answered summary's mark", "session", id, "error", err.Error())
	}
}

// gatewayContinued finds the session a new history continues when its
// first messages hold Claude Code's continuation with the summary the
// gateway answered for a session of the request's key, and moves that
// session's state onto the request: the session holds the request's
// messages before the continuation's (Claude Code's re-statement of the
// reads the session holds); the continuation's message, which holds the
// user's next prompt too, and the messages after it are appended; the
// request's message i is the session's client message i+Offset. A
// CompactedHistory's summary message (Codex's compaction item, or its
// summary message) is the summary alone, which the session holds as its
// revision's: it counts as held too, and only the messages after it are
// appended. It returns the record and the state the request continues,
// none when it is not such a continuation.
func (s *Sessions) gatewayContinued(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, conv kompact.Conversation, ch Chain) (*kompact.GatewayRecord, *GatewayState, error) {
	if n.SessionID != "" || conv.Len() < 2 {
		return nil, nil, nil
	}
	j, text, ok := continuationText(conv)
	if !ok {
		return nil, nil, nil
	}
	held := j // the request's messages the session holds
	if _, summaryOnly := conv.(CompactedHistory); summaryOnly {
		held = j + 1
	}
	for _, key := range []string{n.key(a, conv), n.LegacyKey} {
		if key == "" {
			continue
		}
		recs, err := gs.FindGatewayRecords(ctx, key, nil, maxGatewayCandidates)
		if err != nil {
			return nil, nil, err
		}
		for i := range recs {
			st, err := decodeGatewayState(recs[i].State)
			if err != nil || st.Answered == nil || !st.Answered.foundIn(text) {
				continue
			}
			if err := s.gatewayAgentOf(ctx, recs[i].SessionID, st); err != nil || st.Agent != a.Name {
				continue
			}
			mark := *st.Answered
			rec, next, err := s.updateGateway(ctx, gs, recs[i].SessionID, func(cur *GatewayState) bool {
				if cur.Answered == nil || *cur.Answered != mark {
					return false // another request of the continuation moved it first
				}
				cur.Offset += cur.ClientCount - held
				cur.setClient(held, ch)
				cur.Sub, cur.Answered = nil, nil
				return true
			})
			if err != nil {
				return nil, nil, err
			}
			if next.matches(ch) {
				return rec, next, nil
			}
		}
	}
	return nil, nil, nil
}

// continuationSearch is how many of a new history's first messages are
// looked at for Claude Code's continuation: it sends it in its first or
// second user message, after the re-stated reads.
const continuationSearch = 4

// CompactedHistory is a history that says where the summary of the
// client's latest compaction stands in it (openai.ResponsesRequest.
// SummaryAt: Codex's compaction item, or its summary message): after a
// compaction the gateway answered, Codex sends its rebuilt history (the
// user's messages, its context, then that summary), which continues the
// compacted session from there.
type CompactedHistory interface {
	SummaryAt() (int, bool)
}

// continuationText finds the summary of a compaction conv continues: where
// a CompactedHistory says it is, else Claude Code's continuation among
// conv's first messages (claudecode.Continuation); the index of its
// message and its text; false when there is none.
func continuationText(conv kompact.Conversation) (int, string, bool) {
	if c, ok := conv.(CompactedHistory); ok {
		return compactedText(conv, c)
	}
	for i := range min(conv.Len()-1, continuationSearch) {
		m, err := conv.Message(i)
		if err != nil || m.Role != kompact.RoleUser {
			continue
		}
		for _, p := range m.Content {
			if p.Type != kompact.PartText {
				continue
			}
			if _, ok := claudecode.Continuation(p.Text); ok {
				return i, p.Text, true
			}
		}
	}
	return 0, "", false
}

// predecessor is the session a new conversation of key continues after
// the client compacted on its own side: when its history holds Claude
// Code's continuation (continuationText), or when the key names one
// conversation of the client (n.OneConversation, opencode's), the newest
// session of key that agent a's gateway made, side calls aside; ""
// otherwise. Claude Code's key names its session id
// (claude-code:AGENT:ID), so its sessions after an upstream compaction
// name the one before.
func (s *Sessions) predecessor(ctx context.Context, a *kompact.Agent, gs kompact.GatewayStore, n GatewayNaming, key string, conv kompact.Conversation) string {
	if _, _, ok := continuationText(conv); !ok && !n.OneConversation {
		return ""
	}
	recs, err := gs.FindGatewayRecords(ctx, key, nil, maxGatewayCandidates)
	if err != nil {
		return ""
	}
	for i := range recs {
		st, err := decodeGatewayState(recs[i].State)
		if recs[i].SideCall || err != nil || s.gatewayAgentOf(ctx, recs[i].SessionID, st) != nil || st.Agent != a.Name {
			continue // a side call continues no conversation
		}
		return recs[i].SessionID
	}
	return ""
}

// compactedText is the index and text of the summary message a
// CompactedHistory holds. It may be the history's last message: Codex
// goes on with a turn it compacted in the middle (mid_turn) with its
// rebuilt history alone, which continues the session appending nothing
// (the summary counts as held: gatewayContinued).
func compactedText(conv kompact.Conversation, c CompactedHistory) (int, string, bool) {
	j, ok := c.SummaryAt()
	if !ok || j >= conv.Len() {
		return 0, "", false
	}
	m, err := conv.Message(j)
	if err != nil {
		return 0, "", false
	}
	var b strings.Builder
	m.Texts(func(s string) { b.WriteString(s) })
	return j, b.String(), true
}
