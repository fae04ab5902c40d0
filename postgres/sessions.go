// Sessions: the statements of the sessions table.

package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

type sessionRow = storeutil.SessionRow

func scanSession(sc pgx.Row, r *sessionRow) error {
	if err := sc.Scan(&r.ID, &r.Agent, &r.Model, &r.Version, &r.Created, &r.Updated, &r.FirstPos, &r.N, &r.NextMsg, &r.NextRev, &r.Rewritten, &r.Title, &r.Generation, &r.Instructions, &r.Pinned, &r.Gateway, &r.SideCall); err != nil {
		return err
	}
	r.Created, r.Updated = r.Created.UTC(), r.Updated.UTC()
	return nil
}

// LoadSession reads the session's row; in a write, it also locks the row
// until the transaction ends, which serialises writes to the session
// across processes.
func (t stmts) LoadSession(ctx context.Context, id string) (*sessionRow, error) {
	q := `SELECT ` + storeutil.SessionSelect + ` FROM sessions WHERE id = $1`
	if t.write {
		q += ` FOR UPDATE`
	}
	var r sessionRow
	if err := scanSession(t.tx.QueryRow(ctx, q, id), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (t stmts) InsertSession(ctx context.Context, r *sessionRow) (bool, error) {
	n, err := affected(t.tx.Exec(ctx, `INSERT INTO sessions (`+storeutil.SessionCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (id) DO NOTHING`,
		r.ID, r.Agent, r.Model, r.Version, r.Created, r.Updated, r.FirstPos, r.N, r.NextMsg, r.NextRev, r.Rewritten, r.Title, r.Generation, r.Instructions, r.Pinned))
	return n == 1, err
}

func (t stmts) SaveSession(ctx context.Context, r *sessionRow) error {
	_, err := t.tx.Exec(ctx, `UPDATE sessions SET compaction_model = $1, version = $2, updated_at = $3, first_pos = $4, n_messages = $5,
		next_msg = $6, next_rev = $7, rewritten_version = $8, title = $9, instructions = $10, pinned = $11 WHERE id = $12`,
		r.Model, r.Version, r.Updated, r.FirstPos, r.N, r.NextMsg, r.NextRev, r.Rewritten, r.Title, r.Instructions, r.Pinned, r.ID)
	return err
}

func (t stmts) DeleteSession(ctx context.Context, id string) (int64, error) {
	return affected(t.tx.Exec(ctx, `DELETE FROM sessions WHERE id = $1`, id))
}

func (t stmts) ListSessions(ctx context.Context, f kompact.SessionFilter) ([]sessionRow, error) {
	rows, err := t.tx.Query(ctx, `SELECT `+storeutil.SessionSelect+` FROM sessions`+listWhere(f)+` ORDER BY updated_at DESC, id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (s sessionRow, err error) { return s, scanSession(r, &s) })
}

// listWhere is the condition of ListSessions' query for f: the side calls
// left out unless f asks for them.
func listWhere(f kompact.SessionFilter) string {
	if f.SideCalls {
		return ""
	}
	return ` WHERE NOT ` + storeutil.SideCallOf
}
