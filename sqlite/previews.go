// Previews: compactions kept, with their expiry and byte budget, until
// they are applied.

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// PutPreview keeps p, after dropping the expired previews and, while the
// limits would be exceeded, those that expire first.
func (s *Store) PutPreview(ctx context.Context, p *kompact.Preview, now time.Time, lim kompact.PreviewLimits) error {
	size, err := storeutil.PreviewSize(p, lim)
	if err != nil {
		return err
	}
	return s.write(ctx, "keep a preview", func(tx *sql.Tx) error {
		ok, err := sessionExists(ctx, tx, p.SessionID)
		if err != nil {
			return err
		}
		if !ok {
			return notFound(p.SessionID)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM previews WHERE expires_at <= ?`, formatTime(now)); err != nil {
			return err
		}
		if err := s.makeRoom(ctx, tx, size, lim); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO previews (id, session_id, version, expires_at, size, body)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			p.ID, p.SessionID, p.Version, formatTime(p.ExpiresAt), size, p.Body)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, storeutil.PreviewIDTaken(p.ID))
		}
		return nil
	})
}

// makeRoom drops the previews that expire first until one more of size
// bytes fits the limits.
func (s *Store) makeRoom(ctx context.Context, tx *sql.Tx, size int64, lim kompact.PreviewLimits) error {
	var n int
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(size), 0) FROM previews`).Scan(&n, &total); err != nil {
		return err
	}
	for storeutil.PreviewsCrowded(n, total, size, lim) {
		var id string
		var sz int64
		if err := tx.QueryRowContext(ctx, `DELETE FROM previews WHERE id = (SELECT id FROM previews ORDER BY expires_at, id LIMIT 1)
			RETURNING id, size`).Scan(&id, &sz); err != nil {
			return err
		}
		n, total = n-1, total-sz
	}
	return nil
}

// TakePreview removes and returns a preview that has not expired.
func (s *Store) TakePreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	p := &kompact.Preview{ID: id, SessionID: sessionID}
	var expires string
	err := s.write(ctx, "take a preview", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `DELETE FROM previews WHERE id = ? AND session_id = ? RETURNING version, expires_at, body`,
			id, sessionID).Scan(&p.Version, &expires, &p.Body)
		if errors.Is(err, sql.ErrNoRows) {
			return kompact.NoPreviewError(sessionID, id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if p.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, corrupt("a preview's expiry", err)
	}
	return storeutil.LivePreview(p, now)
}

// Ping reports whether the database answers a read. It does not queue
// behind the writer.
func (s *Store) Ping(ctx context.Context) error {
	return s.read(ctx, "ping", func(tx *sql.Tx) error {
		var n int
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n)
	})
}
