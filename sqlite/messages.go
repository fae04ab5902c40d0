// Stored messages: the statements of the messages and bodies tables.

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"unsafe"

	"kompact"
	"kompact/internal/storeutil"
)

func (t stmts) ReadRefs(ctx context.Context, id string, from, to int64) ([]storeutil.Ref, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT id, body_id FROM messages WHERE session_id = ? AND dead IS NULL AND pos >= ? AND pos < ? ORDER BY pos`, id, from, to)
	return collect(rows, err, to-from, func(sc scanner, r *storeutil.Ref) error { return sc.Scan(&r.ID, &r.BodyID) })
}

// EachBody passes on the bodies as the driver hands them out, uncopied:
// each in a buffer of its own (OwnedBodies).
func (t stmts) EachBody(ctx context.Context, id string, from, to int64, fn func([]byte) error) error {
	rows, err := t.tx.QueryContext(ctx, eachBodyQuery, id, from, to)
	var body sql.RawBytes // one variable for all rows: each row's body is a new buffer
	return each(rows, err, func(r *sql.Rows) error {
		if err := r.Scan(&body); err != nil {
			return err
		}
		return fn(body)
	})
}

// eachBodyQuery is EachBody's query: a range of messages_live.
const eachBodyQuery = `SELECT ` + ownedBody + ` FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ? AND m.dead IS NULL AND m.pos >= ? AND m.pos < ? ORDER BY m.pos`

// ownedBody selects the body of the bodies row b as a BLOB. The driver
// (modernc.org/sqlite) returns a TEXT value as a new string per row, which
// database/sql then copies into the reused buffer of a sql.RawBytes: a
// copy of every body, garbage at once, besides the one the decoder keeps.
// A BLOB value it returns as a new []byte per row, which database/sql
// hands to a sql.RawBytes as it is: that buffer is the row's alone, and
// the decoder makes it the message's memory (TestOwnedBodies holds the
// driver to that). The CAST only relabels the stored UTF-8 bytes.
const ownedBody = `CAST(b.body AS BLOB)`

// OwnedBodies: EachBody and EachRevisionBody hand out each body in a
// buffer of its own (ownedBody).
func (t stmts) OwnedBodies() bool { return true }

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

// InsertMessages stores the message rows, then the new bodies, a chunk of
// rows per statement: one statement's parse, bind and step serve
// insertChunk rows, rather than one of each per row and table. The bodies
// get their ids first, so the rows can go in while the first bodies are
// encoded, on another core (bodyChunks); no key ties a row to its body.
func (t stmts) InsertMessages(ctx context.Context, id string, pos, born int64, msgs []kompact.Message, reuse []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	bodyIDs, fresh, err := t.bodyIDs(ctx, msgs, reuse)
	if err != nil {
		return err
	}
	enc := &bodyChunks{msgs: msgs, fresh: fresh, lens: make([]int64, len(fresh))}
	if t.w != nil {
		enc.bufs = &t.w.bufs // reused by the write's next calls
	} else {
		enc.bufs = new([2]chunkBuf)
	}
	defer enc.wait()
	if len(fresh) > insertChunk {
		// Several chunks: worth a core of their own (a goroutine's start
		// and hand-over would cost a small write more than it saves).
		enc.start(0, chunkRows(len(fresh)))
	}
	if err := t.insertRows(ctx, id, pos, born, msgs, bodyIDs, reuse == nil); err != nil {
		return err
	}
	if err := t.insertBodies(ctx, id, enc, bodyIDs); err != nil {
		return err
	}
	return t.insertLengths(ctx, enc, bodyIDs)
}

// insertLengths stores the text length of each new body (migrations/0009),
// as enc measured them while it encoded the bodies, under the body's id:
// the new bodies' ids follow one another.
func (t stmts) insertLengths(ctx context.Context, enc *bodyChunks, bodyIDs []int64) error {
	if len(enc.fresh) == 0 {
		return nil
	}
	return t.chunked(ctx, len(enc.fresh), "body lengths", lengthsInsert, func(args []any, from, to int) []any {
		args = append(args, bodyIDs[enc.fresh[from]])
		for _, n := range enc.lens[from:to] {
			args = append(args, n)
		}
		return args
	})
}

// insertRows inserts the message rows; consecutive tells that the body
// ids follow one another from the first on.
func (t stmts) insertRows(ctx context.Context, id string, pos, born int64, msgs []kompact.Message, bodyIDs []int64, consecutive bool) error {
	if consecutive {
		// All new bodies, under consecutive ids: a chunk needs its first.
		return t.chunked(ctx, len(msgs), "messages new", messagesInsertNew, func(args []any, from, to int) []any {
			args = append(args, id, born, pos+int64(from), bodyIDs[from])
			for i := from; i < to; i++ {
				args = append(args, msgs[i].ID)
			}
			return args
		})
	}
	return t.chunked(ctx, len(msgs), "messages", messagesInsert, func(args []any, from, to int) []any {
		args = append(args, id, born, pos+int64(from))
		for i := from; i < to; i++ {
			args = append(args, bodyIDs[i], msgs[i].ID)
		}
		return args
	})
}

// bodyIDs returns every message's body id: the one reuse gives it, else
// the next free one (the largest id in use plus one on, as SQLite itself
// would pick them), so that a chunk of rows needs no id read back. fresh
// lists the messages that get a new body.
func (t stmts) bodyIDs(ctx context.Context, msgs []kompact.Message, reuse []int64) (bodyIDs []int64, fresh []int, err error) {
	bodyIDs = make([]int64, len(msgs))
	for i := range msgs {
		if reuse != nil && reuse[i] != 0 {
			bodyIDs[i] = reuse[i]
		} else {
			fresh = append(fresh, i)
		}
	}
	if len(fresh) == 0 {
		return bodyIDs, nil, nil
	}
	var last int64
	if err := t.tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM bodies`).Scan(&last); err != nil {
		return nil, nil, err
	}
	if last > math.MaxInt64-int64(len(fresh)) {
		return nil, nil, errors.New("no free body ids left")
	}
	for k, i := range fresh {
		bodyIDs[i] = last + 1 + int64(k)
	}
	return bodyIDs, fresh, nil
}

