// Package testserver holds what the tests of kompact's HTTP server and of
// `kompact serve` share: a throwaway SQLite store and a log buffer a running
// server can write while the test reads it.
package testserver

import (
	"bytes"
	"path/filepath"
	"sync"
	"testing"

	"kompact/sqlite"
)

// SQLite opens a store in a fresh temporary directory; it is closed when
// the test or benchmark ends.
func SQLite(tb testing.TB) *sqlite.Store {
	tb.Helper()
	store, err := sqlite.Open(filepath.Join(tb.TempDir(), "k.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	return store
}

// Buffer is a bytes.Buffer safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
