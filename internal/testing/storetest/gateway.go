package storetest

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"testing"

	"kompact"
	"kompact/kimi"
)

// The compaction gateway's store side (kompact.GatewayStore, issue 22):
// a gateway session is an ordinary session with a record beside it, which
// a swap changes only from the seq it was read at, appending the
// request's new messages in the same write.

// gatewayStore returns st as a kompact.GatewayStore (both stores are).
func gatewayStore(t *testing.T, st kompact.Store) kompact.GatewayStore {
	t.Helper()
	g, ok := st.(kompact.GatewayStore)
	if !ok {
		t.Fatalf("%T is not a kompact.GatewayStore", st)
	}
	return g
}

// createGateway creates a gateway session, checks its description against
// the store's (Gateway set) and returns the session read back.
func createGateway(t *testing.T, g kompact.GatewayStore, s *kompact.Session, key, state string) *kompact.StoredSession {
	t.Helper()
	return createChained(t, g, s, key, "", state)
}

// createChained is createGateway with the record's chain.
func createChained(t *testing.T, g kompact.GatewayStore, s *kompact.Session, key, chain, state string) *kompact.StoredSession {
	t.Helper()
	info, err := g.CreateGatewaySession(t.Context(), s, kompact.GatewayRecord{Key: key, Chain: chain, State: []byte(state)})
	if err != nil {
		t.Fatalf("CreateGatewaySession: %v", err)
	}
	if info.Version != 1 || !info.Gateway || !info.CreatedAt.Equal(info.UpdatedAt) {
		t.Fatalf("CreateGatewaySession returned %+v: want version 1, a gateway session, created when updated", *info)
	}
	st := g.(kompact.Store)
	out := described(t, st, info, nil, "CreateGatewaySession")
	if !out.Gateway || out.Rewritten != 1 {
		t.Fatalf("GetSession of a new gateway session: gateway %v rewritten %d, want true 1", out.Gateway, out.Rewritten)
	}
	wantRecord(t, g, out.ID, key, 1, state)
	return out
}

// wantRecord checks the record GetGatewayRecord reads.
func wantRecord(t *testing.T, g kompact.GatewayStore, id, key string, seq int64, state string) {
	t.Helper()
	r, err := g.GetGatewayRecord(t.Context(), id)
	if err != nil {
		t.Fatalf("GetGatewayRecord(%q): %v", id, err)
	}
	if r.SessionID != id || r.Key != key || r.Seq != seq || string(r.State) != state {
		t.Fatalf("GetGatewayRecord(%q) = {%q %q %d %q}, want {%q %q %d %q}", id, r.SessionID, r.Key, r.Seq, r.State, id, key, seq, state)
	}
}

// found lists the session ids of the records FindGatewayRecords returns.
func found(t *testing.T, g kompact.GatewayStore, key string, limit int) []string {
	t.Helper()
	rs, err := g.FindGatewayRecords(t.Context(), key, nil, limit)
	if err != nil {
		t.Fatalf("FindGatewayRecords(%q, %d): %v", key, limit, err)
	}
	ids := []string{}
	for _, r := range rs {
		if r.Key != key || r.Seq < 1 {
			t.Fatalf("FindGatewayRecords(%q) returned %+v", key, r)
		}
		ids = append(ids, r.SessionID)
	}
	return ids
}

// titleOf returns the title ListSessions gives session id.
func titleOf(t *testing.T, st kompact.Store, id string) string {
	t.Helper()
	for _, l := range listSessions(t, st) {
		if l.ID == id {
			return l.Title
		}
	}
	t.Fatalf("session %q is not listed", id)
	return ""
}

func wantIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
}

