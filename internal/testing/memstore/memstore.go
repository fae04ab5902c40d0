// Package memstore is kompact.Store (and kompact.GatewayStore) in memory:
// storeutil's one store algorithm (storeutil.Core) over maps instead of
// SQL, for the layers above the store to test without a database. It
// passes internal/testing/storetest's conformance suite; it keeps nothing past
// the process. A write works on a copy of the whole state and replaces it
// when it succeeds, so a failed write changes nothing; writes are
// serialised and reads see the last committed state.
package memstore

import (
	"context"
	"sync"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// Store is kompact.Store in memory. Open one with New.
type Store struct {
	*storeutil.Core

	mu     sync.RWMutex
	st     *state
	closed bool
}

var (
	_ kompact.Store        = (*Store)(nil)
	_ kompact.GatewayStore = (*Store)(nil)
)

// New returns an empty store that keeps the newest keep revisions of a
// session (0 keeps them all).
func New(keep int) *Store {
	s := &Store{st: newState()}
	s.Core = storeutil.NewCore(txs{s}, "memory store", keep, time.Microsecond)
	return s
}

// Ping reports whether the store is open.
func (s *Store) Ping(context.Context) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return kompact.Errorf(kompact.EInternal, "the memory store is closed")
	}
	return nil
}

// Close closes the store; its state is dropped.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed, s.st = true, newState()
	return nil
}

// txs is the store's storeutil.DB.
type txs struct{ s *Store }

// Write runs fn on a copy of the state, which replaces the state when fn
// returns nil.
func (t txs) Write(ctx context.Context, what string, fn func(storeutil.Tx) error) error {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	if err := t.s.usable(ctx, what); err != nil {
		return err
	}
	next := t.s.st.clone()
	if err := fn(tx{next}); err != nil {
		return wrap(what, err)
	}
	t.s.st = next
	return nil
}

// Read runs fn on the committed state.
func (t txs) Read(ctx context.Context, what string, fn func(storeutil.Tx) error) error {
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	if err := t.s.usable(ctx, what); err != nil {
		return err
	}
	return wrap(what, fn(tx{t.s.st}))
}

// usable is the error of a transaction under a done context or on a
// closed store; s.mu is held.
func (s *Store) usable(ctx context.Context, what string) error {
	if err := ctx.Err(); err != nil {
		return wrap(what, err)
	}
	if s.closed {
		return kompact.Errorf(kompact.EInternal, "memory store: %s: the store is closed", what).
			WithFixes("Open a new store with memstore.New.")
	}
	return nil
}

// wrap is storeutil.Wrap's error for the store.
func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return storeutil.Wrap("memory store", what, err, nil)
}