// insertBodies stores the new bodies enc encodes, under their ids.
func (t stmts) insertBodies(ctx context.Context, id string, enc *bodyChunks, bodyIDs []int64) error {
	fresh := enc.fresh
	return t.chunked(ctx, len(fresh), "bodies", bodiesInsert, func(args []any, from, to int) []any {
		// The driver copies a bound string into SQLite's memory: a body
		// goes without a Go copy of its own (garbage the size of the
		// session for a large import); the chunk's buffer is not written
		// again until the statement has run.
		c := enc.take(from, to)
		if to < len(fresh) && len(fresh) > insertChunk {
			enc.start(to, to+chunkRows(len(fresh)-to))
		}
		args = append(args, id, bodyIDs[fresh[from]])
		start := 0
		for _, end := range c.ends {
			args = append(args, unsafe.String(unsafe.SliceData(c.buf[start:]), end-start))
			start = end
		}
		return args
	})
}

// bodyChunks encodes the bodies of insertBodies' chunks
// (Message.AppendJSON) into two buffers in turn, each on a goroutine of its
// own while the statement before it runs (the first while the message rows
// go in), so that a long insert encodes on one core and stores on the
// other. A chunk not under way is encoded where it is taken.
type bodyChunks struct {
	msgs  []kompact.Message
	fresh []int // the messages whose bodies are inserted, in order
	// lens are their text lengths (Message.TextLen), each set when its
	// chunk is encoded.
	lens []int64
	bufs *[2]chunkBuf
	cur  int           // the buffer of the chunk taken last
	next [2]int        // the chunk under way, fresh[next[0]:next[1]]
	done chan struct{} // closed once the chunk under way is encoded; nil if none is
}

// chunkBuf is a chunk's bodies, one after the other; ends are where each
// one ends.
type chunkBuf struct {
	buf  []byte
	ends []int
}

// encode encodes the messages idx of msgs into c and sets their text
// lengths in lens (one per index of idx).
func (c *chunkBuf) encode(msgs []kompact.Message, idx []int, lens []int64) {
	c.buf, c.ends = c.buf[:0], c.ends[:0]
	for k, i := range idx {
		c.buf = msgs[i].AppendJSON(c.buf)
		c.ends = append(c.ends, len(c.buf))
		lens[k] = int64(msgs[i].TextLen())
	}
}

// start encodes the chunk fresh[from:to] into the buffer not taken last,
// on a goroutine.
func (b *bodyChunks) start(from, to int) {
	spare, idx, done := &b.bufs[1-b.cur], b.fresh[from:to], make(chan struct{})
	b.next, b.done = [2]int{from, to}, done
	go func() {
		defer close(done)
		spare.encode(b.msgs, idx, b.lens[from:to])
	}()
}

