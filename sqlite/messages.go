// Stored messages: their canonical form, ids, and their rows.

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"kompact"
)

// readMessages returns the session's messages in order.
func readMessages(ctx context.Context, tx *sql.Tx, row *sessionRow) ([]kompact.Message, error) {
	rows, err := tx.QueryContext(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ? AND m.dead IS NULL ORDER BY m.pos`, row.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	msgs := make([]kompact.Message, 0, row.N)
	for rows.Next() {
		var body sql.RawBytes
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		m, err := kompact.DecodeStoredMessage(body, len(msgs))
		if err != nil {
			return nil, corrupt(fmt.Sprintf("message %d of session %q", len(msgs)+1, row.ID), err)
		}
		msgs = append(msgs, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if int64(len(msgs)) != row.N {
		return nil, kompact.Errorf(kompact.EInternal, "sqlite store: session %q should have %d messages and has %d", row.ID, row.N, len(msgs))
	}
	return msgs, nil
}

// insertMessages stores the bodies of msgs and puts the messages in the
// session at positions pos, pos+1, ..., as rows born at revision born (the
// revisions the session has, or the one adding them).
func insertMessages(ctx context.Context, tx *sql.Tx, id string, pos, born int64, msgs []kompact.Message) error {
	return insertMessagesReusing(ctx, tx, id, pos, born, msgs, nil)
}

// insertMessagesReusing is insertMessages where reuse[i], when not 0, is
// the id of a stored body to use for msgs[i] instead of a new one.
func insertMessagesReusing(ctx context.Context, tx *sql.Tx, id string, pos, born int64, msgs []kompact.Message, reuse []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	bodies, err := tx.PrepareContext(ctx, `INSERT INTO bodies (session_id, body) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	defer bodies.Close()
	refs, err := tx.PrepareContext(ctx, `INSERT INTO messages (session_id, pos, born, id, body_id) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer refs.Close()
	var buf []byte
	for i := range msgs {
		if reuse != nil && reuse[i] != 0 {
			if _, err := refs.ExecContext(ctx, id, pos+int64(i), born, msgs[i].ID, reuse[i]); err != nil {
				return err
			}
			continue
		}
		buf = msgs[i].AppendJSON(buf[:0])
		// The driver copies a bound string into SQLite's memory: the body
		// is passed without a Go copy of its own (garbage the size of the
		// session for a large import), and buf is not written until the
		// statement has run.
		res, err := bodies.ExecContext(ctx, id, unsafe.String(unsafe.SliceData(buf), len(buf)))
		if err != nil {
			return err
		}
		bodyID, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := refs.ExecContext(ctx, id, pos+int64(i), born, msgs[i].ID, bodyID); err != nil {
			return err
		}
	}
	return nil
}

// insertRefs puts messages whose bodies are stored already in the session
// at positions 0, 1, ..., as rows born at revision born.
func insertRefs(ctx context.Context, tx *sql.Tx, id string, born int64, msgs []kompact.Message, bodyIDs []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	refs, err := tx.PrepareContext(ctx, `INSERT INTO messages (session_id, pos, born, id, body_id) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer refs.Close()
	for i := range msgs {
		if _, err := refs.ExecContext(ctx, id, i, born, msgs[i].ID, bodyIDs[i]); err != nil {
			return err
		}
	}
	return nil
}

// checkFree fails with EConflict when the session already has, at a
// position from minPos on, a message with the id of one of msgs. It looks
// the ids up in the index on (session_id, id), a few at a time.
func checkFree(ctx context.Context, tx *sql.Tx, id string, msgs []kompact.Message, minPos int64, field string) error {
	const chunk = 400
	index := make(map[string]int, len(msgs))
	for i := range msgs {
		index[msgs[i].ID] = i
	}
	for start := 0; start < len(msgs); start += chunk {
		part := msgs[start:min(len(msgs), start+chunk)]
		args := make([]any, 0, len(part)+2)
		args = append(args, id, minPos)
		for i := range part {
			args = append(args, part[i].ID)
		}
		var taken string
		err := tx.QueryRowContext(ctx, checkFreeQuery(len(part)), args...).Scan(&taken)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		return kompact.Errorf(kompact.EConflict, "%s[%d].id: the session already has a message with the id %q", field, index[taken], taken).
			WithFixes("Use another id, or none to have one assigned.")
	}
	return nil
}

// checkFreeQuery is checkFree's query for n ids. "+pos" keeps the position
// out of the index choice: with it, SQLite scans the session's rows by
// position (the whole session when the bound is its start: 55 ms at 100k
// messages) instead of looking the few ids up in messages_live_by_id.
func checkFreeQuery(n int) string {
	return `SELECT id FROM messages WHERE session_id = ? AND dead IS NULL AND +pos >= ? AND id IN (?` +
		strings.Repeat(", ?", n-1) + `) LIMIT 1`
}

// readBodies returns copies of the stored bodies of the session's messages
// from position from on, in order.
func readBodies(ctx context.Context, tx *sql.Tx, id string, from int64) ([][]byte, error) {
	rows, err := tx.QueryContext(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ? AND m.dead IS NULL AND m.pos >= ? ORDER BY m.pos`, id, from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		out = append(out, body)
	}
	return out, rows.Err()
}

func decodeBodies(bodies [][]byte, id string) ([]kompact.Message, error) {
	out := make([]kompact.Message, len(bodies))
	for i, b := range bodies {
		m, err := kompact.DecodeStoredMessage(b, i)
		if err != nil {
			return nil, corrupt(fmt.Sprintf("a message of session %q", id), err)
		}
		out[i] = m
	}
	return out, nil
}

// StreamSession reads the session in one read transaction, passing each
// stored body on as it is read.
func (s *Store) StreamSession(ctx context.Context, id string, head func(*kompact.StoredSession) error, body func([]byte) error) error {
	return s.read(ctx, "read a session", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := head(row.Stored(nil)); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
			WHERE m.session_id = ? AND m.dead IS NULL ORDER BY m.pos`, row.ID)
		if err != nil {
			return err
		}
		defer rows.Close()
		var n int64
		for rows.Next() {
			var b sql.RawBytes
			if err := rows.Scan(&b); err != nil {
				return err
			}
			if err := body(b); err != nil {
				return err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n != row.N {
			return kompact.Errorf(kompact.EInternal, "sqlite store: session %q should have %d messages and has %d", row.ID, row.N, n)
		}
		return nil
	})
}