// testGatewayCreate: a gateway session is created as CreateSession creates
// one (ids, checks, title, token figures), with its record; records are
// found by key, the one created last first, at most limit; a session
// CreateSession made is no gateway session; a taken id is EConflict.
func testGatewayCreate(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	plain := create(t, st, &kompact.Session{ID: "plain", Agent: "a", Messages: conversation()})
	s := createGateway(t, g, &kompact.Session{ID: "g1", Agent: "a", Messages: conversation()}, "k", `{"n":1}`)
	if plain.Gateway || plain.Rewritten != 1 {
		t.Fatalf("a session CreateSession made: gateway %v rewritten %d, want false 1", plain.Gateway, plain.Rewritten)
	}
	sameMessages(t, "a gateway session's messages", s.Messages, plain.Messages)
	if s.Tokens != plain.Tokens || titleOf(t, st, "g1") != titleOf(t, st, "plain") {
		t.Fatalf("gateway session tokens %+v title %q, CreateSession's %+v %q", s.Tokens, titleOf(t, st, "g1"), plain.Tokens, titleOf(t, st, "plain"))
	}
	for id, want := range map[string]bool{"plain": false, "g1": true} {
		head, err := st.GetSessionHead(ctx, id)
		if err != nil || head.Gateway != want || head.Rewritten != 1 {
			t.Fatalf("GetSessionHead(%q): %+v, %v; want gateway %v rewritten 1", id, head, err, want)
		}
	}
	for _, l := range listSessions(t, st) {
		if l.Gateway != (l.ID == "g1") {
			t.Fatalf("ListSessions describes %q with gateway %v", l.ID, l.Gateway)
		}
	}
	_, err := g.GetGatewayRecord(ctx, "plain")
	wantCode(t, err, kompact.ENotFound, "GetGatewayRecord of a session CreateSession made")
	_, err = g.GetGatewayRecord(ctx, "nope")
	wantCode(t, err, kompact.ENotFound, "GetGatewayRecord of a missing session")

	// Newest first, at most limit, by key only; an id is assigned.
	createGateway(t, g, &kompact.Session{ID: "g2"}, "k", "two")
	createGateway(t, g, &kompact.Session{ID: "other"}, "k2", "x")
	g3 := createGateway(t, g, &kompact.Session{Messages: conversation()[:2]}, "k", "")
	wantIDs(t, "records of k", found(t, g, "k", 0), g3.ID, "g2", "g1")
	wantIDs(t, "records of k, limit 2", found(t, g, "k", 2), g3.ID, "g2")
	wantIDs(t, "records of k2", found(t, g, "k2", 10), "other")
	wantIDs(t, "records of an unknown key", found(t, g, "k3", 10))

	// A taken id, or a session CreateSession refuses, changes nothing.
	before := storeSnapshot(t, st)
	for _, id := range []string{"plain", "g1"} {
		_, err = g.CreateGatewaySession(ctx, &kompact.Session{ID: id, Messages: conversation()}, kompact.GatewayRecord{Key: "k", State: []byte("new")})
		wantCode(t, err, kompact.EConflict, "CreateGatewaySession with the taken id "+id)
	}
	_, err = g.CreateGatewaySession(ctx, &kompact.Session{ID: "bad", Messages: []kompact.Message{msg(kompact.Role("robot"), "", "x")}}, kompact.GatewayRecord{Key: "k"})
	wantCode(t, err, kompact.EInvalid, "CreateGatewaySession with an unknown role")
	unchanged(t, "refused gateway creations", before, storeSnapshot(t, st))
	wantRecord(t, g, "g1", "k", 1, `{"n":1}`)
	wantIDs(t, "records of k after the refusals", found(t, g, "k", 0), g3.ID, "g2", "g1")
}

