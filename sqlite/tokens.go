// Token accounting and the automatic-compaction breaker (migration 0004):
// bookkeeping columns of the sessions table, written next to the changes
// they follow and never changing the version.

package sqlite

import (
	"context"

	"kompact/internal/storeutil"
)

// Tokens reads the columns; a pending figure of -1 means "estimate the
// whole list" (see migrations/0004).
func (t stmts) Tokens(ctx context.Context, id string) (r storeutil.TokenRow, err error) {
	err = t.tx.QueryRowContext(ctx, `SELECT token_count, pending_tokens, auto_failures FROM sessions WHERE id = ?`, id).
		Scan(&r.Count, &r.Pending, &r.Failures)
	return r, err
}

func (t stmts) AddPending(ctx context.Context, id string, n int) (r storeutil.TokenRow, agent string, err error) {
	err = t.tx.QueryRowContext(ctx, `UPDATE sessions SET pending_tokens = CASE WHEN pending_tokens < 0 THEN pending_tokens ELSE pending_tokens + ? END
		WHERE id = ? RETURNING token_count, pending_tokens, auto_failures, agent`, n, id).Scan(&r.Count, &r.Pending, &r.Failures, &agent)
	return r, agent, err
}

func (t stmts) SetTokens(ctx context.Context, id string, count, pending int64, closeBreaker bool) error {
	q := `UPDATE sessions SET token_count = ?, pending_tokens = ? WHERE id = ?`
	if closeBreaker {
		q = `UPDATE sessions SET token_count = ?, pending_tokens = ?, auto_failures = 0 WHERE id = ?`
	}
	_, err := t.tx.ExecContext(ctx, q, count, pending, id)
	return err
}

func (t stmts) SetTokenCount(ctx context.Context, id string, n int) (int64, error) {
	return affected(t.tx.ExecContext(ctx, `UPDATE sessions SET token_count = ?, pending_tokens = 0 WHERE id = ?`, n, id))
}

func (t stmts) AddAutoFailure(ctx context.Context, id string, log []byte) (n int64, err error) {
	err = t.tx.QueryRowContext(ctx, `UPDATE sessions SET auto_failures = auto_failures + 1, auto_failure_log = ? WHERE id = ? RETURNING auto_failures`, string(log), id).Scan(&n)
	return n, err
}

// AutoFailureLog reads migrations/0016's column.
func (t stmts) AutoFailureLog(ctx context.Context, id string) (log []byte, err error) {
	var s string
	err = t.tx.QueryRowContext(ctx, `SELECT auto_failure_log FROM sessions WHERE id = ?`, id).Scan(&s)
	return []byte(s), err
}

// LiveTextLen adds up the lengths of migrations/0009 over the live rows
// (the messages_live index), without reading a body.
func (t stmts) LiveTextLen(ctx context.Context, id string) (chars int64, ok bool, err error) {
	var n, known int64
	err = t.tx.QueryRowContext(ctx, `SELECT count(*), count(l.text_len), coalesce(sum(l.text_len), 0)
		FROM messages m LEFT JOIN body_lengths l ON l.body_id = m.body_id
		WHERE m.session_id = ? AND m.dead IS NULL`, id).Scan(&n, &known, &chars)
	return chars, n == known, err
}
