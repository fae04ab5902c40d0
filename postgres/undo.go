// Undo of a compaction: the statements that read what it did.

package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kompact/internal/storeutil"
)

func posRefs(rows pgx.Rows, err error) ([]storeutil.PosRef, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (x storeutil.PosRef, err error) {
		return x, r.Scan(&x.ID, &x.BodyID, &x.Pos)
	})
}

func (t stmts) RemovedBy(ctx context.Context, id string, rev int64) ([]storeutil.PosRef, error) {
	return posRefs(t.tx.Query(ctx, `SELECT id, body_id, pos FROM messages WHERE session_id = $1 AND dead = $2 ORDER BY pos`, id, rev))
}

func (t stmts) AddedBy(ctx context.Context, id string, rev, before int64) ([]storeutil.PosRef, error) {
	return posRefs(t.tx.Query(ctx, `SELECT id, body_id, pos FROM messages WHERE session_id = $1 AND born = $2 AND pos < $3 ORDER BY pos`, id, rev, before))
}

func (t stmts) LiveMessage(ctx context.Context, id, msgID string) (pos, bodyID int64, err error) {
	err = t.tx.QueryRow(ctx, `SELECT pos, body_id FROM messages WHERE session_id = $1 AND dead IS NULL AND id = $2`, id, msgID).Scan(&pos, &bodyID)
	return pos, bodyID, err
}
