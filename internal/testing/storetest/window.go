package storetest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"
)

// window reads the window w of session id and returns its head and bodies.
func window(t *testing.T, st kompact.Store, id string, w kompact.MessageWindow) (*kompact.WindowHead, []string) {
	t.Helper()
	var head *kompact.WindowHead
	var bodies []string
	err := st.StreamWindow(t.Context(), id, w, func(h *kompact.WindowHead) error {
		head = h
		return nil
	}, func(b []byte) error {
		bodies = append(bodies, string(b))
		return nil
	})
	if err != nil {
		t.Fatalf("StreamWindow(%q, %+v): %v", id, w, err)
	}
	return head, bodies
}

// testWindow (issue 34 §1): a window read gives the messages of the
// window, as StreamSession gives them, with the session's version, its
// message count and the window's offset; around centres the window on a
// message, kept full near the ends; an offset past the end gives no
// message; positions follow a compaction.
func testWindow(t *testing.T, st kompact.Store) {
	var msgs []kompact.Message
	for i := range 10 {
		msgs = append(msgs, msg([]kompact.Role{kompact.RoleUser, kompact.RoleAssistant}[i%2], fmt.Sprintf("m%d", i), fmt.Sprintf("message %d", i)))
	}
	create(t, st, &kompact.Session{ID: "w", Messages: msgs})
	check := func(w kompact.MessageWindow, offset int64, ids ...string) {
		t.Helper()
		s := get(t, st, "w")
		head, bodies := window(t, st, "w", w)
		if head.Session.ID != "w" || head.Session.Version != s.Version || head.Session.Generation != s.Generation || head.Session.Messages != nil ||
			head.Total != int64(len(s.Messages)) || head.Offset != offset {
			t.Fatalf("%+v: head %+v (session %+v), want version %d, total %d, offset %d", w, *head, *head.Session, s.Version, len(s.Messages), offset)
		}
		if len(bodies) != len(ids) {
			t.Fatalf("%+v: %d messages %v, want %v", w, len(bodies), bodies, ids)
		}
		for i, id := range ids {
			k := slicesIndex(s.Messages, id)
			if k < 0 || int64(k) != offset+int64(i) {
				t.Fatalf("%+v: message %d should be %q at %d, the session has it at %d", w, i, id, offset+int64(i), k)
			}
			if want := jsonOf(&s.Messages[k]); bodies[i] != want {
				t.Fatalf("%+v: message %d is\n%s\nwant (as StreamSession gives it)\n%s", w, i, bodies[i], want)
			}
		}
	}
	check(kompact.MessageWindow{Limit: 3}, 0, "m0", "m1", "m2")
	check(kompact.MessageWindow{Offset: 4, Limit: 2}, 4, "m4", "m5")
	check(kompact.MessageWindow{Offset: 8, Limit: 5}, 8, "m8", "m9")
	check(kompact.MessageWindow{Offset: 10, Limit: 5}, 10)
	check(kompact.MessageWindow{Offset: 1 << 62, Limit: 5}, 1<<62)
	check(kompact.MessageWindow{Around: "m5", Limit: 4}, 3, "m3", "m4", "m5", "m6")
	check(kompact.MessageWindow{Around: "m5", Limit: 1}, 5, "m5")
	check(kompact.MessageWindow{Around: "m1", Limit: 4}, 0, "m0", "m1", "m2", "m3")
	check(kompact.MessageWindow{Around: "m9", Limit: 4}, 6, "m6", "m7", "m8", "m9")
	check(kompact.MessageWindow{Around: "m4", Limit: 50}, 0, "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9")

	// A compaction moves the session's first live position: the window
	// counts from the session's first message still.
	commit(t, st, "w", compaction(t, get(t, st, "w"), kimi.Options{MaxPreserved: 4}, "S"))
	s := get(t, st, "w")
	first := s.Messages[0].ID
	check(kompact.MessageWindow{Limit: 2}, 0, first, s.Messages[1].ID)
	check(kompact.MessageWindow{Around: "m8", Limit: 3}, int64(len(s.Messages)-3), s.Messages[len(s.Messages)-3].ID, "m8", "m9")
	err := st.StreamWindow(t.Context(), "w", kompact.MessageWindow{Around: "m0", Limit: 3}, func(*kompact.WindowHead) error {
		t.Fatal("head was called for a message the compaction replaced")
		return nil
	}, func([]byte) error { return nil })
	wantCode(t, err, kompact.ENotFound, "a window around a message the compaction replaced")
	if !strings.Contains(err.Error(), `"m0"`) {
		t.Errorf("the error %q does not name the message", err)
	}
	appendMsgs(t, st, "w", []kompact.Message{msg(kompact.RoleUser, "late", "later")})
	s = get(t, st, "w")
	check(kompact.MessageWindow{Offset: int64(len(s.Messages) - 1), Limit: 5}, int64(len(s.Messages)-1), "late")

	err = st.StreamWindow(t.Context(), "nobody", kompact.MessageWindow{Limit: 3}, func(*kompact.WindowHead) error { return nil }, func([]byte) error { return nil })
	wantCode(t, err, kompact.ENotFound, "a window of an unknown session")
	stop := kompact.Errorf(kompact.EConflict, "stop here")
	n := 0
	err = st.StreamWindow(t.Context(), "w", kompact.MessageWindow{Limit: 3}, func(*kompact.WindowHead) error { return nil }, func([]byte) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("a body error: %v after %d bodies, want the error itself after 1", err, n)
	}
}

