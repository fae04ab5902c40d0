// kimi-cli sessions (migration 0006): the kimi-cli context of a session and
// of each revision.

package postgres

import "context"

func (t stmts) Kimi(ctx context.Context, id string) (kimi []byte, err error) {
	err = t.tx.QueryRow(ctx, `SELECT kimi FROM sessions WHERE id = $1`, id).Scan(&kimi)
	return kimi, err
}

func (t stmts) SetKimi(ctx context.Context, id string, kimi []byte) error {
	_, err := t.tx.Exec(ctx, `UPDATE sessions SET kimi = $1 WHERE id = $2`, kimi, id)
	return err
}

func (t stmts) RevisionKimi(ctx context.Context, id string, rev int64) (kimi []byte, err error) {
	err = t.tx.QueryRow(ctx, `SELECT kimi FROM revisions WHERE session_id = $1 AND rev = $2`, id, rev).Scan(&kimi)
	return kimi, err
}

func (t stmts) SetRevisionKimi(ctx context.Context, id string, rev int64, kimi []byte) error {
	_, err := t.tx.Exec(ctx, `UPDATE revisions SET kimi = $1 WHERE session_id = $2 AND rev = $3`, kimi, id, rev)
	return err
}
