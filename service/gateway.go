package service

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kompact"
)

// This file is the compaction gateway's pure part (docs/gateway.md): how a
// conversation's messages are chained and named, the state a gateway
// session keeps, and the substitution a compaction makes of the client's
// messages. The workflow is sessions_gateway.go's.

// Chain holds the running digests of a conversation's messages: Chain[i]
// covers messages [0:i], so Chain[0] is the empty conversation's and
// Chain[Len()] the whole one's. Two conversations with equal Chain[i]
// begin with the same i messages.
type Chain [][32]byte

// chainSeed starts every chain.
var chainSeed = sha256.Sum256([]byte("kompact gateway chain v1"))

// ChainOf returns the chain of c's messages.
func ChainOf(c kompact.Conversation) Chain {
	ch := make(Chain, c.Len()+1)
	ch[0] = chainSeed
	var buf [64]byte
	for i := range c.Len() {
		d := c.Digest(i)
		copy(buf[:32], ch[i][:])
		copy(buf[32:], d[:])
		ch[i+1] = sha256.Sum256(buf[:])
	}
	return ch
}

// at returns the chain after n messages in hex, "" when the conversation
// is shorter.
func (ch Chain) at(n int) string {
	if n < 0 || n >= len(ch) {
		return ""
	}
	return fmt.Sprintf("%x", ch[n][:])
}

// ConversationKey names a conversation that has no X-Kompact-Session
// header: a SHA-256, in hex, over the agent's name, the digest of its
// system prompt (zeros without one) and the digest of its first user
// message (zeros without one). The system prompt is the conversation's
// own (a Messages request's top-level "system": SystemDigester) or else
// its leading system message. roles gives message i's role.
func ConversationKey(agent string, c kompact.Conversation, role func(i int) kompact.Role) string {
	var sys, user [32]byte
	own := false
	if sd, ok := c.(SystemDigester); ok {
		sys, own = sd.SystemDigest()
	}
	for i := range c.Len() {
		r := role(i)
		if i == 0 && r == kompact.RoleSystem && !own {
			sys = c.Digest(0)
			continue
		}
		if r == kompact.RoleUser {
			user = c.Digest(i)
			break
		}
	}
	h := sha256.New()
	h.Write([]byte("kompact gateway key v1\x00" + agent + "\x00"))
	h.Write(sys[:])
	h.Write(user[:])
	return fmt.Sprintf("%x", h.Sum(nil))
}

// SystemDigester is a conversation whose system prompt is not one of its
// messages (a Messages request's top-level "system"): SystemDigest is its
// digest, false when it has none.
type SystemDigester interface {
	SystemDigest() ([32]byte, bool)
}

// gatewayMessageID is the id the gateway gives the client's message i in
// its session: "g_" and i, so that the session says which of the
// client's messages each stored message is.
func gatewayMessageID(i int) string { return "g_" + strconv.Itoa(i) }

// clientIndex returns the client message index of a stored message's id,
// or -1 when the gateway did not store it from the client.
func clientIndex(id string) int {
	digits, ok := strings.CutPrefix(id, "g_")
	if !ok || digits == "" || (len(digits) > 1 && digits[0] == '0') {
		return -1
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// GatewayState is what the gateway keeps about one session besides its
// messages (GatewayRecord.State holds its JSON form).
type GatewayState struct {
	// ClientCount is how many of the client's messages the session holds
	// (it holds messages [0:ClientCount], some of them compacted);
	// ClientChain is the chain after them (Chain, in hex).
	ClientCount int    `json:"client_count"`
	ClientChain string `json:"client_chain"`
	// Offset numbers the client's messages in the session: the request's
	// message i is the session's client message i+Offset (gatewayMessageID).
	// 0 but after Claude Code's continuation of a compaction the gateway
	// answered, which starts a new history of the same session
	// (gatewayContinued).
	Offset int `json:"offset,omitempty"`
	// Answered marks the summary text the gateway last answered the
	// client's compaction request with, until the client continues.
	Answered *AnsweredMark `json:"answered,omitempty"`
	// ContinuedFrom names the session this one continues after the
	// client compacted on its own side (Claude Code's continuation opens
	// its history, with no summary of the gateway's in it): the newest
	// earlier session of the conversation's key, "" for none.
	ContinuedFrom string `json:"continued_from,omitempty"`
	// Face is the gateway face that made the session (GatewayNaming.
	// Face); "" for the one its agent's llm.api implies.
	Face string `json:"face,omitempty"`
	// Agent is the agent whose gateway made the session ("" in a state
	// written before it was kept: the session's own agent then).
	Agent string `json:"agent,omitempty"`
	// ContextHead is how many of the session's first messages are the
	// context its client injects (ContextMarker: Codex's base
	// instructions, skills and permissions, environment), set when the
	// session is made; 0 for every other session, and for one made before
	// it was kept. A compaction's range starts after the ones still
	// pinned (contextRequest).
	ContextHead int `json:"context_head,omitempty"`
	// Sub is the substitution the session's latest compaction makes, nil
	// for none; DerivedAt is the session's Rewritten it was derived at.
	Sub       *Substitution `json:"sub,omitempty"`
	DerivedAt int64         `json:"derived_at,omitempty"`
	// PreviewID is a precomputed compaction kept as a preview, to apply
	// when the compaction becomes due.
	PreviewID string `json:"preview_id,omitempty"`
	// LeaseOwner holds the session's one compaction until LeaseUntil.
	LeaseOwner string    `json:"lease_owner,omitempty"`
	LeaseUntil time.Time `json:"lease_until,omitzero"`
}

// Substitution is what a compaction changes in the messages the gateway
// forwards: the client's messages [Head:Count] become Summary. It applies
// to a request whose first Count messages are the ones compacted (their
// chain is Chain).
type Substitution struct {
	Head    int               `json:"head"`
	Count   int               `json:"count"`
	Chain   string            `json:"chain"`
	Summary []kompact.Message `json:"-"`
	// SummaryJSON is Summary's stored form.
	SummaryJSON []json.RawMessage `json:"summary"`
}

// leased reports whether someone other than owner holds the state's lease
// at now.
func (st *GatewayState) leased(owner string, now time.Time) bool {
	return st.LeaseOwner != "" && st.LeaseOwner != owner && now.Before(st.LeaseUntil)
}

// encode returns the state's JSON form.
func (st *GatewayState) encode() []byte {
	if st.Sub != nil {
		st.Sub.SummaryJSON = st.Sub.SummaryJSON[:0]
		for i := range st.Sub.Summary {
			st.Sub.SummaryJSON = append(st.Sub.SummaryJSON, st.Sub.Summary[i].AppendJSON(nil))
		}
	}
	b, _ := json.Marshal(st) // a struct of strings, numbers and raw JSON: never fails
	return b
}

// decodeGatewayState reads a state's JSON form.
func decodeGatewayState(b []byte) (*GatewayState, error) {
	st := &GatewayState{}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "a gateway session's state does not read: %v", err)
	}
	if st.Sub != nil {
		for i, raw := range st.Sub.SummaryJSON {
			m, err := kompact.DecodeMessage(raw, i)
			if err != nil {
				return nil, kompact.Errorf(kompact.EInternal, "a gateway session's summary does not read: %v", err)
			}
			st.Sub.Summary = append(st.Sub.Summary, m)
		}
	}
	return st, nil
}

