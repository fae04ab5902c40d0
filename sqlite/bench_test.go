package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/storeutil"
)

// benchMessages and benchText size the benchmark session: 10,000 messages
// of about 2 KB of text each, 20 MB in all.
const (
	benchMessages = 10_000
	benchText     = 2048
)

// benchSession returns a conversation of n messages: a system message, then
// user and assistant turns, each with its own ~2 KB of text.
func benchSession(n int) []kompact.Message {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while the agent reads files runs tests and edits code é 中文 \"quoted\"")
	msgs := make([]kompact.Message, n)
	for i := range msgs {
		role := kompact.RoleUser
		switch {
		case i == 0:
			role = kompact.RoleSystem
		case i%2 == 0:
			role = kompact.RoleAssistant
		}
		var b strings.Builder
		fmt.Fprintf(&b, "message %d:", i)
		for j := 0; b.Len() < benchText; j++ {
			b.WriteByte(' ')
			b.WriteString(words[(i*7+j*13)%len(words)])
			if j%17 == 16 {
				b.WriteString(".\n")
			}
		}
		msgs[i] = kompact.Message{Role: role, Content: []kompact.Part{kompact.TextPart(b.String())}}
	}
	return msgs
}

// rewriteAll is the baseline the compaction commit is measured against:
// simply replace every message of the session in one transaction, as a
// store that keeps no revisions and no stable positions would.
func (s *Store) rewriteAll(ctx context.Context, id string, msgs []kompact.Message) error {
	msgs, err := storeutil.Canonical(msgs, "messages")
	if err != nil {
		return err
	}
	return s.write(ctx, "rewrite", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
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
		if err := insertMessages(ctx, tx, id, 0, 0, msgs); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET first_pos = 0, n_messages = ?, version = ?, updated_at = ? WHERE id = ?`,
			len(msgs), row.version+1, formatTime(s.now(row.updated)), id)
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
		if len(out.Messages) != 3 || info.Messages != benchMessages {
			b.Fatalf("compacted to %d messages from %d", len(out.Messages), info.Messages)
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

// BenchmarkParallelWrites measures small writes (SetCompactionModel on an
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
				_, err = st.SetCompactionModel(ctx, "s", fmt.Sprint("m", i))
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// benchSizes are the session sizes the append and commit benchmarks run at.
// The 100k case writes ~200 MB; run it with a small -benchtime=Nx.
var benchSizes = []struct {
	name string
	n    int
}{{"100", 100}, {"10k", 10_000}, {"100k", 100_000}}

// BenchmarkAppend appends one ~2 KB message to a session of n messages.
func BenchmarkAppend(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			st := benchStore(b)
			ctx := context.Background()
			if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: benchSession(size.n)}); err != nil {
				b.Fatal(err)
			}
			msg := benchSession(2)[1]
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := st.AppendMessages(ctx, "s", []kompact.Message{msg}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCommit commits a compaction of a session of n messages that
// keeps the system message and replaces the next 10 messages with a
// summary, while one message was appended after the compaction read the
// session. Only the commit is timed.
func BenchmarkCommit(b *testing.B) {
	summary := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
		kompact.TextPart(kompact.SummaryPrefix + "\n" + strings.Repeat("summary text ", 300)),
	}}
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			st := benchStore(b)
			ctx := context.Background()
			if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: benchSession(size.n + 12*b.N)}); err != nil {
				b.Fatal(err)
			}
			late := benchSession(2)[1]
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				s, err := st.GetSession(ctx, "s")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := st.AppendMessages(ctx, "s", []kompact.Message{late}); err != nil {
					b.Fatal(err)
				}
				c := benchCommit(s, []kompact.Message{s.Messages[0], summary})
				b.StartTimer()
				out, _, err := st.CommitCompaction(ctx, "s", c)
				if err != nil {
					b.Fatal(err)
				}
				if len(out.Messages) != len(s.Messages)-9+1 {
					b.Fatalf("compacted to %d messages from %d", len(out.Messages), len(s.Messages))
				}
			}
		})
	}
}

func benchCommit(s *kompact.StoredSession, repl []kompact.Message) kompact.Commit {
	return kompact.Commit{Base: s.Messages, End: 11, Replacement: repl, Kind: kompact.RevisionCompaction, Note: "benchmark", Version: s.Version}
}
