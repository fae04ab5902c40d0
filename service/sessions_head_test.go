package service_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"kompact"
	"kompact/service"
)

// The context route's work does not follow the session's length: on a
// session of 4,000 messages, Sessions.Context allocates as on one of 40,
// after a create, an append, a restore and an undo alike (issue 21 §1:
// the store works a restored list's figure out when it writes it). It
// counts allocations, not time.
func TestSessionsContextAllocatesByRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two sessions of thousands of messages")
	}
	e := newSQLiteSessionsEnv(t, kompact.PreviewLimits{})
	ctx := context.Background()
	build := func(id string, n int) {
		e.storeTurns(id, n, func(i int) string { return fmt.Sprintf("message %d of the session", i) })
	}
	allocs := func(id string) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := e.s.Context(ctx, id); err != nil {
				t.Fatal(err)
			}
		})
	}
	build("small", 40)
	build("large", 4000)
	compare := func(when string) {
		t.Helper()
		small, large := allocs("small"), allocs("large")
		if large > small*1.5+20 {
			t.Errorf("%s: Context allocates %.0f times on 4,000 messages, %.0f on 40: it reads the session", when, large, small)
		}
	}
	compare("created")
	for _, id := range []string{"small", "large"} {
		if _, err := e.store.AppendMessages(ctx, id, []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("more")}}}); err != nil {
			t.Fatal(err)
		}
	}
	compare("appended")
	// A compaction of the first 10 messages, then a restore of the list it
	// replaced, then a compaction again and its undo: the store works the
	// figure out when it writes the list.
	for _, id := range []string{"small", "large"} {
		if _, _, err := e.store.RestoreRevision(ctx, id, e.compactFirst(id, 10)); err != nil {
			t.Fatal(err)
		}
	}
	compare("restored")
	for _, id := range []string{"small", "large"} {
		if _, _, err := e.store.UndoCompaction(ctx, id, e.compactFirst(id, 10)); err != nil {
			t.Fatal(err)
		}
	}
	compare("undone")
}

// The restore preview reads ids and where bodies are, not the messages: on
// two sessions of 400 messages, one of 20 characters each and one of 4,000,
// it allocates about alike. And the first append after a restore reads no
// message: on a session of 4,000 messages it allocates as on one of 40
// (issue 21 §1). Both count allocations, not time.
func TestRestoreRoutesAllocateByRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sessions of thousands of messages")
	}
	e := newSQLiteSessionsEnv(t, kompact.PreviewLimits{})
	ctx := context.Background()
	build := func(id string, n, size int) int64 {
		e.storeTurns(id, n, func(int) string { return strings.Repeat("x", size) })
		return e.compactFirst(id, n/2)
	}
	bytesPerRun := func(f func()) uint64 {
		var before, after runtime.MemStats
		f()
		runtime.ReadMemStats(&before)
		for range 5 {
			f()
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 5
	}
	preview := func(id string, rev int64) uint64 {
		return bytesPerRun(func() {
			if _, err := e.s.PreviewRestore(ctx, id, rev); err != nil {
				t.Fatal(err)
			}
		})
	}
	short, long := build("short", 400, 20), build("long", 400, 4000)
	if s, l := preview("short", short), preview("long", long); l > s*3/2+64<<10 {
		t.Errorf("the restore preview allocates %d bytes on 400 messages of 4,000 characters, %d on 400 of 20: it reads the messages", l, s)
	}

	small, large := build("small", 40, 20), build("large", 4000, 20)
	appendAllocs := func(id string, rev int64) float64 {
		if _, _, err := e.store.RestoreRevision(ctx, id, rev); err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(5, func() {
			if _, err := e.s.Append(ctx, id, []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("more")}}}, service.AppendOptions{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if s, l := appendAllocs("small", small), appendAllocs("large", large); l > s*1.5+20 {
		t.Errorf("an append after a restore allocates %.0f times on 4,000 messages, %.0f on 40: it reads the session", l, s)
	}
}

// storeTurns stores session id (agent "manual") of n messages m0, m1, …,
// user and assistant in turn, message i saying text(i).
func (e *sessionsEnv) storeTurns(id string, n int, text func(i int) string) {
	e.t.Helper()
	sess := &kompact.Session{ID: id, Agent: "manual"}
	for i := range n {
		role := kompact.RoleUser
		if i%2 == 1 {
			role = kompact.RoleAssistant
		}
		sess.Messages = append(sess.Messages, kompact.Message{ID: fmt.Sprintf("m%d", i), Role: role,
			Content: []kompact.Part{kompact.TextPart(text(i))}})
	}
	if _, err := e.store.CreateSession(context.Background(), sess); err != nil {
		e.t.Fatal(err)
	}
}

// compactFirst commits a compaction of session id's first end messages
// into a one-message summary (100 tokens) and returns its revision.
func (e *sessionsEnv) compactFirst(id string, end int) int64 {
	e.t.Helper()
	ctx := context.Background()
	cur, err := e.store.GetSession(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	_, info, err := e.store.CommitCompaction(ctx, id, kompact.Commit{Base: cur.Messages, End: end, Version: cur.Version, Generation: cur.Generation, TokenCount: 100,
		Replacement: []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("summary")}}}})
	if err != nil {
		e.t.Fatal(err)
	}
	return info.Rev
}
