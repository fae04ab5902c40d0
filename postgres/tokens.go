// Token accounting and the automatic-compaction breaker (migration 0004):
// bookkeeping columns of the sessions table.

package postgres

import (
	"context"

	"kompact/internal/storeutil"
)

func (t stmts) Tokens(ctx context.Context, id string) (r storeutil.TokenRow, err error) {
	err = t.tx.QueryRow(ctx, `SELECT token_count, pending_tokens, auto_failures FROM sessions WHERE id = $1`, id).
		Scan(&r.Count, &r.Pending, &r.Failures)
	return r, err
}

func (t stmts) AddPending(ctx context.Context, id string, n int) (r storeutil.TokenRow, agent string, err error) {
	err = t.tx.QueryRow(ctx, `UPDATE sessions SET pending_tokens = CASE WHEN pending_tokens < 0 THEN pending_tokens ELSE pending_tokens + $1 END
		WHERE id = $2 RETURNING token_count, pending_tokens, auto_failures, agent`, n, id).Scan(&r.Count, &r.Pending, &r.Failures, &agent)
	return r, agent, err
}

func (t stmts) SetTokens(ctx context.Context, id string, count, pending int64, closeBreaker bool) error {
	q := `UPDATE sessions SET token_count = $1, pending_tokens = $2 WHERE id = $3`
	if closeBreaker {
		q = `UPDATE sessions SET token_count = $1, pending_tokens = $2, auto_failures = 0 WHERE id = $3`
	}
	_, err := t.tx.Exec(ctx, q, count, pending, id)
	return err
}

func (t stmts) SetTokenCount(ctx context.Context, id string, n int) (int64, error) {
	return affected(t.tx.Exec(ctx, `UPDATE sessions SET token_count = $1, pending_tokens = 0 WHERE id = $2`, n, id))
}

func (t stmts) AddAutoFailure(ctx context.Context, id string, log []byte) (n int64, err error) {
	err = t.tx.QueryRow(ctx, `UPDATE sessions SET auto_failures = auto_failures + 1, auto_failure_log = $1 WHERE id = $2 RETURNING auto_failures`, string(log), id).Scan(&n)
	return n, err
}

// AutoFailureLog reads migrations/0016's column.
func (t stmts) AutoFailureLog(ctx context.Context, id string) (log []byte, err error) {
	var s string
	err = t.tx.QueryRow(ctx, `SELECT auto_failure_log FROM sessions WHERE id = $1`, id).Scan(&s)
	return []byte(s), err
}

// LiveTextLen adds up bodies.text_len (migrations/0009) over the live
// rows; the bodies themselves, kept out of line when large, are not read.
func (t stmts) LiveTextLen(ctx context.Context, id string) (chars int64, ok bool, err error) {
	var n, known int64
	err = t.tx.QueryRow(ctx, `SELECT count(*), count(b.text_len), coalesce(sum(b.text_len), 0)::bigint
		FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = $1 AND m.dead IS NULL`, id).Scan(&n, &known, &chars)
	return chars, n == known, err
}
