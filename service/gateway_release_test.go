package service

import (
	"context"
	"testing"
	"time"

	"kompact"
)

// failingGets is a memGatewayStore whose first fail GetGatewayRecord calls
// fail.
type failingGets struct {
	*memGatewayStore
	fail int
}

func (f *failingGets) GetGatewayRecord(ctx context.Context, id string) (*kompact.GatewayRecord, error) {
	if f.fail > 0 {
		f.fail--
		return nil, kompact.Errorf(kompact.EUnavailable, "the store is down")
	}
	return f.memGatewayStore.GetGatewayRecord(ctx, id)
}

// takenPreviews is a Store that records the previews taken from it (the
// only call the lease's release makes).
type takenPreviews struct {
	kompact.Store
	taken []string
}

func (p *takenPreviews) TakePreview(_ context.Context, _, id string, _ time.Time) (*kompact.Preview, error) {
	p.taken = append(p.taken, id)
	return &kompact.Preview{ID: id}, nil
}

// stateOf reads session id's gateway state from gs.
func stateOf(t *testing.T, gs kompact.GatewayStore, id string) *GatewayState {
	t.Helper()
	rec, err := gs.GetGatewayRecord(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := decodeGatewayState(rec.State)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestGatewayReleaseLease (issue 28 §4): the release of a lease that
// lapsed and another took changes nothing of the state, and removes the
// preview made under it; a compaction that could not read the state
// keeps the precomputed summary recorded.
func TestGatewayReleaseLease(t *testing.T) {
	ctx := context.Background()
	store := &takenPreviews{}
	s := NewSessions(SessionsConfig{Store: store})
	until := time.Now().Add(time.Hour)
	lost := &GatewayState{LeaseOwner: "two", LeaseUntil: until}
	gs := &memGatewayStore{recs: map[string]kompact.GatewayRecord{"s": {SessionID: "s", Seq: 1, State: lost.encode()}}}
	s.releaseLease(ctx, gs, "s", "one", "pv_late")
	if st := stateOf(t, gs, "s"); st.PreviewID != "" || st.LeaseOwner != "two" {
		t.Fatalf("the release of a lost lease wrote preview %q, owner %q", st.PreviewID, st.LeaseOwner)
	}
	if len(store.taken) != 1 || store.taken[0] != "pv_late" {
		t.Fatalf("the preview made under the lost lease was not removed: taken %v", store.taken)
	}

	held := &GatewayState{PreviewID: "pv_ready", LeaseOwner: "one", LeaseUntil: until}
	fg := &failingGets{memGatewayStore: &memGatewayStore{recs: map[string]kompact.GatewayRecord{"s": {SessionID: "s", Seq: 1, State: held.encode()}}}, fail: 1}
	rep, _, preview := s.compactLeased(ctx, &kompact.Agent{Name: "a"}, fg, &gatewaySession{id: "s"})
	if rep == nil || rep.Status != AutoFailed {
		t.Fatalf("a compaction whose state read failed: %+v", rep)
	}
	s.releaseLease(ctx, fg, "s", "one", preview)
	if st := stateOf(t, fg, "s"); st.PreviewID != "pv_ready" || st.LeaseOwner != "" {
		t.Fatalf("after a failed read the state has preview %q, owner %q; want pv_ready, released", st.PreviewID, st.LeaseOwner)
	}
	if len(store.taken) != 1 {
		t.Fatalf("a recorded preview was removed: taken %v", store.taken)
	}
}
