// Previews: the statements of the previews table.

package sqlite

import (
	"context"
	"database/sql"
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

func (t stmts) PreviewTotals(ctx context.Context, now time.Time, gateway bool) (n int, total int64, err error) {
	for _, q := range []string{`DELETE FROM previews WHERE expires_at <= ?`, `DELETE FROM evicted_previews WHERE expires_at <= ?`} {
		if _, err := t.tx.ExecContext(ctx, q, formatTime(now)); err != nil {
			return 0, 0, err
		}
	}
	err = t.tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(size), 0) FROM previews WHERE gateway = ?`, gateway).Scan(&n, &total)
	return n, total, err
}

func (t stmts) DropFirstPreview(ctx context.Context, gateway bool) (size int64, err error) {
	var id, session, expires string
	err = t.tx.QueryRowContext(ctx, `DELETE FROM previews WHERE id = (SELECT id FROM previews WHERE gateway = ? ORDER BY expires_at, id LIMIT 1)
		RETURNING id, session_id, expires_at, size`, gateway).Scan(&id, &session, &expires, &size)
	if err != nil {
		return 0, err
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO evicted_previews (id, session_id, expires_at) VALUES (?, ?, ?)
		ON CONFLICT (id) DO NOTHING`, id, session, expires)
	return size, err
}

func (t stmts) PreviewEvicted(ctx context.Context, sessionID, id string) (bool, error) {
	var n int
	err := t.tx.QueryRowContext(ctx, `SELECT count(*) FROM evicted_previews WHERE id = ? AND session_id = ?`, id, sessionID).Scan(&n)
	return n > 0, err
}

func (t stmts) InsertPreview(ctx context.Context, p *kompact.Preview, size int64) (bool, error) {
	n, err := affected(t.tx.ExecContext(ctx, `INSERT INTO previews (id, session_id, version, expires_at, size, body, gateway,
		counts_before, counts_replaced, counts_after, counts_pinned)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		p.ID, p.SessionID, p.Version, formatTime(p.ExpiresAt), size, p.Body, p.Gateway,
		p.Counts.Before, p.Counts.Replaced, p.Counts.After, p.Counts.Pinned))
	return n == 1, err
}

func (t stmts) TakePreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error) {
	return t.scanPreview(ctx, `DELETE FROM previews WHERE id = ? AND session_id = ? RETURNING version, expires_at, body, gateway, 
		counts_before, counts_replaced, counts_after, counts_pinned`, sessionID, id)
}

func (t stmts) GetPreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error) {
	return t.scanPreview(ctx, `SELECT version, expires_at, body, gateway,
		counts_before, counts_replaced, counts_after, counts_pinned FROM previews WHERE id = ? AND session_id = ?`, sessionID, id)
}

// scanPreview reads the preview id of session sessionID that query (taking
// id and sessionID) returns as version, expires_at, body, gateway and the
// four counts.
func (t stmts) scanPreview(ctx context.Context, query, sessionID, id string) (*kompact.Preview, error) {
	p := &kompact.Preview{ID: id, SessionID: sessionID}
	var expires string
	if err := t.tx.QueryRowContext(ctx, query, id, sessionID).Scan(&p.Version, &expires, &p.Body, &p.Gateway,
		&p.Counts.Before, &p.Counts.Replaced, &p.Counts.After, &p.Counts.Pinned); err != nil {
		return nil, err
	}
	var err error
	if p.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, storeutil.Corrupt("sqlite store", "a preview's expiry", err)
	}
	return p, nil
}

func (t stmts) ListPreviews(ctx context.Context, sessionID string, now time.Time) ([]kompact.PreviewInfo, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT id, version, expires_at, size,
		counts_before, counts_replaced, counts_after, counts_pinned FROM previews WHERE session_id = ? AND expires_at > ? ORDER BY expires_at DESC, id DESC`, sessionID, formatTime(now))
	return collect(rows, err, 0, func(r scanner, p *kompact.PreviewInfo) error {
		var expires string
		if err := r.Scan(&p.ID, &p.Version, &expires, &p.Size,
			&p.Counts.Before, &p.Counts.Replaced, &p.Counts.After, &p.Counts.Pinned); err != nil {
			return err
		}
		p.SessionID = sessionID
		var err error
		if p.ExpiresAt, err = parseTime(expires); err != nil {
			return storeutil.Corrupt("sqlite store", "a preview's expiry", err)
		}
		return nil
	})
}

func (t stmts) CountPreviews(ctx context.Context, now time.Time) (map[string]int, error) {
	out := map[string]int{}
	rows, err := t.tx.QueryContext(ctx, `SELECT session_id, count(*) FROM previews WHERE expires_at > ? GROUP BY session_id`, formatTime(now))
	err = each(rows, err, func(r *sql.Rows) error {
		var id string
		var n int
		if err := r.Scan(&id, &n); err != nil {
			return err
		}
		out[id] = n
		return nil
	})
	return out, err
}
