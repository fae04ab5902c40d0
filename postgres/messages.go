package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"kompact"
)

// insertMessages stores the bodies of msgs (or uses reuse[i] when not 0)
// and puts the messages in the session at positions pos, pos+1, ..., as
// rows born at revision born. It sends the statements in one batch.
func insertMessages(ctx context.Context, tx pgx.Tx, id string, pos, born int64, msgs []kompact.Message, reuse []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	var buf []byte
	for i := range msgs {
		if reuse != nil && reuse[i] != 0 {
			b.Queue(`INSERT INTO messages (session_id, pos, born, id, body_id) VALUES ($1, $2, $3, $4, $5)`, id, pos+int64(i), born, msgs[i].ID, reuse[i])
			continue
		}
		buf = msgs[i].AppendJSON(buf[:0])
		b.Queue(`WITH b AS (INSERT INTO bodies (session_id, body) VALUES ($1, $5) RETURNING id)
			INSERT INTO messages (session_id, pos, born, id, body_id) SELECT $1, $2, $3, $4, b.id FROM b`,
			id, pos+int64(i), born, msgs[i].ID, append([]byte(nil), buf...))
	}
	return tx.SendBatch(ctx, b).Close()
}

// checkFree fails with EConflict when the session already has, at a
// position from minPos on, a message with the id of one of msgs (an index
// lookup of just those ids).
// checkFreeQuery counts the session's live messages with an id from a
// position on.
const checkFreeQuery = `SELECT count(*) FROM messages WHERE session_id = $1 AND id = $2 AND dead IS NULL AND pos >= $3`

func checkFree(ctx context.Context, tx pgx.Tx, id string, msgs []kompact.Message, minPos int64, field string) error {
	// One equality lookup per id, sent as one batch: with "id = ANY($3)"
	// PostgreSQL (without statistics on a new table) used only session_id
	// as the index condition and filtered every row of the session.
	b := &pgx.Batch{}
	for i := range msgs {
		b.Queue(checkFreeQuery, id, msgs[i].ID, minPos)
	}
	res := tx.SendBatch(ctx, b)
	taken := -1
	for i := range msgs {
		var n int
		if err := res.QueryRow().Scan(&n); err != nil {
			_ = res.Close()
			return err
		}
		if n > 0 && taken < 0 {
			taken = i
		}
	}
	if err := res.Close(); err != nil {
		return err
	}
	if taken < 0 {
		return nil
	}
	return kompact.Errorf(kompact.EConflict, "%s[%d].id: the session already has a message with the id %q", field, taken, msgs[taken].ID).
		WithFixes("Use another id, or none to have one assigned.")
}

// readBodies returns the stored bodies of the session's messages from
// position from on, in order.
func readBodies(ctx context.Context, tx pgx.Tx, id string, from int64) ([][]byte, error) {
	rows, err := tx.Query(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = $1 AND m.dead IS NULL AND m.pos >= $2 ORDER BY m.pos`, id, from)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[[]byte])
}

func decodeBodies(bodies [][]byte, id string) ([]kompact.Message, error) {
	out := make([]kompact.Message, len(bodies))
	for i, b := range bodies {
		m, err := kompact.DecodeStoredMessage(b, i)
		if err != nil {
			return nil, corrupt(fmt.Sprintf("message %d of session %q", i+1, id), err)
		}
		out[i] = m
	}
	return out, nil
}

// StreamSession reads the session in one snapshot, passing each stored
// body on as it arrives.
func (s *Store) StreamSession(ctx context.Context, id string, head func(*kompact.StoredSession) error, body func([]byte) error) error {
	return s.read(ctx, "read a session", func(tx pgx.Tx) error {
		row, err := loadSession(ctx, tx, id, false)
		if err != nil {
			return err
		}
		if err := head(row.Stored(nil)); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
			WHERE m.session_id = $1 AND m.dead IS NULL AND m.pos >= $2 ORDER BY m.pos`, id, row.FirstPos)
		if err != nil {
			return err
		}
		defer rows.Close()
		var n int64
		for rows.Next() {
			if err := body(rows.RawValues()[0]); err != nil {
				return err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n != row.N {
			return kompact.Errorf(kompact.EInternal, "postgres store: session %q should have %d messages and has %d", id, row.N, n)
		}
		return nil
	})
}
