// Sessions: the statements of the sessions table.

package sqlite

import (
	"context"
	"errors"
	"fmt"

	"kompact"
	"kompact/internal/storeutil"
)

// sessionRow is a row of the sessions table.
type sessionRow = storeutil.SessionRow

func scanSession(sc scanner, r *sessionRow) error {
	var created, updated string
	if err := sc.Scan(&r.ID, &r.Agent, &r.Model, &r.Version, &created, &updated, &r.FirstPos, &r.N, &r.NextMsg, &r.NextRev, &r.Rewritten, &r.Title, &r.Generation, &r.Instructions, &r.Pinned, &r.Gateway, &r.SideCall); err != nil {
		return err
	}
	var err1, err2 error
	r.Created, err1 = parseTime(created)
	r.Updated, err2 = parseTime(updated)
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("session %q: %w", r.ID, err)
	}
	return nil
}

// LoadSession reads the session's row. The single writer connection
// keeps other writers off.
func (t stmts) LoadSession(ctx context.Context, id string) (*sessionRow, error) {
	var r sessionRow
	if err := scanSession(t.tx.QueryRowContext(ctx, `SELECT `+storeutil.SessionSelect+` FROM sessions WHERE id = ?`, id), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (t stmts) InsertSession(ctx context.Context, r *sessionRow) (bool, error) {
	res, err := t.tx.ExecContext(ctx, `INSERT INTO sessions (`+storeutil.SessionCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		r.ID, r.Agent, r.Model, r.Version, formatTime(r.Created), formatTime(r.Updated), r.FirstPos, r.N, r.NextMsg, r.NextRev, r.Rewritten, r.Title, r.Generation, r.Instructions, r.Pinned)
	n, err := affected(res, err)
	return n == 1, err
}

func (t stmts) SaveSession(ctx context.Context, r *sessionRow) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE sessions SET compaction_model = ?, version = ?, updated_at = ?, first_pos = ?, n_messages = ?,
		next_msg = ?, next_rev = ?, rewritten_version = ?, title = ?, instructions = ?, pinned = ? WHERE id = ?`,
		r.Model, r.Version, formatTime(r.Updated), r.FirstPos, r.N, r.NextMsg, r.NextRev, r.Rewritten, r.Title, r.Instructions, r.Pinned, r.ID)
	return err
}

func (t stmts) DeleteSession(ctx context.Context, id string) (int64, error) {
	return affected(t.tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id))
}

func (t stmts) ListSessions(ctx context.Context, f kompact.SessionFilter) ([]sessionRow, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT `+storeutil.SessionSelect+` FROM sessions`+listWhere(f)+` ORDER BY updated_at DESC, id`)
	return collect(rows, err, 0, scanSession)
}

// listWhere is the condition of ListSessions' query for f: the side calls
// left out unless f asks for them.
func listWhere(f kompact.SessionFilter) string {
	if f.SideCalls {
		return ""
	}
	return ` WHERE NOT ` + storeutil.SideCallOf
}
