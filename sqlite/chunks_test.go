package sqlite

import (
	"context"
	"fmt"
	"testing"

	"kompact"
)

// TestChunkRows: a multi-row INSERT adds insertChunk rows, else a power of
// two, so that an import's batches share a few prepared statements.
func TestChunkRows(t *testing.T) {
	sizes := map[int]bool{}
	for n := 1; n <= 3*insertChunk; n++ {
		rows := 0
		for left := n; left > 0; {
			k := chunkRows(left)
			if k < 1 || k > left || k&(k-1) != 0 && k != insertChunk {
				t.Fatalf("chunkRows(%d) = %d", left, k)
			}
			sizes[k] = true
			rows += k
			left -= k
		}
		if rows != n {
			t.Fatalf("%d rows in chunks for %d", rows, n)
		}
	}
	if len(sizes) != 7 {
		t.Fatalf("statement sizes %v, want 64 and the powers of two below it", sizes)
	}
}

// TestBodyChunks: the bodies encoded a chunk ahead are each message's
// JSON form, and their lengths its text length, whatever the chunks.
func TestBodyChunks(t *testing.T) {
	msgs := make([]kompact.Message, 300)
	var fresh []int
	for i := range msgs {
		msgs[i] = kompact.Message{ID: fmt.Sprint("m", i), Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(fmt.Sprint("text ", i))}}
		if i%3 != 1 {
			fresh = append(fresh, i)
		}
	}
	enc := &bodyChunks{msgs: msgs, fresh: fresh, bufs: new([2]chunkBuf), lens: make([]int64, len(fresh))}
	defer enc.wait()
	seen := 0
	for from := 0; from < len(fresh); {
		to := from + chunkRows(len(fresh)-from)
		c := enc.take(from, to)
		if to < len(fresh) {
			enc.start(to, to+chunkRows(len(fresh)-to))
		}
		start := 0
		for k, end := range c.ends {
			if got, want := string(c.buf[start:end]), string(msgs[fresh[from+k]].AppendJSON(nil)); got != want {
				t.Fatalf("body of message %d: %s, want %s", fresh[from+k], got, want)
			}
			start = end
			seen++
		}
		from = to
	}
	if seen != len(fresh) {
		t.Fatalf("%d bodies, want %d", seen, len(fresh))
	}
	enc.wait()
	for k, i := range fresh {
		if enc.lens[k] != int64(msgs[i].TextLen()) {
			t.Fatalf("text length of message %d: %d, want %d", i, enc.lens[k], msgs[i].TextLen())
		}
	}
}

// TestInsertChunks: sessions of every length around the chunk sizes read
// back as written, in one write transaction of several inserts that share
// its statements.
func TestInsertChunks(t *testing.T) {
	st, err := Open(t.TempDir() + "/k.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, n := range []int{1, 2, 3, 63, 64, 65, 127, 129, 200} {
		msgs := make([]kompact.Message, n)
		for i := range msgs {
			msgs[i] = kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(fmt.Sprint(n, ":", i))}}
		}
		id := fmt.Sprint("s", n)
		if _, err := st.CreateSession(ctx, &kompact.Session{ID: id, Messages: msgs[:n/2]}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AppendMessages(ctx, id, msgs[n/2:]); err != nil {
			t.Fatal(err)
		}
		got, err := st.GetSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Messages) != n {
			t.Fatalf("%d messages, want %d", len(got.Messages), n)
		}
		for i := range got.Messages {
			if got.Messages[i].Content[0].Text != msgs[i].Content[0].Text || got.Messages[i].ID != fmt.Sprint("m_", i+1) {
				t.Fatalf("session of %d: message %d is %+v", n, i, got.Messages[i])
			}
		}
	}
}
