// Previews: compactions kept, with their expiry and byte budget, until
// they are applied.

package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

// PutPreview keeps p, after dropping the expired previews and, while the
// limits would be exceeded, those that expire first. The previews table is
// locked against other writers of previews for the transaction, so that
// instances sharing the database hold one budget together.
func (s *Store) PutPreview(ctx context.Context, p *kompact.Preview, now time.Time, lim kompact.PreviewLimits) error {
	size, err := storeutil.PreviewSize(p, lim)
	if err != nil {
		return err
	}
	return s.write(ctx, "keep a preview", func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM sessions WHERE id = $1 FOR SHARE`, p.SessionID).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(p.SessionID)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `LOCK TABLE previews IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM previews WHERE expires_at <= $1`, now); err != nil {
			return err
		}
		if err := makeRoom(ctx, tx, size, lim); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO previews (id, session_id, version, expires_at, size, body)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
			p.ID, p.SessionID, p.Version, p.ExpiresAt, size, p.Body)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return storeutil.PreviewIDTaken(p.ID)
		}
		return nil
	})
}

// makeRoom drops the previews that expire first until one more of size
// bytes fits the limits.
func makeRoom(ctx context.Context, tx pgx.Tx, size int64, lim kompact.PreviewLimits) error {
	var n int
	var total int64
	if err := tx.QueryRow(ctx, `SELECT count(*), coalesce(sum(size), 0)::bigint FROM previews`).Scan(&n, &total); err != nil {
		return err
	}
	for storeutil.PreviewsCrowded(n, total, size, lim) {
		var sz int64
		if err := tx.QueryRow(ctx, `DELETE FROM previews WHERE id = (SELECT id FROM previews ORDER BY expires_at, id LIMIT 1)
			RETURNING size`).Scan(&sz); err != nil {
			return err
		}
		n, total = n-1, total-sz
	}
	return nil
}

// TakePreview removes and returns a preview that has not expired.
func (s *Store) TakePreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	p := &kompact.Preview{ID: id, SessionID: sessionID}
	err := s.write(ctx, "take a preview", func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `DELETE FROM previews WHERE id = $1 AND session_id = $2 RETURNING version, expires_at, body`,
			id, sessionID).Scan(&p.Version, &p.ExpiresAt, &p.Body)
		if errors.Is(err, pgx.ErrNoRows) {
			return kompact.NoPreviewError(sessionID, id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	p.ExpiresAt = p.ExpiresAt.UTC()
	return storeutil.LivePreview(p, now)
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return wrap("ping", s.pool.Ping(ctx))
}
