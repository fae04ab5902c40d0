package service

import (
	"context"

	"kompact"
)

// AppendReport is what an append or a continue turn did to a stored
// session: its version after it and the messages added, with their ids,
// its context window after it, and what automatic compaction did.
type AppendReport struct {
	Version        int64                 `json:"version"`
	Messages       []kompact.Message     `json:"messages"`
	Context        *SessionContext       `json:"context,omitempty"`
	AutoCompaction *AutoCompactionReport `json:"auto_compaction,omitempty"`
}

// AppendOptions say what an append does besides appending.
type AppendOptions struct {
	// AutoCompact starts an automatic compaction in the background when
	// one is due after the append.
	AutoCompact bool
	// Done, when not nil, receives the report of that compaction once it
	// ran (not when it was no longer due).
	Done func(AutoCompactionReport)
}

// Append checks msgs and appends them to session id. The report has the
// context figures after the append when it can give them: the append does
// not fail for want of them.
func (s *Sessions) Append(ctx context.Context, id string, msgs []kompact.Message, opts AppendOptions) (*AppendReport, error) {
	if err := kompact.ValidateMessages(msgs); err != nil {
		return nil, err
	}
	added, err := s.store.AppendMessages(ctx, id, msgs)
	if err != nil {
		return nil, err
	}
	c, auto := s.afterAppend(ctx, id, added, opts)
	return &AppendReport{Version: added.Version, Messages: added.Messages, Context: c, AutoCompaction: auto}, nil
}

// Continue appends a user message of text content to session id, sends
// the agent's system prompt and the whole session to the agent's LLM
// (the Compactor's), and appends the reply. Before that, like kimi-cli's
// step, it compacts the session automatically when due; when that fails,
// nothing is appended and the turn is not sent. When the LLM fails, the
// user message stays appended (RetryTurn answers it later). After the
// turn, the session's token count is the reply's usage total.
func (s *Sessions) Continue(ctx context.Context, id, content string) (*AppendReport, error) {
	cur, a, err := s.openTurn(ctx, id)
	if err != nil {
		return nil, err
	}
	user := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(content)}}
	auto, err := s.compactBeforeTurn(ctx, a, cur, user)
	if err != nil {
		return nil, err
	}
	added, err := s.store.AppendMessages(ctx, id, []kompact.Message{user})
	if err != nil {
		return nil, err
	}
	return s.answerTurn(ctx, a, id, added.Messages[0], auto)
}

// RetryTurn answers the user message a Continue appended but whose reply
// failed: when session id ends with a user message, it sends the turn
// again (compacting first when due, as Continue does) and appends the
// reply, without appending the user message again. A session that does not
// end with a user message is EConflict: there is no turn to retry.
func (s *Sessions) RetryTurn(ctx context.Context, id string) (*AppendReport, error) {
	cur, a, err := s.openTurn(ctx, id)
	if err != nil {
		return nil, err
	}
	n := len(cur.Messages)
	if n == 0 || cur.Messages[n-1].Role != kompact.RoleUser {
		return nil, kompact.Errorf(kompact.EConflict, "session %q does not end with an unanswered user message: there is no turn to retry", id).
			WithFixes(`Send a new message with {"content": "…"}; reload the session to see its last message.`)
	}
	auto, err := s.compactBeforeTurn(ctx, a, cur, kompact.Message{})
	if err != nil {
		return nil, err
	}
	return s.answerTurn(ctx, a, id, cur.Messages[n-1], auto)
}

// openTurn opens session id for a turn: it needs the Compactor's LLM, and
// a session that is not the gateway's (GatewayOwned).
func (s *Sessions) openTurn(ctx context.Context, id string) (*kompact.StoredSession, *kompact.Agent, error) {
	cur, a, err := s.Open(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if cur.Gateway {
		return nil, nil, GatewayOwned(id)
	}
	if s.comp.LLM == nil {
		return nil, nil, kompact.Errorf(kompact.EInternal, "no LLM client configured")
	}
	return cur, a, nil
}

// answerTurn sends session id, which ends with user, to a's LLM and appends
// the reply: the second half of a turn.
func (s *Sessions) answerTurn(ctx context.Context, a *kompact.Agent, id string, user kompact.Message, auto *AutoCompactionReport) (*AppendReport, error) {
	after, err := s.store.GetSession(ctx, id)
	if err != nil {
		return nil, err
	}
	reply, usage, err := replyWithin(ctx, s.comp.LLM, a, after.Messages)
	if err != nil {
		return nil, err
	}
	final, err := s.store.AppendMessages(ctx, id, []kompact.Message{reply})
	if err != nil {
		return nil, err
	}
	return &AppendReport{
		Version: final.Version, Messages: []kompact.Message{user, final.Messages[0]}, AutoCompaction: auto,
		Context: s.afterTurn(ctx, a, id, final, usage),
	}, nil
}

// afterTurn records a turn's usage total as the session's token count
// (kimi-cli's update_token_count(usage.total)) and returns the figures
// after it; without usage, the reply counts as pending.
func (s *Sessions) afterTurn(ctx context.Context, a *kompact.Agent, id string, final *kompact.Appended, usage *kompact.Usage) *SessionContext {
	acct := final.Tokens
	if usage != nil {
		next := kompact.TokenAccount{}.AfterTurn(*usage)
		if err := s.store.SetTokenCount(context.WithoutCancel(ctx), id, next.TokenCount); err != nil {
			s.warn(ctx, "record the turn's token count", "session", id, "error", err.Error())
		} else {
			acct = &next
		}
	}
	if acct == nil {
		return nil
	}
	c := s.contextOf(ctx, a, *acct, final.Breaker)
	return &c
}

// GatewayOwned is the refusal of a turn on gateway session id: its client
// owns the conversation and sends it whole with every request, so a
// message added here would sit between the client's messages, and the
// next compaction would send it upstream in a summary.
func GatewayOwned(id string) error {
	return kompact.Errorf(kompact.EConflict, "session %q is a gateway session: its conversation belongs to the client that sends it through the gateway, "+
		"so a message continued here would sit between the client's messages and reach its upstream in the next summary", id).
		WithFixes("Send the message from that client, through the gateway (docs/gateway.md).",
			"Or export the session and import it under another id to continue it here.")
}