// take returns the encoded chunk fresh[from:to]: the one under way, or,
// when another one is (or none), encoded here.
func (b *bodyChunks) take(from, to int) *chunkBuf {
	under := b.done != nil && b.next == [2]int{from, to}
	b.wait()
	b.cur = 1 - b.cur
	c := &b.bufs[b.cur]
	if !under {
		c.encode(b.msgs, b.fresh[from:to], b.lens[from:to])
	}
	return c
}

// wait waits until no chunk is under way.
func (b *bodyChunks) wait() {
	if b.done != nil {
		<-b.done
		b.done = nil
	}
}

// insertChunk is how many rows one INSERT statement adds at most.
const insertChunk = 64

// chunkRows returns how many of n rows left the next statement adds:
// insertChunk, else the largest power of two not above n. The statements
// then come in a few sizes only, each prepared once in a transaction
// (stmts.prepare) however many calls an import's batches make.
func chunkRows(n int) int {
	if n >= insertChunk {
		return insertChunk
	}
	return 1 << (bits.Len(uint(n)) - 1)
}

// chunked runs the statement query(k) for rows [from, from+k) of n rows,
// k as chunkRows gives it, with the arguments fill appends. name tells
// the statement apart from the other queries with k rows.
func (t stmts) chunked(ctx context.Context, n int, name string, query func(k int) string, fill func(args []any, from, to int) []any) error {
	var args []any
	for from := 0; from < n; {
		k := chunkRows(n - from)
		stmt, err := t.prepare(ctx, name, k, query)
		if err != nil {
			return err
		}
		args = fill(args[:0], from, from+k)
		_, err = stmt.ExecContext(ctx, args...)
		if t.w == nil {
			stmt.Close()
		}
		if err != nil {
			return err
		}
		from += k
	}
	return nil
}

// prepare returns the statement query(k), prepared in the transaction at
// its first use and kept for the transaction's later calls (the
// transaction closes it when it ends). Outside a write (t.w nil) it
// prepares it anew, for the caller to close.
func (t stmts) prepare(ctx context.Context, name string, k int, query func(k int) string) (*sql.Stmt, error) {
	key := stmtKey{name, k}
	if t.w == nil {
		return t.tx.PrepareContext(ctx, query(k))
	}
	if stmt := t.w.prep[key]; stmt != nil {
		return stmt, nil
	}
	stmt, err := t.tx.PrepareContext(ctx, query(k))
	if err != nil {
		return nil, err
	}
	if t.w.prep == nil {
		t.w.prep = map[stmtKey]*sql.Stmt{}
	}
	t.w.prep[key] = stmt
	return stmt, nil
}

// stmtKey names a prepared multi-row statement: its query and its rows.
type stmtKey struct {
	name string
	k    int
}

// bodiesInsert inserts k bodies: ?1 is the session, ?2 the first body's
// id (the next ones follow it), then the bodies. A bare "?" is numbered
// one past the largest number before it, and has no name for the driver
// to look up and copy at every bind.
func bodiesInsert(k int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO bodies (id, session_id, body) VALUES `)
	for j := range k {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(?2 + %d, ?1, ?)", j)
	}
	return b.String()
}

// lengthsInsert inserts k text lengths: ?1 is the first body's id (the
// next ones follow it), then the lengths.
func lengthsInsert(k int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO body_lengths (body_id, text_len) VALUES `)
	for j := range k {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(?1 + %d, ?)", j)
	}
	return b.String()
}

// messagesInsert inserts k message rows: ?1 is the session, ?2 the
// revision they are born at, ?3 the first one's position (the next ones
// follow it), then each one's body id and id.
func messagesInsert(k int) string { return rowsInsert(k, "(?1, ?3 + %[1]d, ?2, ?, ?)") }

// messagesInsertNew is messagesInsert for rows whose body ids follow one
// another from ?4 on: then each row has only its id. (?4 comes before the
// bare ?, which would otherwise take the number 4.)
func messagesInsertNew(k int) string { return rowsInsert(k, "(?1, ?3 + %[1]d, ?2, ?4 + %[1]d, ?)") }

// rowsInsert is the INSERT into messages of k rows, row j written by
// row with j as its argument; the columns are session_id, pos, born,
// body_id, id.
func rowsInsert(k int, row string) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO messages (session_id, pos, born, body_id, id) VALUES `)
	for j := range k {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, row, j)
	}
	return b.String()
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

func (t stmts) RetireMessages(ctx context.Context, id string, rev, from, before int64) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE messages SET dead = ? WHERE session_id = ? AND dead IS NULL AND pos >= ? AND pos < ?`, rev, id, from, before)
	return err
}
