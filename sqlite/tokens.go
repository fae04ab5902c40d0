// Token accounting and the automatic-compaction breaker (migration 0004):
// bookkeeping columns of the sessions table, written next to the changes
// they follow and never changing the version.

package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"kompact"
	"kompact/internal/storeutil"
)

// readAccount fills s.Tokens and s.Breaker from the session's row. A
// pending figure of -1 means "estimate the whole list" (see
// migrations/0004).
func readAccount(ctx context.Context, tx *sql.Tx, s *kompact.StoredSession) error {
	var count, pending, failures int64
	if err := tx.QueryRowContext(ctx, `SELECT token_count, pending_tokens, auto_failures FROM sessions WHERE id = ?`, s.ID).
		Scan(&count, &pending, &failures); err != nil {
		return err
	}
	s.Tokens, s.Breaker = storeutil.Account(count, pending, failures, s.Messages)
	return nil
}

// addPending adds the estimate of appended messages to the session's
// pending figure, unless the whole list is estimated anyway, and fills out's
// account.
func addPending(ctx context.Context, tx *sql.Tx, id string, msgs []kompact.Message, out *kompact.Appended) error {
	var count, pending, failures int64
	if err := tx.QueryRowContext(ctx, `UPDATE sessions SET pending_tokens = CASE WHEN pending_tokens < 0 THEN pending_tokens ELSE pending_tokens + ? END
		WHERE id = ? RETURNING token_count, pending_tokens, auto_failures, agent`, kompact.EstimateTokens(msgs), id).Scan(&count, &pending, &failures, &out.Agent); err != nil {
		return err
	}
	out.Tokens, out.Breaker = storeutil.AppendedAccount(count, pending, failures)
	return nil
}

// setAccount records the figures after a rewrite (a commit or a restore)
// and closes the breaker when closeBreaker.
func setAccount(ctx context.Context, tx *sql.Tx, id string, count, pending int64, closeBreaker bool) error {
	q := `UPDATE sessions SET token_count = ?, pending_tokens = ? WHERE id = ?`
	if closeBreaker {
		q = `UPDATE sessions SET token_count = ?, pending_tokens = ?, auto_failures = 0 WHERE id = ?`
	}
	_, err := tx.ExecContext(ctx, q, count, pending, id)
	return err
}

// SetTokenCount records a provider's token figure for the session: the
// count becomes n and pending 0.
func (s *Store) SetTokenCount(ctx context.Context, id string, n int) error {
	if n < 0 {
		return kompact.Errorf(kompact.EInvalid, "token count %d is negative", n).WithFixes("Send the provider's usage total, 0 or more.")
	}
	return s.write(ctx, "set token count", func(tx *sql.Tx) error {
		return updateOne(ctx, tx, id, `UPDATE sessions SET token_count = ?, pending_tokens = 0 WHERE id = ?`, n, id)
	})
}

// RecordAutoFailure counts a failed automatic compaction of the session.
func (s *Store) RecordAutoFailure(ctx context.Context, id string) (kompact.CompactionBreaker, error) {
	var b kompact.CompactionBreaker
	err := s.write(ctx, "record automatic compaction failure", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE sessions SET auto_failures = auto_failures + 1 WHERE id = ? RETURNING auto_failures`, id).
			Scan(&b.AutoFailures)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(id)
		}
		return err
	})
	return b, err
}

// updateOne runs an update of the session's row; no row is ENotFound.
func updateOne(ctx context.Context, tx *sql.Tx, id, q string, args ...any) error {
	res, err := tx.ExecContext(ctx, q, args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return notFound(id)
	}
	return nil
}
