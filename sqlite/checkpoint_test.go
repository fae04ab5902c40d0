package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"kompact"
	"kompact/internal/testing/storetest"
)

// withWALLimits opens a store with the given checkpoint thresholds.
func withWALLimits(t *testing.T, soft, max int64) *Store {
	t.Helper()
	oldSoft, oldMax := walCheckpointBytes, walMaxBytes
	walCheckpointBytes, walMaxBytes = soft, max
	defer func() { walCheckpointBytes, walMaxBytes = oldSoft, oldMax }()
	st, err := Open(filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// createBig stores a session of 300 messages (~700 KB) under id.
func createBig(t *testing.T, st *Store, id string) {
	t.Helper()
	if _, err := st.CreateSession(context.Background(), &kompact.Session{ID: id, Messages: benchSession(300)}); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointInBackground: a write that leaves the WAL over the
// threshold is not checkpointed in its own call, but by the checkpointer
// afterwards: a later write then starts the log over, and the file goes
// back to the threshold.
func TestCheckpointInBackground(t *testing.T) {
	const soft = 256 << 10
	st := withWALLimits(t, soft, 1<<40)
	createBig(t, st, "s")
	if size := st.ck.walSize(); size <= soft {
		t.Fatalf("the WAL holds %d bytes after a 700 KB write, want more than %d", size, soft)
	}
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		if _, err := st.UpdateSettings(ctx, "s", storetest.Model(fmt.Sprint("m", i))); err != nil {
			t.Fatal(err)
		}
		size := st.ck.walSize()
		if size <= soft {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the WAL still holds %d bytes, want it checkpointed and cut back to %d", size, soft)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s, err := st.GetSession(ctx, "s"); err != nil || len(s.Messages) != 300 {
		t.Fatalf("after the checkpoint: %v", err)
	}
}

// TestCheckpointWaits: the checkpointer lets the request that woke it
// answer first: until checkpointDelay has passed, later writes find the
// log as it was. Close does not wait for the delay, and checkpoints.
func TestCheckpointWaits(t *testing.T) {
	old := checkpointDelay
	checkpointDelay = time.Hour
	defer func() { checkpointDelay = old }()
	const soft = 256 << 10
	st := withWALLimits(t, soft, 1<<40)
	createBig(t, st, "s")
	ctx := context.Background()
	for i := range 10 {
		time.Sleep(20 * time.Millisecond)
		if _, err := st.UpdateSettings(ctx, "s", storetest.Model(fmt.Sprint("m", i))); err != nil {
			t.Fatal(err)
		}
		if size := st.ck.walSize(); size <= soft {
			t.Fatalf("the WAL was checkpointed and started over (%d bytes) before the delay", size)
		}
	}
	closed := make(chan error, 1)
	go func() { closed <- st.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for the checkpoint's delay")
	}
	if fi, err := os.Stat(st.Path() + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("a %d-byte WAL is left after Close", fi.Size())
	}
}

// TestWALBounded: when the checkpointer does not get to it (here: never
// asked), a write that leaves the WAL over walMaxBytes checkpoints itself,
// so the log starts over instead of growing with every write.
func TestWALBounded(t *testing.T) {
	st := withWALLimits(t, 1<<40, 256<<10)
	createBig(t, st, "s0")
	one := st.ck.walSize()
	for i := 1; i < 6; i++ {
		createBig(t, st, fmt.Sprint("s", i))
	}
	if size := st.ck.walSize(); size > one*3/2 {
		t.Errorf("the WAL holds %d bytes after 6 writes of %d, want it started over", size, one)
	}
}

// TestCloseCheckpoints: Close leaves everything in the database file, no
// WAL behind, and the data is there when the file opens again.
func TestCloseCheckpoints(t *testing.T) {
	st := withWALLimits(t, 1<<40, 1<<40)
	createBig(t, st, "s")
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(st.Path() + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("a %d-byte WAL is left after Close", fi.Size())
	}
	st2, err := Open(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if s, err := st2.GetSession(context.Background(), "s"); err != nil || len(s.Messages) != 300 {
		t.Fatalf("after reopening: %v", err)
	}
}
