// Stored messages: the statements of the messages and bodies tables.

package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

func (t stmts) ReadRefs(ctx context.Context, id string, from, to int64) ([]storeutil.Ref, error) {
	rows, err := t.tx.Query(ctx, `SELECT id, body_id FROM messages WHERE session_id = $1 AND dead IS NULL AND pos >= $2 AND pos < $3 ORDER BY pos`, id, from, to)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (x storeutil.Ref, err error) { return x, r.Scan(&x.ID, &x.BodyID) })
}

// EachBody passes on the bodies as they arrive, uncopied.
// eachBodyQuery is EachBody's query: a range of a (session_id, pos) index.
const eachBodyQuery = `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = $1 AND m.dead IS NULL AND m.pos >= $2 AND m.pos < $3 ORDER BY m.pos`

func (t stmts) EachBody(ctx context.Context, id string, from, to int64, fn func([]byte) error) error {
	rows, err := t.tx.Query(ctx, eachBodyQuery, id, from, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.RawValues()[0]); err != nil {
			return err
		}
	}
	return rows.Err()
}

// OwnedBodies: no, pgx hands every row's values out in one buffer it
// reuses.
func (t stmts) OwnedBodies() bool { return false }

// EachBodyOf reads the bodies in one query.
func (t stmts) EachBodyOf(ctx context.Context, bodyIDs []int64, fn func(int, []byte) error) error {
	rows, err := t.tx.Query(ctx, `SELECT r.n, b.body FROM unnest($1::bigint[]) WITH ORDINALITY AS r(id, n) JOIN bodies b ON b.id = r.id ORDER BY r.n`, bodyIDs)
	if err != nil {
		return err
	}
	var n int
	var body []byte
	_, err = pgx.ForEachRow(rows, []any{&n, &body}, func() error { return fn(n-1, body) })
	return err
}

// InsertMessages sends the statements in one batch: a message with a new
// body inserts it (with its text length, migrations/0009) and its row in
// one statement; the rows of messages
// whose bodies are stored go in one statement.
func (t stmts) InsertMessages(ctx context.Context, id string, pos, born int64, msgs []kompact.Message, reuse []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	var buf []byte
	var kept []int64     // positions of the rows whose bodies are stored
	var keptIDs []string // their message ids
	var keptBodies []int64
	for i := range msgs {
		if reuse != nil && reuse[i] != 0 {
			kept, keptIDs, keptBodies = append(kept, pos+int64(i)), append(keptIDs, msgs[i].ID), append(keptBodies, reuse[i])
			continue
		}
		buf = msgs[i].AppendJSON(buf[:0])
		b.Queue(`WITH b AS (INSERT INTO bodies (session_id, body, text_len) VALUES ($1, $5, $6) RETURNING id)
			INSERT INTO messages (session_id, pos, born, id, body_id) SELECT $1, $2, $3, $4, b.id FROM b`,
			id, pos+int64(i), born, msgs[i].ID, append([]byte(nil), buf...), int64(msgs[i].TextLen()))
	}
	if len(kept) > 0 {
		b.Queue(`INSERT INTO messages (session_id, pos, born, id, body_id)
			SELECT $1, p, $2, i, b FROM unnest($3::bigint[], $4::text[], $5::bigint[]) AS t(p, i, b)`, id, born, kept, keptIDs, keptBodies)
	}
	return t.tx.SendBatch(ctx, b).Close()
}

// checkFreeQuery counts the session's live messages with an id from a
// position on.
const checkFreeQuery = `SELECT count(*) FROM messages WHERE session_id = $1 AND id = $2 AND dead IS NULL AND pos >= $3`

// TakenID sends one equality lookup per id, as one batch: with "id =
// ANY($3)" PostgreSQL (without statistics on a new table) used only
// session_id as the index condition and filtered every row of the session.
func (t stmts) TakenID(ctx context.Context, id string, msgs []kompact.Message, minPos int64) (int, error) {
	b := &pgx.Batch{}
	for i := range msgs {
		b.Queue(checkFreeQuery, id, msgs[i].ID, minPos)
	}
	res := t.tx.SendBatch(ctx, b)
	taken := -1
	for i := range msgs {
		var n int
		if err := res.QueryRow().Scan(&n); err != nil {
			_ = res.Close()
			return 0, err
		}
		if n > 0 && taken < 0 {
			taken = i
		}
	}
	return taken, res.Close()
}

// retireQuery retires a range of a session's live messages. It finds them
// by their positions and updates them by primary key: written as one
// UPDATE with these conditions, a table without statistics yet (a session
// just imported) had the planner filter every live row of the session
// (TestRetireReadsTheRange).
const retireQuery = `UPDATE messages m SET dead = $1
	FROM (SELECT pos, born FROM messages WHERE session_id = $2 AND dead IS NULL AND pos >= $3 AND pos < $4) r
	WHERE m.session_id = $2 AND m.pos = r.pos AND m.born = r.born`

func (t stmts) RetireMessages(ctx context.Context, id string, rev, from, before int64) error {
	_, err := t.tx.Exec(ctx, retireQuery, rev, id, from, before)
	return err
}