func slicesIndex(msgs []kompact.Message, id string) int {
	for i := range msgs {
		if msgs[i].ID == id {
			return i
		}
	}
	return -1
}

// windowSessionLen is the length of testWindowMemory's session.
const windowSessionLen = 100_000

// RunWindowMemory (issue 34 §1): a window read of a 100k-message
// session allocates what the window needs, not what the session holds:
// reading 100 messages from its middle, by offset or around a message, or
// the last 50, allocates under 1 MiB, and under a twentieth of what a
// read of the whole session (StreamSession) allocates. It holds a store
// whose driver allocates per row read (SQLite's), where reading more than
// the window would show.
func RunWindowMemory(t *testing.T, st kompact.Store) {
	if testing.Short() {
		t.Skip("imports a session of 100k messages")
	}
	ImportSmall(t, st, "big", windowSessionLen)
	measure := func(read func() error) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := read()
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	whole := measure(func() error {
		return st.StreamSession(t.Context(), "big", func(*kompact.StoredSession) error { return nil }, func([]byte) error { return nil })
	})
	t.Logf("the whole session: %d bytes allocated", whole)
	for _, w := range []kompact.MessageWindow{
		{Offset: windowSessionLen / 2, Limit: 100},
		{Around: fmt.Sprintf("b%d", windowSessionLen/3), Limit: 100},
		{Offset: windowSessionLen - 50, Limit: 100},
	} {
		n := 0
		got := measure(func() error {
			return st.StreamWindow(t.Context(), "big", w, func(*kompact.WindowHead) error { return nil }, func([]byte) error { n++; return nil })
		})
		t.Logf("%+v: %d messages, %d bytes allocated", w, n, got)
		if want := min(100, windowSessionLen-int(w.Offset)); n != want {
			t.Errorf("%+v: %d messages, want %d", w, n, want)
		}
		if got > 1<<20 || got > whole/20 {
			t.Errorf("%+v: the window read allocated %d bytes on a session of %d messages (the whole session's read %d): it reads more than the window", w, got, windowSessionLen, whole)
		}
	}
}

// ImportSmall stores session id of n short messages (ids b0, b1, ...) in
// one import of batches of 10,000: a session of 100k messages in a few
// seconds.
func ImportSmall(t testing.TB, st kompact.Store, id string, n int) {
	t.Helper()
	next := 0
	_, err := st.ImportSession(t.Context(), &kompact.Session{ID: id}, func() ([]kompact.Message, error) {
		batch := make([]kompact.Message, 0, min(10_000, n-next))
		for ; next < n && len(batch) < cap(batch); next++ {
			role := kompact.RoleUser
			if next%2 == 1 {
				role = kompact.RoleAssistant
			}
			batch = append(batch, msg(role, fmt.Sprintf("b%d", next), fmt.Sprintf("message %d of the session", next)))
		}
		if len(batch) == 0 {
			return nil, nil
		}
		return batch, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