// testGatewaySwap: a swap from the record's seq writes the state at seq+1
// and appends as AppendMessages does (the same answer, ids, version and
// token figures as a twin session appended to); without messages the
// session does not change; from another seq, or with messages an append
// refuses, it is refused and changes nothing.
func testGatewaySwap(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	s := createGateway(t, g, &kompact.Session{ID: "g", Agent: "a", Messages: conversation()}, "k", "s1")
	create(t, st, &kompact.Session{ID: "twin", Agent: "a", Messages: conversation()})

	rec, added, err := g.SwapGatewayRecord(ctx, "g", 1, kompact.GatewayUpdate{State: []byte("s2")}, nil)
	if err != nil || added != nil || rec.Seq != 2 || string(rec.State) != "s2" || rec.Key != "k" || rec.SessionID != "g" {
		t.Fatalf("swap without messages: %+v, %+v, %v", rec, added, err)
	}
	wantRecord(t, g, "g", "k", 2, "s2")
	sameStored(t, "the session after a swap without messages", get(t, st, "g"), s)

	before := storeSnapshot(t, st)
	for _, seq := range []int64{1, 3} {
		_, _, err = g.SwapGatewayRecord(ctx, "g", seq, kompact.GatewayUpdate{State: []byte("stale")}, []kompact.Message{msg(kompact.RoleUser, "", "lost")})
		wantCode(t, err, kompact.EConflict, fmt.Sprint("a swap from seq ", seq, " at seq 2"))
		if len(kompact.ErrorFixes(err)) == 0 {
			t.Fatalf("the stale swap's error %q says nothing about how to fix it", err)
		}
	}
	_, _, err = g.SwapGatewayRecord(ctx, "g", 2, kompact.GatewayUpdate{State: []byte("bad")}, []kompact.Message{msg(kompact.RoleUser, s.Messages[0].ID, "taken")})
	wantCode(t, err, kompact.EConflict, "a swap appending an id the session has")
	_, _, err = g.SwapGatewayRecord(ctx, "g", 2, kompact.GatewayUpdate{State: []byte("bad")}, []kompact.Message{msg(kompact.Role("robot"), "", "x")})
	wantCode(t, err, kompact.EInvalid, "a swap appending an unknown role")
	_, _, err = g.SwapGatewayRecord(ctx, "twin", 1, kompact.GatewayUpdate{State: []byte("bad")}, nil)
	wantCode(t, err, kompact.ENotFound, "a swap on a session CreateSession made")
	_, _, err = g.SwapGatewayRecord(ctx, "nope", 1, kompact.GatewayUpdate{State: []byte("bad")}, nil)
	wantCode(t, err, kompact.ENotFound, "a swap on a missing session")
	unchanged(t, "refused swaps", before, storeSnapshot(t, st))
	wantRecord(t, g, "g", "k", 2, "s2")

	// With messages: what AppendMessages does to the twin, on the token
	// figures' every path (a recorded count, then pending on top).
	for i, count := range []int{0, 900} {
		if count > 0 {
			for _, id := range []string{"g", "twin"} {
				if err := st.SetTokenCount(ctx, id, count); err != nil {
					t.Fatal(err)
				}
			}
		}
		batch := []kompact.Message{msg(kompact.RoleUser, "", fmt.Sprint("question ", i)), msg(kompact.RoleAssistant, fmt.Sprint("given", i), "answer")}
		swapAppends(t, st, "g", int64(2+i), batch, "twin")
	}
	wantRecord(t, g, "g", "k", 4, "after 3")
}

// swapAppends swaps session id's record from seq with batch appended,
// and checks the answer and the session against AppendMessages' to twin.
func swapAppends(t *testing.T, st kompact.Store, id string, seq int64, batch []kompact.Message, twin string) {
	t.Helper()
	ctx := t.Context()
	g := gatewayStore(t, st)
	prev := get(t, st, id)
	state := fmt.Sprint("after ", seq)
	rec, got, err := g.SwapGatewayRecord(ctx, id, seq, kompact.GatewayUpdate{State: []byte(state)}, batch)
	if err != nil || rec.Seq != seq+1 || string(rec.State) != state {
		t.Fatalf("swap with messages from seq %d: %+v, %v", seq, rec, err)
	}
	want, err := st.AppendMessages(ctx, twin, batch)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Version != want.Version || got.Version != prev.Version+1 || got.Agent != want.Agent || got.Breaker != want.Breaker ||
		(got.Tokens == nil) != (want.Tokens == nil) || (got.Tokens != nil && *got.Tokens != *want.Tokens) {
		t.Fatalf("the swap appended %+v; AppendMessages %+v", got, want)
	}
	sameMessages(t, "the messages the swap appended", got.Messages, want.Messages)
	after, other := get(t, st, id), get(t, st, twin)
	sameMessages(t, "the session after the swap", after.Messages, other.Messages)
	if after.Version != got.Version || !after.UpdatedAt.Equal(got.UpdatedAt) || !got.UpdatedAt.After(prev.UpdatedAt) ||
		after.Tokens != other.Tokens || after.Rewritten != prev.Rewritten || got.Rewritten != after.Rewritten || want.Rewritten != other.Rewritten {
		t.Fatalf("after the swap: %+v; it answered %+v; the twin has %+v", after, got, other)
	}
	if a, b := titleOf(t, st, id), titleOf(t, st, twin); a != b {
		t.Fatalf("title %q after the swap, the twin's %q", a, b)
	}
}

