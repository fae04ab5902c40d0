// Undo of a compaction: the statements that read what it did.

package sqlite

import (
	"context"

	"kompact/internal/storeutil"
)

func scanPosRef(sc scanner, r *storeutil.PosRef) error { return sc.Scan(&r.ID, &r.BodyID, &r.Pos) }

func (t stmts) RemovedBy(ctx context.Context, id string, rev int64) ([]storeutil.PosRef, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT id, body_id, pos FROM messages WHERE session_id = ? AND dead = ? ORDER BY pos`, id, rev)
	return collect(rows, err, 0, scanPosRef)
}

func (t stmts) AddedBy(ctx context.Context, id string, rev, before int64) ([]storeutil.PosRef, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT id, body_id, pos FROM messages WHERE session_id = ? AND born = ? AND pos < ? ORDER BY pos`, id, rev, before)
	return collect(rows, err, 0, scanPosRef)
}

// liveMessageQuery is LiveMessage's: a lookup in messages_live_by_id.
const liveMessageQuery = `SELECT pos, body_id FROM messages WHERE session_id = ? AND dead IS NULL AND id = ?`

func (t stmts) LiveMessage(ctx context.Context, id, msgID string) (pos, bodyID int64, err error) {
	err = t.tx.QueryRowContext(ctx, liveMessageQuery, id, msgID).Scan(&pos, &bodyID)
	return pos, bodyID, err
}
