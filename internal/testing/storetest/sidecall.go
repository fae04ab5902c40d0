package storetest

import (
	"fmt"
	"slices"
	"testing"

	"kompact"
)

// listFiltered returns the ids ListSessions gives under f, sorted, and the
// descriptions by id.
func listFiltered(t *testing.T, st kompact.Store, f kompact.SessionFilter) ([]string, map[string]kompact.SessionInfo) {
	t.Helper()
	list, err := st.ListSessions(t.Context(), f)
	if err != nil {
		t.Fatalf("ListSessions(%+v): %v", f, err)
	}
	ids, by := []string{}, map[string]kompact.SessionInfo{}
	for _, l := range list {
		ids = append(ids, l.ID)
		by[l.ID] = l
	}
	slices.Sort(ids)
	return ids, by
}

// testGatewaySideCalls (issue 39 §2): a gateway session created as a
// side call (GatewayRecord.SideCall) is left out of ListSessions by the
// store, unless the filter asks for side calls, and is then described
// with SideCall; its record says so (GetGatewayRecord, FindGatewayRecords);
// it is read by id as any session; a swap without messages keeps the
// mark, a swap that appends messages clears it; a deleted side call is
// gone from both lists.
func testGatewaySideCalls(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	g := gatewayStore(t, st)
	create(t, st, &kompact.Session{ID: "plain", Agent: "a", Messages: conversation()})
	createGateway(t, g, &kompact.Session{ID: "conv", Agent: "a", Messages: conversation()}, "k", "c")
	for _, id := range []string{"side", "side2"} {
		if _, err := g.CreateGatewaySession(ctx, &kompact.Session{ID: id, Agent: "a", Messages: conversation()[:1]}, kompact.GatewayRecord{Key: "side-call:k", State: []byte("s"), SideCall: true}); err != nil {
			t.Fatalf("CreateGatewaySession of side call %s: %v", id, err)
		}
	}
	wantList := func(what string, f kompact.SessionFilter, want []string, sides ...string) {
		t.Helper()
		ids, by := listFiltered(t, st, f)
		if fmt.Sprint(ids) != fmt.Sprint(want) {
			t.Fatalf("%s: ListSessions(%+v) lists %v, want %v", what, f, ids, want)
		}
		for id, l := range by {
			if l.SideCall != slices.Contains(sides, id) || l.Gateway != (id != "plain") {
				t.Fatalf("%s: ListSessions(%+v) describes %s with side call %v gateway %v", what, f, id, l.SideCall, l.Gateway)
			}
		}
	}
	wantSide := func(what, id string, want bool) {
		t.Helper()
		r, err := g.GetGatewayRecord(ctx, id)
		if err != nil || r.SideCall != want {
			t.Fatalf("%s: GetGatewayRecord(%s): %+v, %v; want side call %v", what, id, r, err, want)
		}
	}
	wantList("created", kompact.SessionFilter{}, []string{"conv", "plain"})
	wantList("created", kompact.SessionFilter{SideCalls: true}, []string{"conv", "plain", "side", "side2"}, "side", "side2")
	wantSide("created", "side", true)
	wantSide("created", "conv", false)
	recs, err := g.FindGatewayRecords(ctx, "side-call:k", nil, 0)
	if err != nil || len(recs) != 2 || !recs[0].SideCall || !recs[1].SideCall {
		t.Fatalf("FindGatewayRecords of the side calls' key: %+v, %v; want both marked", recs, err)
	}
	if s := get(t, st, "side"); len(s.Messages) != 1 || !s.Gateway {
		t.Fatalf("the side call read by id: %+v", s)
	}

	// A swap without messages keeps the mark; one that appends clears it.
	if _, _, err := g.SwapGatewayRecord(ctx, "side", 1, kompact.GatewayUpdate{State: []byte("s2")}, nil); err != nil {
		t.Fatal(err)
	}
	wantSide("a swap without messages", "side", true)
	wantList("a swap without messages", kompact.SessionFilter{}, []string{"conv", "plain"})
	rec, _, err := g.SwapGatewayRecord(ctx, "side", 2, kompact.GatewayUpdate{State: []byte("s3")}, []kompact.Message{msg(kompact.RoleAssistant, "", "a title"), msg(kompact.RoleUser, "", "go on")})
	if err != nil || rec.SideCall {
		t.Fatalf("a swap that appends: %+v, %v; want the record no longer a side call", rec, err)
	}
	wantSide("continued", "side", false)
	wantList("continued", kompact.SessionFilter{}, []string{"conv", "plain", "side"})
	if _, _, err := g.SwapGatewayRecord(ctx, "side", 3, kompact.GatewayUpdate{State: []byte("s4")}, nil); err != nil {
		t.Fatal(err)
	}
	wantSide("swapped again", "side", false)

	if err := st.DeleteSession(ctx, "side2"); err != nil {
		t.Fatal(err)
	}
	wantList("side2 deleted", kompact.SessionFilter{SideCalls: true}, []string{"conv", "plain", "side"})
}

// RunGatewaySideCallsUpgrade checks a store's upgrade of a database at
// migration 0016 (before side calls were marked): st stores a gateway
// session; downgrade takes the database back to 0016 and returns the
// store that upgraded it again; the session is no side call and is
// listed, and side calls can be created.
func RunGatewaySideCallsUpgrade(t *testing.T, st kompact.Store, downgrade func(t *testing.T) kompact.Store) {
	ctx := t.Context()
	createGateway(t, gatewayStore(t, st), &kompact.Session{ID: "old", Messages: conversation()[:1]}, "k", "s")
	up := downgrade(t)
	g := gatewayStore(t, up)
	if r, err := g.GetGatewayRecord(ctx, "old"); err != nil || r.SideCall || string(r.State) != "s" {
		t.Fatalf("the record stored at 0016, after the upgrade: %+v, %v", r, err)
	}
	if _, err := g.CreateGatewaySession(ctx, &kompact.Session{ID: "side"}, kompact.GatewayRecord{Key: "k2", SideCall: true}); err != nil {
		t.Fatalf("CreateGatewaySession of a side call after the upgrade: %v", err)
	}
	if ids, _ := listFiltered(t, up, kompact.SessionFilter{}); fmt.Sprint(ids) != "[old]" {
		t.Fatalf("after the upgrade ListSessions lists %v, want [old]", ids)
	}
}
