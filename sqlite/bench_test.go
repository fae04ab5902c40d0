package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/internal/storeutil"
	"kompact/internal/testing/storetest"
)

// benchMessages and benchText size the benchmark session: 10,000 messages
// of about 2 KB of text each, 20 MB in all.
const (
	benchMessages = 10_000
	benchText     = 2048
)

// benchSession returns a conversation of n messages of ~2 KB of text
// each (storetest.BenchSession).
func benchSession(n int) []kompact.Message { return storetest.BenchSession(n) }

// rewriteAll is the baseline the compaction commit is measured against:
// simply replace every message of the session in one transaction, as a
// store that keeps no revisions and no stable positions would.
func (s *Store) rewriteAll(ctx context.Context, id string, msgs []kompact.Message) error {
	msgs, err := storeutil.Canonical(msgs, "messages")
	if err != nil {
		return err
	}
	return s.write(ctx, "rewrite", func(tx *sql.Tx) error {
		row, err := stmts{tx: tx}.LoadSession(ctx, id)
		if err != nil {
			return err
		}
		// The session has no revisions here: its bodies are all its
		// messages', and go with them.
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM bodies WHERE session_id = ?`, id); err != nil {
			return err
		}
		if err := (stmts{tx: tx}).InsertMessages(ctx, id, 0, 0, msgs, nil); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET first_pos = 0, n_messages = ?, version = ?, updated_at = ? WHERE id = ?`,
			len(msgs), row.Version+1, formatTime(time.Now()), id)
		return err
	})
}

func benchStore(b *testing.B) *Store {
	b.Helper()
	st, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// benchStoreWithSession is benchStore holding session "s" of benchMessages
// messages, with the timer reset after making it.
func benchStoreWithSession(b *testing.B) *Store {
	b.Helper()
	st := benchStore(b)
	if _, err := st.CreateSession(context.Background(), &kompact.Session{ID: "s", Messages: benchSession(benchMessages)}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	return st
}

// BenchmarkReadRewrite10k reads a 10k-message session and writes all its
// messages back in one transaction.
func BenchmarkReadRewrite10k(b *testing.B) {
	st := benchStoreWithSession(b)
	ctx := context.Background()
	for range b.N {
		s, err := st.GetSession(ctx, "s")
		if err != nil {
			b.Fatal(err)
		}
		if err := st.rewriteAll(ctx, "s", s.Messages); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if s, err := st.GetSession(ctx, "s"); err != nil || len(s.Messages) != benchMessages || s.Version != int64(b.N)+1 {
		b.Fatalf("after the rewrites: %v", err)
	}
	var bodies int
	if err := st.w.QueryRowContext(ctx, `SELECT count(*) FROM bodies`).Scan(&bodies); err != nil || bodies != benchMessages {
		b.Fatalf("%d stored bodies after the rewrites (%v), want %d", bodies, err, benchMessages)
	}
}

// BenchmarkCommitCompaction10k reads a 10k-message session and commits a
// compaction that replaces all but its last 2 messages with one summary,
// recording the revision. Each iteration gets a fresh session, made and
// the previous one deleted outside the timer.
func BenchmarkCommitCompaction10k(b *testing.B) {
	st := benchStore(b)
	ctx := context.Background()
	msgs := benchSession(benchMessages)
	summary := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
		kompact.TextPart(kompact.SummaryPrefix + "\n" + strings.Repeat("summary text ", 300)),
	}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		id := fmt.Sprint("s", i)
		if i > 0 {
			if err := st.DeleteSession(ctx, fmt.Sprint("s", i-1)); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := st.CreateSession(ctx, &kompact.Session{ID: id, Messages: msgs}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()

		s, err := st.GetSession(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		out, info, err := st.CommitCompaction(ctx, id, kompact.Commit{
			Base:        s.Messages,
			End:         len(s.Messages) - 2,
			Replacement: []kompact.Message{summary},
			Kind:        kompact.RevisionCompaction,
			Note:        "benchmark",
		})
		if err != nil {
			b.Fatal(err)
		}
		if out.Messages != 3 || info.Messages != benchMessages {
			b.Fatalf("compacted to %d messages from %d", out.Messages, info.Messages)
		}
	}
}

// BenchmarkGetSession10k reads a 10k-message session: the part both
// benchmarks above share.
func BenchmarkGetSession10k(b *testing.B) {
	st := benchStoreWithSession(b)
	ctx := context.Background()
	for range b.N {
		s, err := st.GetSession(ctx, "s")
		if err != nil || len(s.Messages) != benchMessages {
			b.Fatal(err)
		}
	}
}

// BenchmarkParallelWrites measures small writes (UpdateSettings of the compaction model on an
// empty session) from many goroutines at once, with readers alongside: the
// cost of queueing writers on the single writer connection.
func BenchmarkParallelWrites(b *testing.B) {
	st := benchStore(b)
	ctx := context.Background()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s"}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			var err error
			if i%4 == 3 {
				_, err = st.GetSession(ctx, "s")
			} else {
				_, err = st.UpdateSettings(ctx, "s", storetest.Model(fmt.Sprint("m", i)))
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkAppend appends one ~2 KB message to a session of 100, 10k and
// 100k messages (storetest.BenchAppend).
func BenchmarkAppend(b *testing.B) {
	storetest.BenchAppend(b, func(b *testing.B) kompact.Store { return benchStore(b) })
}

// BenchmarkCommit commits a compaction of the system message and the next
// 10 messages of a session of 100, 10k and 100k messages
// (storetest.BenchCommit).
func BenchmarkCommit(b *testing.B) {
	storetest.BenchCommit(b, func(b *testing.B) kompact.Store { return benchStore(b) })
}

// BenchmarkCreateSession creates a session of 1k and 10k messages: the
// store's part of an import (storetest.BenchCreate).
func BenchmarkCreateSession(b *testing.B) {
	storetest.BenchCreate(b, func(b *testing.B) kompact.Store { return benchStore(b) })
}

// BenchmarkRestore restores the list a compaction of half a session of
// 100, 10k and 100k messages replaced (storetest.BenchRestore).
func BenchmarkRestore(b *testing.B) {
	storetest.BenchRestore(b, func(b *testing.B) kompact.Store { return benchStore(b) })
}

// BenchmarkSwapGatewayRecord swaps a gateway record with one message
// appended, in sessions of 100 and 10k messages (storetest.BenchSwap).
func BenchmarkSwapGatewayRecord(b *testing.B) {
	storetest.BenchSwap(b, func(b *testing.B) kompact.Store { return benchStore(b) })
}
