package kompact

import "context"

// This file is what the compaction gateway (gateway.go, docs/gateway.md) needs from a
// store and from the surface that reads a chat-completions request.

// MaxGatewayChains is how many chains one FindGatewayRecords takes at most.
const MaxGatewayChains = 1000

// GatewayConfig is an agent's "gateway" block: whether the agent answers
// OpenAI's chat-completions protocol at /gateway/{agent}/v1 and how.
type GatewayConfig struct {
	// Enabled turns the agent's gateway routes on (off by default: they
	// spend the agent's API key for whoever may call the server).
	Enabled bool
	// ForwardAuthorization sends the client's own Authorization header
	// upstream instead of the agent's api_key_env.
	ForwardAuthorization bool
	// PrecomputeRatio is the share of the trigger's token count at which
	// the gateway starts a compaction in the background (nil: the
	// default, DefaultPrecomputeRatio; 0 turns precompute off).
	PrecomputeRatio *float64
	// StreamUsage asks the upstream for usage in streams the client did
	// not ask it for (nil: true), and does not pass that chunk on.
	StreamUsage *bool
	Compaction  string // gateway.compaction: "wait" (a client's compaction request waits for a precompute) or ""
}

// DefaultPrecomputeRatio is gateway.precompute_ratio's default.
const DefaultPrecomputeRatio = 0.8

// Precompute returns gateway.precompute_ratio, or its default.
func (g *GatewayConfig) Precompute() float64 {
	if g.PrecomputeRatio == nil {
		return DefaultPrecomputeRatio
	}
	return *g.PrecomputeRatio
}

// AskStreamUsage returns gateway.stream_usage, or its default (true).
func (g *GatewayConfig) AskStreamUsage() bool { return g.StreamUsage == nil || *g.StreamUsage }

// Conversation is the messages of one chat-completions request as the
// gateway reads them (openai.ChatRequest implements it): how many there
// are, a digest of each one's content, and each one in kompact's form.
type Conversation interface {
	// Len is the number of messages.
	Len() int
	// Digest is a SHA-256 of message i's content: equal for messages the
	// client sent alike (the same JSON, white space aside).
	Digest(i int) [32]byte
	// Message reads message i into kompact's form; an error is EInvalid.
	Message(i int) (Message, error)
}

// GatewayRecord is a gateway session's bookkeeping as a store keeps it:
// the session it belongs to, the conversation key that finds it, a
// sequence number that every change bumps, and the state itself, which the
// store does not read (GatewayState's JSON form).
type GatewayRecord struct {
	SessionID string
	Key       string
	// Chain is the chain after the client's messages the session holds
	// (GatewayState.ClientChain, "" for none): FindGatewayRecords finds
	// the record by it.
	Chain string
	// Seq is 1 when the record is created and grows by one with every
	// SwapGatewayRecord.
	Seq   int64
	State []byte
	// SideCall marks the session of a client's one-shot side call (a
	// title request: service.GatewayNaming.SideCall): set when the
	// session is created, cleared for good by the first
	// SwapGatewayRecord that appends messages (the client continued it).
	SideCall bool
}

// GatewayStore is a Store that keeps gateway sessions (both of kompact's
// stores are). Deleting a session deletes its record; a session's record
// lives as long as the session.
type GatewayStore interface {
	// CreateGatewaySession creates s as CreateSession does, with the record r (its
	// Key, Chain, State and SideCall; its SessionID is s's, its Seq 1), in one write.
	// A taken id is EConflict.
	CreateGatewaySession(ctx context.Context, s *Session, r GatewayRecord) (*SessionInfo, error)
	// GetGatewayRecord returns the record of session id; ENotFound when
	// there is no such session or it is not a gateway session.
	GetGatewayRecord(ctx context.Context, id string) (*GatewayRecord, error)
	// FindGatewayRecords returns the records with key whose Chain is one of chains
	// (every record of key when chains is nil), the one created last first, at most
	// limit of them (16 when limit <= 0). It takes at most MaxGatewayChains chains.
	FindGatewayRecords(ctx context.Context, key string, chains []string, limit int) ([]GatewayRecord, error)
	// SwapGatewayRecord replaces the state of session id's record with u.State when its
	// Seq is still seq and, when u.Rewritten is not 0, the session's Rewritten is still
	// u.Rewritten (else EConflict, and nothing changes), and appends msgs (none is
	// allowed) to the session in the same write, checked as AppendMessages checks them,
	// pinning those u.Pin names. It returns the record after the swap, and what the append changed (nil without
	// msgs). Appending msgs clears the record's SideCall: the conversation went on.
	SwapGatewayRecord(ctx context.Context, id string, seq int64, u GatewayUpdate, msgs []Message) (*GatewayRecord, *Appended, error)
}

// GatewayUpdate is what one SwapGatewayRecord writes, and on what
// condition besides the record's Seq.
type GatewayUpdate struct {
	// Chain and State are the record's new chain and state.
	Chain string
	State []byte
	// Rewritten, when not 0, is the session's StoredSession.Rewritten the
	// update was made for: a session rewritten since (a compaction, a
	// restore, an undo took messages away or put them back) is EConflict,
	// so that the gateway never appends after a list it has not seen.
	Rewritten int64
	// Pin names messages among the ones the swap appends, by the ids
	// they are given, to add to the session's pinned messages
	// (Session.Pinned) in the same write: after the ones it pins
	// already, in Pin's order, each once (an id pinned already is
	// passed over). The list stays within MaxPinned: ids past the bound
	// are left unpinned and the swap goes on (the messages are stored,
	// and summarised as any other). An id that is no appended message's,
	// or Pin without messages, is EInvalid and nothing changes. With
	// Pin empty the session's pins are not touched.
	Pin []string
}
