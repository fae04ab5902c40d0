// Token accounting and the automatic-compaction breaker (migration 0004;
// see sqlite/tokens.go, which this follows).

package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

// account is the session's stored token columns.
type account struct{ count, pending, failures int64 }

func readAccount(ctx context.Context, tx pgx.Tx, id string) (account, error) {
	var a account
	err := tx.QueryRow(ctx, `SELECT token_count, pending_tokens, auto_failures FROM sessions WHERE id = $1`, id).
		Scan(&a.count, &a.pending, &a.failures)
	return a, err
}

// addPending adds the estimate of appended messages to the session's
// pending figure, unless the whole list is estimated anyway, and fills out's
// account.
func addPending(ctx context.Context, tx pgx.Tx, id string, msgs []kompact.Message, out *kompact.Appended) error {
	var a account
	if err := tx.QueryRow(ctx, `UPDATE sessions SET pending_tokens = CASE WHEN pending_tokens < 0 THEN pending_tokens ELSE pending_tokens + $1 END
		WHERE id = $2 RETURNING token_count, pending_tokens, auto_failures, agent`, kompact.EstimateTokens(msgs), id).Scan(&a.count, &a.pending, &a.failures, &out.Agent); err != nil {
		return err
	}
	out.Tokens, out.Breaker = storeutil.AppendedAccount(a.count, a.pending, a.failures)
	return nil
}

// setAccount records the figures after a rewrite (a commit or a restore)
// and closes the breaker when closeBreaker.
func setAccount(ctx context.Context, tx pgx.Tx, id string, count, pending int64, closeBreaker bool) error {
	q := `UPDATE sessions SET token_count = $1, pending_tokens = $2 WHERE id = $3`
	if closeBreaker {
		q = `UPDATE sessions SET token_count = $1, pending_tokens = $2, auto_failures = 0 WHERE id = $3`
	}
	_, err := tx.Exec(ctx, q, count, pending, id)
	return err
}

// SetTokenCount records a provider's token figure for the session.
func (s *Store) SetTokenCount(ctx context.Context, id string, n int) error {
	if n < 0 {
		return kompact.Errorf(kompact.EInvalid, "token count %d is negative", n).WithFixes("Send the provider's usage total, 0 or more.")
	}
	return s.write(ctx, "set token count", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE sessions SET token_count = $1, pending_tokens = 0 WHERE id = $2`, n, id)
		if err == nil && tag.RowsAffected() == 0 {
			return notFound(id)
		}
		return err
	})
}

// RecordAutoFailure counts a failed automatic compaction of the session.
func (s *Store) RecordAutoFailure(ctx context.Context, id string) (kompact.CompactionBreaker, error) {
	var b kompact.CompactionBreaker
	err := s.write(ctx, "record automatic compaction failure", func(tx pgx.Tx) error {
		var n int64
		err := tx.QueryRow(ctx, `UPDATE sessions SET auto_failures = auto_failures + 1 WHERE id = $1 RETURNING auto_failures`, id).Scan(&n)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		b.AutoFailures = int(n)
		return err
	})
	return b, err
}
