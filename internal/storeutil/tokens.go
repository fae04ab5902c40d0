package storeutil

import (
	"context"
	"encoding/json"

	"kompact"
)

// UnknownPending is the stored pending_tokens of a session whose figure
// the store did not work out when it wrote the list (a session stored
// before kompact kept token figures, a commit without a figure, or a
// restore or undo to a list with a message stored before kompact kept
// text lengths): the whole message list is estimated when read.
const UnknownPending = -1

// Account returns a session's token account and breaker from the stored
// columns: pending UnknownPending (or below) means the estimate of all of
// msgs, as kimi-cli restores a context without a usage record.
func Account(count, pending, failures int64, msgs []kompact.Message) (kompact.TokenAccount, kompact.CompactionBreaker) {
	if pending < 0 {
		return kompact.RestoreTokenAccount(int(count), msgs), kompact.CompactionBreaker{AutoFailures: int(failures)}
	}
	return kompact.TokenAccount{TokenCount: int(count), PendingTokens: int(pending)}, kompact.CompactionBreaker{AutoFailures: int(failures)}
}

// CommitAccount returns the stored token_count and pending_tokens after a
// commit: c.TokenCount and the estimate of the messages appended after the
// commit's base (appended, those of the committed list), or, without a
// figure, the whole list estimated when read (working it out here would
// cost the commit the session's length).
func CommitAccount(c kompact.Commit, appended []kompact.Message) (count, pending int64) {
	if c.TokenCount <= 0 {
		return 0, UnknownPending
	}
	return int64(c.TokenCount), int64(kompact.EstimateTokens(appended))
}

// listEstimate returns the pending figure of a rewritten list without a
// recorded figure (after a restore or an undo): the estimate of the whole
// list (kimi-cli's restore of a context without a usage record), from the
// text lengths the store keeps with the bodies, so that no body is read;
// UnknownPending (estimated from the bodies when read) when a body stored
// before the lengths were kept has none.
func listEstimate(ctx context.Context, tx Tx, id string) (int64, error) {
	chars, ok, err := tx.LiveTextLen(ctx, id)
	if err != nil || !ok {
		return UnknownPending, err
	}
	return chars / 4, nil
}

// AppendedAfter returns the messages of a commit's tail that were appended
// after its base: all of tail when it starts after the base (fast), else
// what follows the skip messages the base itself has after its end.
func AppendedAfter(tail []kompact.Message, fast bool, skip int) []kompact.Message {
	if fast {
		return tail
	}
	return tail[min(len(tail), max(skip, 0)):]
}

// AppendedAccount returns the account an append reports: nil when the
// whole list would have to be estimated (pending UnknownPending).
func AppendedAccount(count, pending, failures int64) (*kompact.TokenAccount, kompact.CompactionBreaker) {
	b := kompact.CompactionBreaker{AutoFailures: int(failures)}
	if pending < 0 {
		return nil, b
	}
	return &kompact.TokenAccount{TokenCount: int(count), PendingTokens: int(pending)}, b
}

// SetTokenCount records a provider's token figure for the session: the
// count becomes n and pending 0.
func (c *Core) SetTokenCount(ctx context.Context, id string, n int) error {
	if n < 0 {
		return kompact.Errorf(kompact.EInvalid, "token count %d is negative", n).WithFixes("Send the provider's usage total, 0 or more.")
	}
	return c.db.Write(ctx, "set token count", func(tx Tx) error {
		return one(id)(tx.SetTokenCount(ctx, id, n))
	})
}

// RecordAutoFailure counts a failed automatic compaction of the session
// and keeps f in its failure log, dropping the oldest beyond
// kompact.MaxAutoFailureLog.
func (c *Core) RecordAutoFailure(ctx context.Context, id string, f kompact.AutoFailure) (kompact.CompactionBreaker, error) {
	var b kompact.CompactionBreaker
	err := c.db.Write(ctx, "record automatic compaction failure", func(tx Tx) error {
		log, err := readFailureLog(ctx, tx, id)
		if err != nil {
			return err
		}
		log = append(log, f)
		log = log[max(0, len(log)-kompact.MaxAutoFailureLog):]
		data, err := json.Marshal(log)
		if err != nil {
			return err
		}
		n, err := tx.AddAutoFailure(ctx, id, data)
		if noRow(err) {
			return NotFound(id)
		}
		b.AutoFailures = int(n)
		return err
	})
	return b, err
}

// AutoFailureLog returns the session's failure log, oldest first.
func (c *Core) AutoFailureLog(ctx context.Context, id string) ([]kompact.AutoFailure, error) {
	var log []kompact.AutoFailure
	err := c.db.Read(ctx, "read the automatic compaction failures", func(tx Tx) error {
		var err error
		log, err = readFailureLog(ctx, tx, id)
		return err
	})
	return log, err
}

// readFailureLog decodes the session's failure log.
func readFailureLog(ctx context.Context, tx Tx, id string) ([]kompact.AutoFailure, error) {
	data, err := tx.AutoFailureLog(ctx, id)
	if noRow(err) {
		return nil, NotFound(id)
	}
	if err != nil {
		return nil, err
	}
	var log []kompact.AutoFailure
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "the failure log of session %q is not the JSON kompact wrote: %v", id, err).
			WithFixes("Report this as a bug; the session itself is unaffected.")
	}
	return log, nil
}
