package storetest

import (
	"fmt"
	"slices"
	"testing"

	"kompact"
)

// testGatewayPins (issue 42 §2): a swap that appends messages pins the
// ones its GatewayUpdate.Pin names in the same write: after the session's
// own pins, in order, each once, the version up by one as for the append
// alone. A swap without Pin leaves the pinned list as it is, with or
// without pins. A Pin id that is no appended message's (one the session
// holds already, an unknown one), or a Pin without messages, is EInvalid
// and writes nothing. Past kompact.MaxPinned the swap pins what fits, in
// Pin's order, stores every message and succeeds.
func testGatewayPins(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	msgs := conversationWithIDs()
	s := createGateway(t, g, &kompact.Session{ID: "p", Agent: "a", Messages: msgs, Pinned: []string{msgs[1].ID}}, "k", "s1")
	createGateway(t, g, &kompact.Session{ID: "plain", Agent: "a", Messages: conversationWithIDs()}, "k", "t1")

	// Without Pin: the pins stay as they were (none for "plain").
	swapPins(t, g, "plain", 1, nil, msg(kompact.RoleUser, "q1", "question"))
	if p := get(t, st, "plain").Pinned; p != nil {
		t.Fatalf("a swap without Pin pinned %q on a session without pins", p)
	}
	swapPins(t, g, "p", 1, nil, msg(kompact.RoleUser, "q1", "question"))
	wantPinned(t, st, "p", msgs[1].ID)

	// Pin: the named ones of the appended, after the session's own.
	prev := get(t, st, "p")
	added := swapPins(t, g, "p", 2, []string{"e3", "e1", "e3"}, msg(kompact.RoleUser, "e1", "<environment_context>a</environment_context>"),
		msg(kompact.RoleUser, "q2", "another question"), msg(kompact.RoleUser, "e3", "<environment_context>b</environment_context>"))
	if added.Version != prev.Version+1 {
		t.Fatalf("a swap that appends and pins: version %d, want %d (one write)", added.Version, prev.Version+1)
	}
	wantPinned(t, st, "p", msgs[1].ID, "e3", "e1")
	if h, err := st.GetSessionHead(ctx, "p"); err != nil || !slices.Equal(h.Pinned, []string{msgs[1].ID, "e3", "e1"}) {
		t.Fatalf("the head after the swap pins %q (%v)", h.Pinned, err)
	}

	// Refused: nothing changes.
	before := storeSnapshot(t, st)
	for _, bad := range []struct {
		what string
		pin  []string
		msgs []kompact.Message
	}{
		{"a Pin naming a message the session holds", []string{s.Messages[2].ID}, []kompact.Message{msg(kompact.RoleUser, "n1", "x")}},
		{"a Pin naming no message", []string{"n1", "nope"}, []kompact.Message{msg(kompact.RoleUser, "n1", "x")}},
		{"a Pin naming a message without its id", []string{"n1"}, []kompact.Message{msg(kompact.RoleUser, "", "x")}},
		{"a Pin without messages", []string{"e1"}, nil},
	} {
		_, _, err := g.SwapGatewayRecord(ctx, "p", 3, kompact.GatewayUpdate{State: []byte("bad"), Pin: bad.pin}, bad.msgs)
		wantCode(t, err, kompact.EInvalid, bad.what)
		if len(kompact.ErrorFixes(err)) == 0 {
			t.Fatalf("%s: the error %q says nothing about how to fix it", bad.what, err)
		}
	}
	unchanged(t, "refused pins", before, storeSnapshot(t, st))
	wantRecord(t, g, "p", "k", 3, "after 2")

	// At the bound: what fits is pinned, the rest stored unpinned.
	full := make([]kompact.Message, kompact.MaxPinned)
	pins := make([]string, kompact.MaxPinned-1)
	for i := range full {
		full[i] = msg(kompact.RoleUser, fmt.Sprint("f", i), fmt.Sprint("message ", i))
		if i < len(pins) {
			pins[i] = full[i].ID
		}
	}
	createGateway(t, g, &kompact.Session{ID: "full", Agent: "a", Messages: full, Pinned: pins}, "k", "u1")
	swapPins(t, g, "full", 1, []string{"x1", "x2"}, msg(kompact.RoleUser, "x1", "one"), msg(kompact.RoleUser, "x2", "two"))
	got := get(t, st, "full")
	if len(got.Pinned) != kompact.MaxPinned || got.Pinned[len(got.Pinned)-1] != "x1" || len(got.Messages) != kompact.MaxPinned+2 {
		t.Fatalf("a swap past kompact.MaxPinned: %d pins ending %q, %d messages; want %d ending x1, %d messages",
			len(got.Pinned), got.Pinned[len(got.Pinned)-1], len(got.Messages), kompact.MaxPinned, kompact.MaxPinned+2)
	}
	swapPins(t, g, "full", 2, []string{"x3"}, msg(kompact.RoleUser, "x3", "three"))
	if got = get(t, st, "full"); len(got.Pinned) != kompact.MaxPinned || slices.Contains(got.Pinned, "x3") || len(got.Messages) != kompact.MaxPinned+3 {
		t.Fatalf("a swap on a full pinned list: %d pins (x3 among them: %v), %d messages", len(got.Pinned), slices.Contains(got.Pinned, "x3"), len(got.Messages))
	}
}

// swapPins swaps session id's record from seq, appending msgs and pinning
// pin, and returns what the append changed.
func swapPins(t *testing.T, g kompact.GatewayStore, id string, seq int64, pin []string, msgs ...kompact.Message) *kompact.Appended {
	t.Helper()
	state := fmt.Sprint("after ", seq)
	rec, added, err := g.SwapGatewayRecord(t.Context(), id, seq, kompact.GatewayUpdate{State: []byte(state), Pin: pin}, msgs)
	if err != nil || rec.Seq != seq+1 || string(rec.State) != state || added == nil || len(added.Messages) != len(msgs) {
		t.Fatalf("swap of %s from seq %d pinning %q: %+v, %+v, %v", id, seq, pin, rec, added, err)
	}
	return added
}

// wantPinned fails unless session id pins want, in order.
func wantPinned(t *testing.T, st kompact.Store, id string, want ...string) {
	t.Helper()
	if got := get(t, st, id).Pinned; !slices.Equal(got, want) {
		t.Fatalf("session %s pins %q, want %q", id, got, want)
	}
}
