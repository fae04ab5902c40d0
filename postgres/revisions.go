// Revisions: the statements of the revisions table.

package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

// InsertRevision records a revision; its list is the rows alive just
// before it.
func (t stmts) InsertRevision(ctx context.Context, id string, info *kompact.RevisionInfo, fid any) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO revisions (session_id, rev, kind, note, created_at, version, n_messages, fidelity) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		id, info.Rev, info.Kind, info.Note, info.CreatedAt, info.Version, info.Messages, fid)
	return err
}

// PruneRevisions deletes the revisions, then the rows only they hold and
// the bodies of those rows nothing else refers to, in one statement.
func (t stmts) PruneRevisions(ctx context.Context, id string, upTo int64) error {
	if _, err := t.tx.Exec(ctx, `DELETE FROM revisions WHERE session_id = $1 AND rev <= $2`, id, upTo); err != nil {
		return err
	}
	_, err := t.tx.Exec(ctx, `WITH gone AS (
			DELETE FROM messages WHERE session_id = $1 AND dead IS NOT NULL AND dead <= $2 RETURNING body_id)
		DELETE FROM bodies b WHERE b.id IN (SELECT DISTINCT body_id FROM gone)
			AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.body_id = b.id AND NOT (m.session_id = $1 AND m.dead IS NOT NULL AND m.dead <= $2))`,
		id, upTo)
	return err
}

const revisionCols = `rev, kind, note, created_at, version, n_messages, fidelity`

func scanRevision(sc pgx.Row, info *kompact.RevisionInfo) error {
	var fid *string
	if err := sc.Scan(&info.Rev, &info.Kind, &info.Note, &info.CreatedAt, &info.Version, &info.Messages, &fid); err != nil {
		return err
	}
	if err := storeutil.ScanFidelity(info, fid); err != nil {
		return err
	}
	info.CreatedAt = info.CreatedAt.UTC()
	return nil
}

func (t stmts) ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	rows, err := t.tx.Query(ctx, `SELECT `+revisionCols+` FROM revisions WHERE session_id = $1 ORDER BY rev DESC`, id)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (info kompact.RevisionInfo, err error) { return info, scanRevision(r, &info) })
}

// LoadRevision: this store has no legacy revisions.
func (t stmts) LoadRevision(ctx context.Context, id string, rev int64) (*kompact.RevisionInfo, bool, error) {
	var info kompact.RevisionInfo
	if err := scanRevision(t.tx.QueryRow(ctx, `SELECT `+revisionCols+` FROM revisions WHERE session_id = $1 AND rev = $2`, id, rev), &info); err != nil {
		return nil, false, err
	}
	return &info, false, nil
}

// RevisionRefs reads the ids and body ids of the rows alive just before
// the revision.
func (t stmts) RevisionRefs(ctx context.Context, id string, rev int64) ([]storeutil.Ref, error) {
	rows, err := t.tx.Query(ctx, `SELECT id, body_id FROM messages
		WHERE session_id = $1 AND born < $2 AND (dead IS NULL OR dead >= $2) ORDER BY pos`, id, rev)
	if err != nil {
		return nil, err
	}
	var out []storeutil.Ref
	var r storeutil.Ref
	_, err = pgx.ForEachRow(rows, []any{&r.ID, &r.BodyID}, func() error { out = append(out, r); return nil })
	return out, err
}

// EachRevisionBody reads the rows alive just before the revision.
func (t stmts) EachRevisionBody(ctx context.Context, id string, rev int64, _ bool, fn func(int64, []byte) error) error {
	rows, err := t.tx.Query(ctx, `SELECT m.body_id, b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = $1 AND m.born < $2 AND (m.dead IS NULL OR m.dead >= $2) ORDER BY m.pos`, id, rev)
	if err != nil {
		return err
	}
	var bodyID int64
	var body []byte
	_, err = pgx.ForEachRow(rows, []any{&bodyID, &body}, func() error { return fn(bodyID, body) })
	return err
}
