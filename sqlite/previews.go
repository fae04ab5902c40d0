// Previews: the statements of the previews table.

package sqlite

import (
	"context"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// HoldPreviews: the single writer connection keeps other writers off.
func (t stmts) HoldPreviews(ctx context.Context, sessionID string) (bool, error) {
	var n int
	err := t.tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id = ?`, sessionID).Scan(&n)
	return n > 0, err
}

func (t stmts) PreviewTotals(ctx context.Context, now time.Time) (n int, total int64, err error) {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM previews WHERE expires_at <= ?`, formatTime(now)); err != nil {
		return 0, 0, err
	}
	err = t.tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(size), 0) FROM previews`).Scan(&n, &total)
	return n, total, err
}

func (t stmts) DropFirstPreview(ctx context.Context) (size int64, err error) {
	err = t.tx.QueryRowContext(ctx, `DELETE FROM previews WHERE id = (SELECT id FROM previews ORDER BY expires_at, id LIMIT 1)
		RETURNING size`).Scan(&size)
	return size, err
}

func (t stmts) InsertPreview(ctx context.Context, p *kompact.Preview, size int64) (bool, error) {
	n, err := affected(t.tx.ExecContext(ctx, `INSERT INTO previews (id, session_id, version, expires_at, size, body)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		p.ID, p.SessionID, p.Version, formatTime(p.ExpiresAt), size, p.Body))
	return n == 1, err
}

func (t stmts) TakePreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error) {
	p := &kompact.Preview{ID: id, SessionID: sessionID}
	var expires string
	if err := t.tx.QueryRowContext(ctx, `DELETE FROM previews WHERE id = ? AND session_id = ? RETURNING version, expires_at, body`,
		id, sessionID).Scan(&p.Version, &expires, &p.Body); err != nil {
		return nil, err
	}
	var err error
	if p.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, storeutil.Corrupt("sqlite store", "a preview's expiry", err)
	}
	return p, nil
}
