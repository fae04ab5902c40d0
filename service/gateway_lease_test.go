package service

import (
	"context"
	"sync"
	"testing"
	"time"

	"kompact"
)

// memGatewayStore keeps gateway records in memory: only what the lease
// needs (GetGatewayRecord, SwapGatewayRecord).
type memGatewayStore struct {
	mu   sync.Mutex
	recs map[string]kompact.GatewayRecord
}

func (m *memGatewayStore) CreateGatewaySession(context.Context, *kompact.Session, kompact.GatewayRecord) (*kompact.SessionInfo, error) {
	panic("not used")
}

func (m *memGatewayStore) FindGatewayRecords(context.Context, string, []string, int) ([]kompact.GatewayRecord, error) {
	panic("not used")
}

func (m *memGatewayStore) GetGatewayRecord(_ context.Context, id string) (*kompact.GatewayRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[id]
	if !ok {
		return nil, kompact.Errorf(kompact.ENotFound, "no record %q", id)
	}
	return &r, nil
}

func (m *memGatewayStore) SwapGatewayRecord(_ context.Context, id string, seq int64, u kompact.GatewayUpdate, msgs []kompact.Message) (*kompact.GatewayRecord, *kompact.Appended, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.recs[id]
	if r.Seq != seq {
		return nil, nil, kompact.Errorf(kompact.EConflict, "seq moved")
	}
	r.Seq, r.State = seq+1, u.State
	m.recs[id] = r
	return &r, nil, nil
}

// TestGatewayLeaseRenewed: a lease is taken for leaseTTL, renewed while its
// holder works, and lapses once the holder stops renewing it (an instance
// killed while compacting), so that another can take it.
func TestGatewayLeaseRenewed(t *testing.T) {
	defer func(d time.Duration) { maxLeaseTTL = d }(maxLeaseTTL)
	maxLeaseTTL = 300 * time.Millisecond
	st := &GatewayState{}
	gs := &memGatewayStore{recs: map[string]kompact.GatewayRecord{"s": {SessionID: "s", Seq: 1, State: st.encode()}}}
	s := NewSessions(SessionsConfig{})
	a := &kompact.Agent{Name: "a"}
	ctx := context.Background()
	if ok, err := s.takeLease(ctx, a, gs, "s", "one"); !ok || err != nil {
		t.Fatalf("take: %v %v", ok, err)
	}
	if ok, _ := s.takeLease(ctx, a, gs, "s", "two"); ok {
		t.Fatal("a held lease was taken")
	}
	stop := s.keepLease(ctx, a, gs, "s", "one")
	time.Sleep(3 * maxLeaseTTL) // three lease lengths: only renewals keep it
	if ok, _ := s.takeLease(ctx, a, gs, "s", "two"); ok {
		t.Fatal("a renewed lease was taken")
	}
	stop() // the holder dies
	time.Sleep(maxLeaseTTL + 50*time.Millisecond)
	if ok, err := s.takeLease(ctx, a, gs, "s", "two"); !ok || err != nil {
		t.Fatalf("a lapsed lease was not taken: %v %v", ok, err)
	}
}
