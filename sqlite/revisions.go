// Revisions: the statements of the revisions table.

package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"kompact"
	"kompact/internal/storeutil"
)

// InsertRevision records a revision whose message list is the rows alive
// just before it: the rows the change removes get dead = its number (see
// migrations/0002).
func (t stmts) InsertRevision(ctx context.Context, id string, info *kompact.RevisionInfo, fid any) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO revisions (session_id, rev, kind, note, created_at, version, n_messages, full, fidelity) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
		id, info.Rev, info.Kind, info.Note, formatTime(info.CreatedAt), info.Version, info.Messages, fid)
	return err
}

// PruneRevisions collects the bodies the pruned rows refer to, deletes the
// rows, then each collected body nothing refers to any more. The work
// follows what those revisions replaced, not the session's length.
func (t stmts) PruneRevisions(ctx context.Context, id string, upTo int64) error {
	var candidates []int64
	for _, q := range []string{
		`SELECT DISTINCT body_id FROM messages WHERE session_id = ? AND dead IS NOT NULL AND dead <= ?`,
		`SELECT DISTINCT body_id FROM revision_messages WHERE session_id = ? AND rev <= ?`,
	} {
		rows, err := t.tx.QueryContext(ctx, q, id, upTo)
		bs, err := collect(rows, err, 0, func(sc scanner, b *int64) error { return sc.Scan(b) })
		if err != nil {
			return err
		}
		candidates = append(candidates, bs...)
	}
	for _, q := range []string{
		`DELETE FROM messages WHERE session_id = ? AND dead IS NOT NULL AND dead <= ?`,
		`DELETE FROM revisions WHERE session_id = ? AND rev <= ?`, // and their revision_messages
	} {
		if _, err := t.tx.ExecContext(ctx, q, id, upTo); err != nil {
			return err
		}
	}
	del, err := t.tx.PrepareContext(ctx, `DELETE FROM bodies WHERE id = ?1
		AND NOT EXISTS (SELECT 1 FROM messages WHERE body_id = ?1)
		AND NOT EXISTS (SELECT 1 FROM revision_messages WHERE body_id = ?1)`)
	if err != nil {
		return err
	}
	defer del.Close()
	for _, b := range candidates {
		if _, err := del.ExecContext(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

const revisionCols = `rev, kind, note, created_at, version, n_messages, fidelity`

func scanRevision(sc scanner, info *kompact.RevisionInfo, more ...any) error {
	var created string
	var fid *string
	if err := sc.Scan(append([]any{&info.Rev, &info.Kind, &info.Note, &created, &info.Version, &info.Messages, &fid}, more...)...); err != nil {
		return err
	}
	if err := storeutil.ScanFidelity(info, fid); err != nil {
		return err
	}
	t, err := parseTime(created)
	if err != nil {
		return fmt.Errorf("revision %d: %w", info.Rev, err)
	}
	info.CreatedAt = t
	return nil
}

func (t stmts) ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT `+revisionCols+` FROM revisions WHERE session_id = ? ORDER BY rev DESC`, id)
	return collect(rows, err, 0, func(sc scanner, info *kompact.RevisionInfo) error { return scanRevision(sc, info) })
}

// LoadRevision: a revision recorded before migrations/0002 is "full": it
// holds its own copy of the list in revision_messages.
func (t stmts) LoadRevision(ctx context.Context, id string, rev int64) (*kompact.RevisionInfo, bool, error) {
	var info kompact.RevisionInfo
	var full bool
	err := scanRevision(t.tx.QueryRowContext(ctx, `SELECT `+revisionCols+`, full FROM revisions WHERE session_id = ? AND rev = ?`, id, rev), &info, &full)
	if err != nil {
		return nil, false, err
	}
	return &info, full, nil
}

// RevisionRefs reads the ids and body ids of the rows alive just before
// the revision.
func (t stmts) RevisionRefs(ctx context.Context, id string, rev int64) ([]storeutil.Ref, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT id, body_id FROM messages
		WHERE session_id = ?1 AND born < ?2 AND (dead IS NULL OR dead >= ?2) ORDER BY pos`, id, rev)
	return collect(rows, err, 0, func(sc scanner, r *storeutil.Ref) error { return sc.Scan(&r.ID, &r.BodyID) })
}

// EachRevisionBody reads the rows alive just before the revision (see
// migrations/0002), or a full revision's own copy; each body in a buffer
// of its own (ownedBody).
func (t stmts) EachRevisionBody(ctx context.Context, id string, rev int64, full bool, fn func(int64, []byte) error) error {
	q := `SELECT m.body_id, ` + ownedBody + ` FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ?1 AND m.born < ?2 AND (m.dead IS NULL OR m.dead >= ?2) ORDER BY m.pos`
	if full {
		q = `SELECT r.body_id, ` + ownedBody + ` FROM revision_messages r JOIN bodies b ON b.id = r.body_id
		WHERE r.session_id = ?1 AND r.rev = ?2 ORDER BY r.pos`
	}
	rows, err := t.tx.QueryContext(ctx, q, id, rev)
	var bodyID int64
	var body sql.RawBytes // one variable for all rows: each row's body is a new buffer
	return each(rows, err, func(r *sql.Rows) error {
		if err := r.Scan(&bodyID, &body); err != nil {
			return err
		}
		return fn(bodyID, body)
	})
}