// matches reports whether a request with chain ch continues the session:
// it begins with the ClientCount messages the session holds.
func (st *GatewayState) matches(ch Chain) bool {
	return st.ClientCount < len(ch) && ch.at(st.ClientCount) == st.ClientChain
}

// setClient records that the session holds the client's messages [0:n]
// of a request with chain ch.
func (st *GatewayState) setClient(n int, ch Chain) {
	st.ClientCount, st.ClientChain = n, ch.at(n)
}

// answerable reports whether a compaction request whose history (the
// request without its instruction) has chain ch may be answered from the
// session's summary: the history continues the session, as a turn's
// must. A client that re-sends its history reshaped (Claude Code's
// /compact) is matched by the form the turns sent (ResentForms), exactly.
func (st *GatewayState) answerable(ch Chain) bool {
	return st.matches(ch)
}

// ResentForms is a compaction history that the client may send reshaped
// from what its turns sent: ResentForms are the forms the turns may have
// sent it in (anthropic.Request.ResentForms: Claude Code's /compact merges
// the last answer's text into the assistant message before the last tool
// result).
type ResentForms interface {
	ResentForms() []kompact.Conversation
}

// forward returns what to forward of a request with chain ch: the client's
// messages [0:head], then summary, then the client's messages [from:];
// zero values (forward as sent) when no substitution applies to it.
func (st *GatewayState) forward(ch Chain) (head int, summary []kompact.Message, from int) {
	sub := st.Sub
	if sub == nil || sub.Count >= len(ch) || ch.at(sub.Count) != sub.Chain {
		return 0, nil, 0
	}
	return sub.Head, sub.Summary, sub.Count
}

// substitutionScan derives a session's substitution from its messages, in
// order: the leading messages stored from the client's [0:head], then the
// messages the gateway did not store from the client (the summary and
// what kept company with it), up to the first client message after them,
// whose index is where the client's messages take over again. Read on to
// the end, it also tells how many of the client's messages the session
// holds (held).
type substitutionScan struct {
	head    int
	summary []kompact.Message
	count   int
	done    bool
	// next is the index the next client message must have once the
	// client's messages took over again; gap says one did not, or one
	// came out of place before any summary: the session has a hole.
	next int
	gap  bool
	// pinned are the session's pinned ids: a compaction keeps its range's
	// right after the summary, so the substitution holds them too.
	pinned []string
}

// add takes the session's next message; it reports whether the
// substitution needs more.
func (sc *substitutionScan) add(m kompact.Message) bool {
	i := clientIndex(m.ID)
	switch {
	case sc.done:
		if i >= 0 { // a message that is not the client's (a note) leaves no hole
			sc.gap = sc.gap || i != sc.next
			sc.next = i + 1
		}
	case len(sc.summary) == 0 && i == sc.head:
		sc.head++
	case i < 0 || len(sc.summary) > 0 && slices.Contains(sc.pinned, m.ID):
		sc.summary = append(sc.summary, m)
	default:
		sc.count, sc.done, sc.next = i, true, i+1
		sc.gap = len(sc.summary) == 0 // no summary stands for the messages before i
	}
	return !sc.done
}

// held returns how many of the client's messages a session read whole
// holds, [0:held], when its state says n; -1 when they are not in order
// (a hole) or more than n. A summary that no client message follows
// covers every one so far (n).
func (sc *substitutionScan) held(n int) int {
	h := n
	switch {
	case sc.gap:
		return -1
	case sc.done:
		h = sc.next
	case len(sc.summary) == 0:
		h = sc.head
	}
	if h > n {
		return -1
	}
	return h
}

// result returns the substitution the scan found (nil when the session
// holds the client's messages as they came) given the client messages the
// session holds, n, and the request's chain ch, which continues it.
func (sc *substitutionScan) result(n int, ch Chain) *Substitution {
	if len(sc.summary) == 0 {
		return nil
	}
	if !sc.done {
		sc.count = n // the summary covers every client message so far
	}
	if sc.count < sc.head || sc.count >= len(ch) {
		return nil
	}
	return &Substitution{Head: sc.head, Count: sc.count, Chain: ch.at(sc.count), Summary: sc.summary}
}
