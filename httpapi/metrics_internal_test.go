package httpapi

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"kompact"
	"kompact/internal/testing/memstore"
)

// TestMeasuredStoreWrapsEveryMethod: the metrics wrapper declares every
// method of kompact.Store itself, embedding nothing that would let a new
// method through unmeasured.
func TestMeasuredStoreWrapsEveryMethod(t *testing.T) {
	typ := reflect.TypeFor[measuredStore]()
	for i := range typ.NumField() {
		if f := typ.Field(i); f.Anonymous {
			t.Errorf("measuredStore embeds %s", f.Type)
		}
	}
	store := reflect.TypeFor[kompact.Store]()
	for i := range store.NumMethod() {
		name := store.Method(i).Name
		if _, ok := typ.MethodByName(name); !ok {
			t.Errorf("measuredStore does not wrap Store.%s", name)
		}
	}
}

// brokenStore fails every call with an internal error.
type brokenStore struct{ kompact.Store }

var errBroken = errors.New("broken")

func (brokenStore) UpdateSettings(context.Context, string, kompact.SessionSettings) (*kompact.SessionInfo, error) {
	return nil, errBroken
}
func (brokenStore) SetTokenCount(context.Context, string, int) error { return errBroken }
func (brokenStore) RecordAutoFailure(context.Context, string, kompact.AutoFailure) (kompact.CompactionBreaker, error) {
	return kompact.CompactionBreaker{}, errBroken
}
func (brokenStore) UndoCompaction(context.Context, string, int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	return nil, nil, errBroken
}
func (brokenStore) Close() error { return errBroken }

// TestMeasuredStoreCountsTheMethodsItSkipped: the methods the wrapper let
// through before count their internal errors too.
func TestMeasuredStoreCountsTheMethodsItSkipped(t *testing.T) {
	m := newMetrics()
	st := measuredStore{st: brokenStore{}, m: m}
	ctx := context.Background()
	_, _ = st.UpdateSettings(ctx, "s", kompact.SessionSettings{})
	_ = st.SetTokenCount(ctx, "s", 1)
	_, _ = st.RecordAutoFailure(ctx, "s", kompact.AutoFailure{})
	_, _, _ = st.UndoCompaction(ctx, "s", 1)
	_ = st.Close()
	for _, op := range []string{"update_settings", "set_token_count", "record_auto_failure", "undo_compaction", "close"} {
		if n := counterValue(t, m, op); n != 1 {
			t.Errorf("kompact_store_errors_total{op=%q} = %v, want 1", op, n)
		}
	}
}

func counterValue(t *testing.T, m *metrics, op string) float64 {
	t.Helper()
	fams, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "kompact_store_errors_total" {
			continue
		}
		for _, c := range f.GetMetric() {
			for _, l := range c.GetLabel() {
				if l.GetName() == "op" && l.GetValue() == op {
					return c.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// sessionsOnly is a store with kompact.Store's roles and no other: it keeps no
// gateway sessions.
type sessionsOnly struct{ kompact.Store }

// TestMeasuredStoreClaimsOnlyItsRoles (issue 41 §5): the metrics wrapper has
// the gateway's role when the store it wraps has it, and not otherwise (it
// claimed GatewayStore for every store, and a gateway turn over a store
// without one failed inside it instead of being skipped).
func TestMeasuredStoreClaimsOnlyItsRoles(t *testing.T) {
	plain := New(Config{Store: sessionsOnly{memstore.New(0)}})
	if _, ok := plain.cfg.Store.(kompact.GatewayStore); ok {
		t.Error("the measured store of a store that keeps no gateway sessions claims kompact.GatewayStore")
	}
	gw := New(Config{Store: memstore.New(0)})
	gs, ok := gw.cfg.Store.(kompact.GatewayStore)
	if !ok {
		t.Fatal("the measured store of a gateway store is no kompact.GatewayStore")
	}
	if _, err := gs.GetGatewayRecord(context.Background(), "nosuch"); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Errorf("GetGatewayRecord of an unknown session through the wrapper: %v, want ENotFound", err)
	}
}
