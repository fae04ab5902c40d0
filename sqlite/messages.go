// Stored messages: the statements of the messages and bodies tables.

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"unsafe"

	"kompact"
	"kompact/internal/storeutil"
)

func (t stmts) ReadRefs(ctx context.Context, id string, from, to int64) ([]storeutil.Ref, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT id, body_id FROM messages WHERE session_id = ? AND dead IS NULL AND pos >= ? AND pos < ? ORDER BY pos`, id, from, to)
	return collect(rows, err, to-from, func(sc scanner, r *storeutil.Ref) error { return sc.Scan(&r.ID, &r.BodyID) })
}

// EachBody passes on the bodies as SQLite hands them out, uncopied.
func (t stmts) EachBody(ctx context.Context, id string, from int64, fn func([]byte) error) error {
	rows, err := t.tx.QueryContext(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ? AND m.dead IS NULL AND m.pos >= ? ORDER BY m.pos`, id, from)
	return each(rows, err, func(r *sql.Rows) error {
		var body sql.RawBytes
		if err := r.Scan(&body); err != nil {
			return err
		}
		return fn(body)
	})
}

// EachBodyOf reads the bodies one at a time, so that a caller that stops
// at the first one it rejects reads no more.
func (t stmts) EachBodyOf(ctx context.Context, bodyIDs []int64, fn func(int, []byte) error) error {
	stmt, err := t.tx.PrepareContext(ctx, `SELECT body FROM bodies WHERE id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	var body []byte
	for i, b := range bodyIDs {
		if err := stmt.QueryRowContext(ctx, b).Scan(&body); err != nil {
			return err
		}
		if err := fn(i, body); err != nil {
			return err
		}
	}
	return nil
}

// InsertMessages inserts one body row and one message row per message,
// through two prepared statements.
func (t stmts) InsertMessages(ctx context.Context, id string, pos, born int64, msgs []kompact.Message, reuse []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	bodies, err := t.tx.PrepareContext(ctx, `INSERT INTO bodies (session_id, body) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	defer bodies.Close()
	refs, err := t.tx.PrepareContext(ctx, `INSERT INTO messages (session_id, pos, born, id, body_id) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer refs.Close()
	var buf []byte
	for i := range msgs {
		var bodyID int64
		if reuse != nil {
			bodyID = reuse[i]
		}
		if bodyID == 0 {
			buf = msgs[i].AppendJSON(buf[:0])
			// The driver copies a bound string into SQLite's memory: the
			// body goes without a Go copy of its own (garbage the size of
			// the session for a large import); buf is not written until
			// the statement has run.
			res, err := bodies.ExecContext(ctx, id, unsafe.String(unsafe.SliceData(buf), len(buf)))
			if err != nil {
				return err
			}
			if bodyID, err = res.LastInsertId(); err != nil {
				return err
			}
		}
		if _, err := refs.ExecContext(ctx, id, pos+int64(i), born, msgs[i].ID, bodyID); err != nil {
			return err
		}
	}
	return nil
}

// TakenID looks the ids up in the index on (session_id, id), a few at a
// time.
func (t stmts) TakenID(ctx context.Context, id string, msgs []kompact.Message, minPos int64) (int, error) {
	const chunk = 400
	for start := 0; start < len(msgs); start += chunk {
		part := msgs[start:min(len(msgs), start+chunk)]
		args := make([]any, 0, len(part)+2)
		args = append(args, id, minPos)
		for i := range part {
			args = append(args, part[i].ID)
		}
		var taken string
		err := t.tx.QueryRowContext(ctx, checkFreeQuery(len(part)), args...).Scan(&taken)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return 0, err
		}
		for i := range part {
			if part[i].ID == taken {
				return start + i, nil
			}
		}
	}
	return -1, nil
}

// checkFreeQuery is TakenID's query for n ids. "+pos" keeps the position
// out of the index choice: with it, SQLite scans the session's rows by
// position (the whole session when the bound is its start: 55 ms at 100k
// messages) instead of looking the few ids up in messages_live_by_id.
func checkFreeQuery(n int) string {
	return `SELECT id FROM messages WHERE session_id = ? AND dead IS NULL AND +pos >= ? AND id IN (?` +
		strings.Repeat(", ?", n-1) + `) LIMIT 1`
}

func (t stmts) RetireMessages(ctx context.Context, id string, rev, before int64) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE messages SET dead = ? WHERE session_id = ? AND dead IS NULL AND pos < ?`, rev, id, before)
	return err
}
