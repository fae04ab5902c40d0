// kimi-cli sessions (migration 0006): the kimi-cli context of a session and
// of each revision.

package sqlite

import (
	"context"
	"database/sql"
)

func (t stmts) Kimi(ctx context.Context, id string) ([]byte, error) {
	return kimiOf(t.tx.QueryRowContext(ctx, `SELECT kimi FROM sessions WHERE id = ?`, id))
}

func (t stmts) SetKimi(ctx context.Context, id string, kimi []byte) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE sessions SET kimi = ? WHERE id = ?`, kimiText(kimi), id)
	return err
}

func (t stmts) RevisionKimi(ctx context.Context, id string, rev int64) ([]byte, error) {
	return kimiOf(t.tx.QueryRowContext(ctx, `SELECT kimi FROM revisions WHERE session_id = ? AND rev = ?`, id, rev))
}

func (t stmts) SetRevisionKimi(ctx context.Context, id string, rev int64, kimi []byte) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE revisions SET kimi = ? WHERE session_id = ? AND rev = ?`, kimiText(kimi), id, rev)
	return err
}

// kimiOf reads a kimi column: nil for NULL.
func kimiOf(row *sql.Row) ([]byte, error) {
	var s sql.NullString
	if err := row.Scan(&s); err != nil || !s.Valid {
		return nil, err
	}
	return []byte(s.String), nil
}

// kimiText is a kimi column's value: TEXT, or NULL for nil.
func kimiText(kimi []byte) any {
	if kimi == nil {
		return nil
	}
	return string(kimi)
}
