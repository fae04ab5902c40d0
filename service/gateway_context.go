package service

import (
	"context"
	"strconv"

	"kompact"
)

// A client's injected context (Codex's base instructions, its skills and
// permissions, its <environment_context>: docs/gateway.md, "Codex") is
// stored with the conversation but is not what a summary is for: the
// client sends it again itself after every compaction. The gateway pins
// those messages when it stores them (docs/compaction.md, "Pinned
// messages"): the ones the session is made with, and the ones a later
// request appends (an <environment_context> of a new working directory,
// the context after a summary in the turn that continues a compaction),
// in the same write as the append (kompact.GatewayUpdate.Pin). Every
// compaction keeps them verbatim and leaves them out of the transcript
// its LLM summarises and out of what fidelity counts as sent. Only a
// conversation that tells its context (ContextMarker, the Responses
// face's) gets such pins: every other session is stored as before, byte
// for byte.
//
// A context message equal to one the session pins already is pinned
// too: Codex sends its environment again when it changes, and going back
// to an earlier working directory sends an earlier message again word for
// word; only the latest one, kept in its place after the summary, says
// where the client is now.
//
// A pin alone does not keep the session's first message out of the
// transcript: the kimi type keeps a leading system message before the
// summary and shows it, as kimi-cli does, and a pin on it changes nothing
// (pinnedIn). So the gateway also records how many of the session's
// first messages are context (GatewayState.ContextHead), and every
// compaction of the session starts its range after the ones still pinned
// (contextRequest): the type keeps them before the summary, verbatim, and
// its LLM never reads them.

// ContextMarker is a conversation that tells which of its messages are
// context its client injects rather than the conversation's own words
// (openai.ResponsesRequest.Context).
type ContextMarker interface {
	Context(i int) bool
}

// contextPins returns the ids of msgs (conv's messages from from on, read
// in order) that conv marks as injected context, at most
// kompact.MaxPinned of them; nil when conv marks none or tells none.
func contextPins(conv kompact.Conversation, from int, msgs []kompact.Message) []string {
	cm, ok := conv.(ContextMarker)
	if !ok {
		return nil
	}
	var pins []string
	for i := range msgs {
		if len(pins) == kompact.MaxPinned {
			break
		}
		if cm.Context(from + i) {
			pins = append(pins, msgs[i].ID)
		}
	}
	return pins
}

// contextHead returns the length of the leading run of conv's first n
// messages that conv marks as injected context; 0 when it tells none.
func contextHead(conv kompact.Conversation, n int) int {
	cm, ok := conv.(ContextMarker)
	if !ok {
		return 0
	}
	k := 0
	for k < n && cm.Context(k) {
		k++
	}
	return k
}

// contextRequest returns req, an action on stored session st of agent a,
// with its range starting after the session's client context head
// (contextRange), read from the session's gateway record; req as it is
// for a session that is no gateway session, pins nothing, has no head, or
// whose type takes no range. It reads only the record, never the session.
func (s *Sessions) contextRequest(ctx context.Context, a *kompact.Agent, st *kompact.StoredSession, req kompact.ActionRequest) (kompact.ActionRequest, error) {
	gs, ok := s.store.(kompact.GatewayStore)
	if !ok || !st.Gateway || len(st.Pinned) == 0 || !kompact.OffersOf(a).Range {
		return req, nil
	}
	rec, err := gs.GetGatewayRecord(ctx, st.ID)
	if kompact.ErrorCodeOf(err) == kompact.ENotFound {
		return req, nil
	}
	if err != nil {
		return req, err
	}
	state, err := decodeGatewayState(rec.State)
	if err != nil {
		return req, err
	}
	return contextRange(a, &st.Session, state.ContextHead, req), nil
}

// contextRange returns req with its range starting after the first k of
// s's messages, k the number of leading messages among the first head
// that are still pinned (a user who unpinned them has them summarised
// again): compact_conversation without a start, or with one among them,
// starts at message k; compact_up_to_here with an anchor at or after k is
// the compact_conversation from message k to the anchor (the same plan:
// kimi's optionsOf reads an anchor as the range's end). A request whose
// end or anchor is among them, that names a message s does not hold, or
// that the type would refuse as it is (its error stays the type's), is
// left as it is, as is every request of a type that takes no range.
func contextRange(a *kompact.Agent, s *kompact.Session, head int, req kompact.ActionRequest) kompact.ActionRequest {
	offers := kompact.OffersOf(a)
	k := pinnedHead(s, head)
	if k == 0 || k >= len(s.Messages) || !offers.Range {
		return req
	}
	after := func(ref string) bool { // ref names a message at or after k
		i, err := s.Locate(ref)
		return err == nil && i >= k
	}
	start := s.Messages[k].ID
	if start == "" {
		start = "#" + strconv.Itoa(k+1)
	}
	switch {
	case req.Action == kompact.ActionCompactConversation && req.MessageID == "":
		if req.End != "" && !after(req.End) || req.Start != "" && after(req.Start) {
			return req
		}
		if req.Start != "" {
			if _, err := s.Locate(req.Start); err != nil {
				return req
			}
		}
		req.Start = start
	case req.Action == kompact.ActionCompactUpToHere && offers.UpToHere && req.Start == "" && req.End == "" && after(req.MessageID):
		req.Action, req.Start, req.End, req.MessageID = kompact.ActionCompactConversation, start, req.MessageID, ""
	}
	return req
}

// pinnedHead returns how many of s's first head messages, from the first
// on, are pinned (by id, or by #N), stopping at the first that is not.
func pinnedHead(s *kompact.Session, head int) int {
	pinned := map[int]bool{}
	for _, i := range locate(s, s.Pinned) { // the pins as every compaction reads them
		pinned[i] = true
	}
	k := 0
	for k < head && k < len(s.Messages) && pinned[k] {
		k++
	}
	return k
}