// testGatewayDelete: deleting a gateway session deletes its record; a
// session created again under its id starts without one.
func testGatewayDelete(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	createGateway(t, g, &kompact.Session{ID: "d", Messages: conversation()}, "k", "x")
	createGateway(t, g, &kompact.Session{ID: "keep"}, "k", "y")
	if err := st.DeleteSession(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	_, err := g.GetGatewayRecord(ctx, "d")
	wantCode(t, err, kompact.ENotFound, "GetGatewayRecord after DeleteSession")
	wantIDs(t, "records after the delete", found(t, g, "k", 0), "keep")
	_, _, err = g.SwapGatewayRecord(ctx, "d", 1, kompact.GatewayUpdate{}, nil)
	wantCode(t, err, kompact.ENotFound, "a swap after DeleteSession")
	if s := create(t, st, &kompact.Session{ID: "d"}); s.Gateway {
		t.Fatal("a session created again under a deleted gateway session's id is a gateway session")
	}
	_, err = g.GetGatewayRecord(ctx, "d")
	wantCode(t, err, kompact.ENotFound, "GetGatewayRecord of a session created again")
	wantRecord(t, g, "keep", "k", 1, "y")
}

// testGatewayChains (issue 29): FindGatewayRecords with chains finds the
// records of the key whose chain is one of them, however many other
// records share the key; a swap moves a record's chain.
func testGatewayChains(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	createChained(t, g, &kompact.Session{ID: "old", Messages: conversation()}, "k", "c-old", "s")
	for i := range 20 { // newer records of the key, the 16 a key-only find reads
		createChained(t, g, &kompact.Session{ID: fmt.Sprint("n", i)}, "k", fmt.Sprint("c", i), "s")
	}
	createChained(t, g, &kompact.Session{ID: "elsewhere"}, "k2", "c-old", "s")
	find := func(chains []string, limit int) []string {
		t.Helper()
		rs, err := g.FindGatewayRecords(ctx, "k", chains, limit)
		if err != nil {
			t.Fatalf("FindGatewayRecords(k, %v): %v", chains, err)
		}
		var ids []string
		for _, r := range rs {
			if r.Key != "k" || !slices.Contains(chains, r.Chain) {
				t.Fatalf("FindGatewayRecords(k, %v) returned %+v", chains, r)
			}
			ids = append(ids, r.SessionID)
		}
		return ids
	}
	wantIDs(t, "records of chain c-old", find([]string{"c-old"}, 0), "old")
	wantIDs(t, "records of three chains", find([]string{"c3", "nope", "c-old", "c19"}, 0), "n19", "n3", "old")
	wantIDs(t, "records of three chains, limit 2", find([]string{"c3", "c-old", "c19"}, 2), "n19", "n3")
	wantIDs(t, "records of no chain", find([]string{}, 0))
	_, err := g.FindGatewayRecords(ctx, "k", make([]string, kompact.MaxGatewayChains+1), 0)
	wantCode(t, err, kompact.EInvalid, "a find by too many chains")
	rec, _, err := g.SwapGatewayRecord(ctx, "old", 1, kompact.GatewayUpdate{Chain: "c-moved", State: []byte("t")}, []kompact.Message{msg(kompact.RoleUser, "", "more")})
	if err != nil || rec.Chain != "c-moved" {
		t.Fatalf("a swap to another chain: %+v, %v", rec, err)
	}
	wantIDs(t, "records of the chain the swap left", find([]string{"c-old"}, 0))
	wantIDs(t, "records of the chain the swap made", find([]string{"c-moved"}, 0), "old")
	if r, err := g.GetGatewayRecord(ctx, "old"); err != nil || r.Chain != "c-moved" {
		t.Fatalf("GetGatewayRecord after the swap: %+v, %v", r, err)
	}
}

// testGatewaySwapRewritten (issue 28 §1): a swap made for the session's
// Rewritten applies; one made for an earlier Rewritten (a restore came
// between) is EConflict and changes nothing, messages and record alike.
func testGatewaySwapRewritten(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	createGateway(t, g, &kompact.Session{ID: "w", Messages: conversation()}, "k", "s1")
	if _, _, err := g.SwapGatewayRecord(ctx, "w", 1, kompact.GatewayUpdate{State: []byte("s2"), Rewritten: 1}, []kompact.Message{msg(kompact.RoleUser, "", "more")}); err != nil {
		t.Fatalf("a swap for the session's Rewritten: %v", err)
	}
	_, info := commit(t, st, "w", compaction(t, get(t, st, "w"), kimi.Options{MaxPreserved: 2}, "summary"))
	restore(t, st, "w", info.Rev)
	r := get(t, st, "w")
	before := storeSnapshot(t, st)
	_, _, err := g.SwapGatewayRecord(ctx, "w", 2, kompact.GatewayUpdate{State: []byte("stale"), Rewritten: 1}, []kompact.Message{msg(kompact.RoleUser, "", "after a hole")})
	wantCode(t, err, kompact.EConflict, "a swap for a Rewritten before the restore")
	if len(kompact.ErrorFixes(err)) == 0 {
		t.Fatalf("the stale swap's error %q says nothing about how to fix it", err)
	}
	unchanged(t, "a swap refused for its Rewritten", before, storeSnapshot(t, st))
	wantRecord(t, g, "w", "k", 2, "s2")
	if _, _, err := g.SwapGatewayRecord(ctx, "w", 2, kompact.GatewayUpdate{State: []byte("s3"), Rewritten: r.Rewritten}, []kompact.Message{msg(kompact.RoleUser, "", "after")}); err != nil {
		t.Fatalf("a swap for the restored session's Rewritten: %v", err)
	}
	wantRecord(t, g, "w", "k", 3, "s3")
}

// testGatewayRewritten: Rewritten is the version after the latest
// compaction, restore or undo (1 before any), in GetSession,
// GetSessionHead and StreamSession's head; appends and swaps leave it;
// a gateway session stays one through them all.
func testGatewayRewritten(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	check := func(when string, want int64) {
		t.Helper()
		s := get(t, st, "r")
		head, err := st.GetSessionHead(ctx, "r")
		if err != nil {
			t.Fatal(err)
		}
		var streamed *kompact.StoredSession
		err = st.StreamSession(ctx, "r", func(h *kompact.StoredSession) error { streamed = h; return nil }, func([]byte) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		for what, x := range map[string]*kompact.StoredSession{"GetSession": s, "GetSessionHead": head, "StreamSession": streamed} {
			if x.Rewritten != want || !x.Gateway {
				t.Fatalf("%s: %s reads rewritten %d gateway %v, want %d true", when, what, x.Rewritten, x.Gateway, want)
			}
		}
	}
	s0 := createGateway(t, g, &kompact.Session{ID: "r", Messages: conversation()}, "k", "")
	check("created", 1)
	appendMsgs(t, st, "r", []kompact.Message{msg(kompact.RoleUser, "", "more")})
	if _, _, err := g.SwapGatewayRecord(ctx, "r", 1, kompact.GatewayUpdate{}, []kompact.Message{msg(kompact.RoleAssistant, "", "yes")}); err != nil {
		t.Fatal(err)
	}
	check("appended", 1)
	s1, info := commit(t, st, "r", compaction(t, get(t, st, "r"), kimi.Options{MaxPreserved: 2}, "summary"))
	check("compacted", s1.Version)
	appendMsgs(t, st, "r", []kompact.Message{msg(kompact.RoleUser, "", "after")})
	check("appended after the compaction", s1.Version)
	r, _ := restore(t, st, "r", info.Rev)
	check("restored", r.Version)
	c := compaction(t, r, kimi.Options{MaxPreserved: 2}, "summary two")
	_, info2 := commit(t, st, "r", c)
	u, _ := undo(t, st, "r", info2.Rev)
	check("undone", u.Version)
	if u.Version <= s0.Version {
		t.Fatalf("version %d after the rewrites", u.Version)
	}
}

// testGatewayLimit: the session limit (kompact.SessionLimiter) applies to
// a gateway session's creation and to a swap's append, which then changes
// nothing, the record included.
func testGatewayLimit(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	n := len(conversation())
	st.(kompact.SessionLimiter).LimitSessionMessages(n)
	_, err := g.CreateGatewaySession(ctx, &kompact.Session{ID: "big", Messages: append(conversation(), msg(kompact.RoleUser, "", "one too many"))}, kompact.GatewayRecord{Key: "k"})
	wantLimit(t, err, "CreateGatewaySession", `session "big" would have 10 messages`)
	createGateway(t, g, &kompact.Session{ID: "full", Messages: conversation()}, "k", "s")
	before := storeSnapshot(t, st)
	_, _, err = g.SwapGatewayRecord(ctx, "full", 1, kompact.GatewayUpdate{State: []byte("t")}, []kompact.Message{msg(kompact.RoleUser, "", "more")})
	wantLimit(t, err, "SwapGatewayRecord", `session "full" would have 10 messages`)
	unchanged(t, "a swap past the limit", before, storeSnapshot(t, st))
	wantRecord(t, g, "full", "k", 1, "s")
	wantIDs(t, "records after the refused create", found(t, g, "k", 0), "full")
}

// testGatewayRace: of two swaps from one seq at once, exactly one wins;
// the other is EConflict and appends nothing.
func testGatewayRace(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	createGateway(t, g, &kompact.Session{ID: "race", Messages: conversation()[:1]}, "k", "0")
	const rounds = 8
	for round := range int64(rounds) {
		seq := round + 1
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		for w := range errs {
			wg.Go(func() {
				<-start
				state := []byte(fmt.Sprint(round, "-", w))
				_, _, errs[w] = g.SwapGatewayRecord(ctx, "race", seq, kompact.GatewayUpdate{State: state}, []kompact.Message{msg(kompact.RoleUser, "", string(state))})
			})
		}
		close(start)
		wg.Wait()
		won := -1
		for w, err := range errs {
			switch {
			case err == nil && won < 0:
				won = w
			case err == nil:
				t.Fatalf("round %d: both swaps from seq %d won", round, seq)
			default:
				wantCode(t, err, kompact.EConflict, "the swap that lost")
			}
		}
		if won < 0 {
			t.Fatalf("round %d: no swap won: %v", round, errs)
		}
		wantRecord(t, g, "race", "k", seq+1, fmt.Sprint(round, "-", won))
		s := get(t, st, "race")
		last := s.Messages[len(s.Messages)-1]
		if len(s.Messages) != int(seq)+1 || !bytes.Contains(last.AppendJSON(nil), []byte(fmt.Sprint(round, "-", won))) {
			t.Fatalf("round %d: the session has %d messages, the last %s", round, len(s.Messages), jsonOf(&last))
		}
	}
}

// RunGatewayChainsUpgrade checks a store's upgrade of a database at
// migration 0010 (before the records' chains): st stores two gateway
// records, one whose state holds a client_chain and one whose state is
// not JSON; downgrade takes the database back to 0010 and returns the
// store that upgraded it again; the first is found by its state's chain,
// the second has none.
func RunGatewayChainsUpgrade(t *testing.T, st kompact.Store, downgrade func(t *testing.T) kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	createChained(t, g, &kompact.Session{ID: "json"}, "k", "abc", `{"client_count":2,"client_chain":"abc"}`)
	createChained(t, g, &kompact.Session{ID: "opaque"}, "k", "def", "not json")
	up := gatewayStore(t, downgrade(t))
	rs, err := up.FindGatewayRecords(ctx, "k", []string{"abc"}, 0)
	if err != nil || len(rs) != 1 || rs[0].SessionID != "json" || rs[0].Chain != "abc" {
		t.Fatalf("the record whose state holds chain abc, after the upgrade: %+v, %v", rs, err)
	}
	if r, err := up.GetGatewayRecord(ctx, "opaque"); err != nil || r.Chain != "" || string(r.State) != "not json" {
		t.Fatalf("the record whose state is not JSON, after the upgrade: %+v, %v", r, err)
	}
}

// RunGatewayUpgrade checks a store's upgrade of a database at migration
// 0007 (before the gateway records): st stores a session, downgrade takes
// the database back to 0007 and returns the store that upgraded it again;
// the session stays, is no gateway session, and gateway sessions can be
// created and found.
func RunGatewayUpgrade(t *testing.T, st kompact.Store, downgrade func(t *testing.T) kompact.Store) {
	ctx := t.Context()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "old", Messages: []kompact.Message{{Role: kompact.RoleUser}}}); err != nil {
		t.Fatal(err)
	}
	up := downgrade(t)
	g := gatewayStore(t, up)
	if s, err := up.GetSession(ctx, "old"); err != nil || s.Gateway || s.Rewritten != 1 || len(s.Messages) != 1 {
		t.Fatalf("the session stored at 0007: %+v, %v", s, err)
	}
	if _, err := g.CreateGatewaySession(ctx, &kompact.Session{ID: "new"}, kompact.GatewayRecord{Key: "k", Chain: "c", State: []byte("{}")}); err != nil {
		t.Fatalf("CreateGatewaySession after the upgrade: %v", err)
	}
	if rs, err := g.FindGatewayRecords(ctx, "k", []string{"c"}, 0); err != nil || len(rs) != 1 || rs[0].SessionID != "new" || rs[0].Chain != "c" {
		t.Fatalf("FindGatewayRecords after the upgrade: %+v, %v", rs, err)
	}
}
