// Previews: the statements of the previews table.

package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"kompact"
)

// HoldPreviews shares the session's row lock and locks the previews table
// against other writers of previews for the transaction, so that
// instances sharing the database hold one budget together.
func (t stmts) HoldPreviews(ctx context.Context, sessionID string) (bool, error) {
	var one int
	err := t.tx.QueryRow(ctx, `SELECT 1 FROM sessions WHERE id = $1 FOR SHARE`, sessionID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = t.tx.Exec(ctx, `LOCK TABLE previews IN SHARE ROW EXCLUSIVE MODE`)
	return err == nil, err
}

// PreviewTotals deletes the expired previews and sums the rest in one
// statement.
func (t stmts) PreviewTotals(ctx context.Context, now time.Time, gateway bool) (n int, total int64, err error) {
	if _, err := t.tx.Exec(ctx, `DELETE FROM evicted_previews WHERE expires_at <= $1`, now); err != nil {
		return 0, 0, err
	}
	err = t.tx.QueryRow(ctx, `WITH gone AS (DELETE FROM previews WHERE expires_at <= $1 RETURNING id)
		SELECT count(*), coalesce(sum(size), 0)::bigint FROM previews WHERE gateway = $2 AND id NOT IN (SELECT id FROM gone)`, now, gateway).Scan(&n, &total)
	return n, total, err
}

func (t stmts) DropFirstPreview(ctx context.Context, gateway bool) (size int64, err error) {
	err = t.tx.QueryRow(ctx, `WITH dropped AS (
			DELETE FROM previews WHERE id = (SELECT id FROM previews WHERE gateway = $1 ORDER BY expires_at, id LIMIT 1)
			RETURNING id, session_id, expires_at, size),
		kept AS (INSERT INTO evicted_previews (id, session_id, expires_at) SELECT id, session_id, expires_at FROM dropped
			ON CONFLICT (id) DO NOTHING)
		SELECT size FROM dropped`, gateway).Scan(&size)
	return size, err
}

func (t stmts) PreviewEvicted(ctx context.Context, sessionID, id string) (bool, error) {
	var n int
	err := t.tx.QueryRow(ctx, `SELECT count(*) FROM evicted_previews WHERE id = $1 AND session_id = $2`, id, sessionID).Scan(&n)
	return n > 0, err
}

func (t stmts) InsertPreview(ctx context.Context, p *kompact.Preview, size int64) (bool, error) {
	n, err := affected(t.tx.Exec(ctx, `INSERT INTO previews (id, session_id, version, expires_at, size, body, gateway,
		counts_before, counts_replaced, counts_after, counts_pinned)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
		p.ID, p.SessionID, p.Version, p.ExpiresAt, size, p.Body, p.Gateway,
		p.Counts.Before, p.Counts.Replaced, p.Counts.After, p.Counts.Pinned))
	return n == 1, err
}

func (t stmts) TakePreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error) {
	p := &kompact.Preview{ID: id, SessionID: sessionID}
	if err := t.tx.QueryRow(ctx, `DELETE FROM previews WHERE id = $1 AND session_id = $2 RETURNING version, expires_at, body, gateway,
		counts_before, counts_replaced, counts_after, counts_pinned`,
		id, sessionID).Scan(&p.Version, &p.ExpiresAt, &p.Body, &p.Gateway,
		&p.Counts.Before, &p.Counts.Replaced, &p.Counts.After, &p.Counts.Pinned); err != nil {
		return nil, err
	}
	p.ExpiresAt = p.ExpiresAt.UTC()
	return p, nil
}

func (t stmts) GetPreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error) {
	p := &kompact.Preview{ID: id, SessionID: sessionID}
	if err := t.tx.QueryRow(ctx, `SELECT version, expires_at, body, gateway,
		counts_before, counts_replaced, counts_after, counts_pinned FROM previews WHERE id = $1 AND session_id = $2`,
		id, sessionID).Scan(&p.Version, &p.ExpiresAt, &p.Body, &p.Gateway,
		&p.Counts.Before, &p.Counts.Replaced, &p.Counts.After, &p.Counts.Pinned); err != nil {
		return nil, err
	}
	p.ExpiresAt = p.ExpiresAt.UTC()
	return p, nil
}

func (t stmts) ListPreviews(ctx context.Context, sessionID string, now time.Time) ([]kompact.PreviewInfo, error) {
	rows, err := t.tx.Query(ctx, `SELECT id, version, expires_at, size,
		counts_before, counts_replaced, counts_after, counts_pinned FROM previews WHERE session_id = $1 AND expires_at > $2 ORDER BY expires_at DESC, id DESC`, sessionID, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (p kompact.PreviewInfo, err error) {
		err = r.Scan(&p.ID, &p.Version, &p.ExpiresAt, &p.Size,
			&p.Counts.Before, &p.Counts.Replaced, &p.Counts.After, &p.Counts.Pinned)
		p.SessionID, p.ExpiresAt = sessionID, p.ExpiresAt.UTC()
		return p, err
	})
}

func (t stmts) CountPreviews(ctx context.Context, now time.Time) (map[string]int, error) {
	rows, err := t.tx.Query(ctx, `SELECT session_id, count(*)::int FROM previews WHERE expires_at > $1 GROUP BY session_id`, now)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	var id string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&id, &n}, func() error {
		out[id] = n
		return nil
	})
	return out, err
}
