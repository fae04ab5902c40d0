package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"kompact"
)

// The store benchmarks every store runs (sqlite and postgres bench_test.go).

// BenchSession returns a conversation of n messages: a system message, then
// user and assistant turns, each with its own ~2 KB of text.
func BenchSession(n int) []kompact.Message {
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
		for j := 0; b.Len() < 2048; j++ {
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

// sizes are the session sizes the append and commit benchmarks run at.
// The 100k case writes ~200 MB; run it with a small -benchtime=Nx.
var sizes = []struct {
	name string
	n    int
}{{"100", 100}, {"10k", 10_000}, {"100k", 100_000}}

// benchSizes runs bench at each of sizes n, on a new store of open
// holding the session "s" of n+extra(b) messages.
func benchSizes(b *testing.B, open func(*testing.B) kompact.Store, extra func(*testing.B) int, bench func(*testing.B, kompact.Store)) {
	for _, size := range sizes {
		b.Run(size.name, func(b *testing.B) {
			if size.n >= 100_000 && testing.Short() {
				b.Skip("the 100k-message session takes minutes to write; not with -short")
			}
			st := open(b)
			if _, err := st.CreateSession(context.Background(), &kompact.Session{ID: "s", Messages: BenchSession(size.n + extra(b))}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			bench(b, st)
		})
	}
}

// BenchAppend appends one ~2 KB message to a session of n messages.
func BenchAppend(b *testing.B, open func(*testing.B) kompact.Store) {
	none := func(*testing.B) int { return 0 }
	benchSizes(b, open, none, func(b *testing.B, st kompact.Store) {
		msg := BenchSession(2)[1]
		for range b.N {
			if _, err := st.AppendMessages(context.Background(), "s", []kompact.Message{msg}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchCommit commits a compaction of a session of n messages that
// keeps the system message and replaces the next 10 messages with a
// summary, while one message was appended after the compaction read the
// session. Only the commit is timed.
func BenchCommit(b *testing.B, open func(*testing.B) kompact.Store) {
	summary := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{
		kompact.TextPart(kompact.SummaryPrefix + "\n" + strings.Repeat("summary text ", 300)),
	}}
	// Spare messages, 12 a commit, so that none runs out of them.
	spare := func(b *testing.B) int { return 12 * b.N }
	benchSizes(b, open, spare, func(b *testing.B, st kompact.Store) {
		ctx := context.Background()
		late := BenchSession(2)[1]
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
			if out.Messages != len(s.Messages)-9+1 {
				b.Fatalf("compacted to %d messages from %d", out.Messages, len(s.Messages))
			}
		}
	})
}

func benchCommit(s *kompact.StoredSession, repl []kompact.Message) kompact.Commit {
	return kompact.Commit{Base: s.Messages, End: 11, Replacement: repl, Kind: kompact.RevisionCompaction, Note: "benchmark", Version: s.Version, Generation: s.Generation}
}

// BenchCreate creates a session of 1k and 10k messages (the import of a
// session): each iteration a new session in the same store, its messages
// made before the timer starts.
func BenchCreate(b *testing.B, open func(*testing.B) kompact.Store) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10_000}} {
		b.Run(size.name, func(b *testing.B) {
			st := open(b)
			msgs := BenchSession(size.n)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				info, err := st.CreateSession(ctx, &kompact.Session{ID: fmt.Sprint("s", i), Messages: msgs})
				if err != nil {
					b.Fatal(err)
				}
				if info.Messages != size.n {
					b.Fatalf("created %d messages, want %d", info.Messages, size.n)
				}
			}
		})
	}
}

// BenchRestore restores, in a session of n messages whose first half a
// compaction replaced (revision 1), the list that compaction replaced:
// each iteration the same list again (recording a revision), its
// estimate worked out by the store.
func BenchRestore(b *testing.B, open func(*testing.B) kompact.Store) {
	none := func(*testing.B) int { return 0 }
	benchSizes(b, open, none, func(b *testing.B, st kompact.Store) {
		ctx := context.Background()
		b.StopTimer()
		s, err := st.GetSession(ctx, "s")
		if err != nil {
			b.Fatal(err)
		}
		c := benchCommit(s, []kompact.Message{s.Messages[0], {Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("summary")}}})
		c.End = len(s.Messages) / 2
		if _, _, err := st.CommitCompaction(ctx, "s", c); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for range b.N {
			if _, _, err := st.RestoreRevision(ctx, "s", 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchSwap swaps the gateway record of a gateway session of 100 and 10k
// messages, appending one ~2 KB message in the same write (a gateway turn
// below the trigger): its cost follows the appended message, not the
// session.
func BenchSwap(b *testing.B, open func(*testing.B) kompact.Store) {
	for _, size := range sizes[:2] {
		b.Run(size.name, func(b *testing.B) {
			st := open(b)
			g, ok := st.(kompact.GatewayStore)
			if !ok {
				b.Fatalf("%T is not a kompact.GatewayStore", st)
			}
			ctx := context.Background()
			state := []byte(strings.Repeat(`{"chain":"0123456789abcdef"}`, 8))
			if _, err := g.CreateGatewaySession(ctx, &kompact.Session{ID: "s", Messages: BenchSession(size.n)}, kompact.GatewayRecord{Key: "key", State: state}); err != nil {
				b.Fatal(err)
			}
			msg := BenchSession(2)[1]
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, _, err := g.SwapGatewayRecord(ctx, "s", int64(i+1), kompact.GatewayUpdate{State: state}, []kompact.Message{msg}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
