// WAL checkpoints: out of the request path, after the write that grew the
// log.

package sqlite

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"sync"
	"time"
)

// The writer connection runs with SQLite's automatic checkpoint off
// (wal_autocheckpoint 0): that one runs in the commit of the write that
// crosses its threshold, so an import of a large session would wait for its
// own pages to be copied into the database file and synced. Instead, a
// write that leaves the WAL larger than walCheckpointBytes wakes the
// store's checkpointer, which runs a PASSIVE checkpoint on a connection of
// its own while readers and writers go on; the next write after a
// complete checkpoint starts the log over, and SQLite then cuts the file
// back to walCheckpointBytes (journal_size_limit), so the file's size is
// what the log holds. A write that leaves the WAL larger than
// walMaxBytes checkpoints at once, itself, as SQLite's automatic
// checkpoint would: the bound on the log when the checkpointer cannot
// keep up. Close checkpoints what is left.
//
// The checkpointer starts checkpointDelay after the write that woke it:
// the request that wrote usually goes on to answer (an import streams the
// session it stored back to the client), and a checkpoint of a large log,
// which copies every page of it and syncs the file, would take a core from
// that answer. (An import of 10k messages answered 8% sooner with the
// delay, on 2 cores.) The log stays as durable meanwhile; writes go on.
var (
	walCheckpointBytes int64 = 16 << 20
	walMaxBytes        int64 = 64 << 20
	checkpointDelay          = 250 * time.Millisecond
)

// checkpointer runs the background checkpoints of a store.
type checkpointer struct {
	db      *sql.DB // one connection of its own
	wal     string  // the WAL file's path
	soft    int64   // walCheckpointBytes and walMaxBytes when the store opened
	max     int64
	delay   time.Duration // checkpointDelay when the store opened
	kick    chan struct{}
	stop    chan struct{}
	stopped sync.WaitGroup
}

func newCheckpointer(db *sql.DB, path string) *checkpointer {
	c := &checkpointer{db: db, wal: path + "-wal", soft: walCheckpointBytes, max: walMaxBytes, delay: checkpointDelay, kick: make(chan struct{}, 1), stop: make(chan struct{})}
	c.stopped.Add(1)
	go c.run()
	return c
}

// walSize returns the size of the WAL file, 0 when there is none.
func (c *checkpointer) walSize() int64 {
	fi, err := os.Stat(c.wal)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// afterWrite is called after each committed write on the writer
// connection w.
func (c *checkpointer) afterWrite(ctx context.Context, w *sql.DB) {
	switch size := c.walSize(); {
	case size > c.max:
		_ = checkpoint(ctx, w) // a failed checkpoint leaves the log as it was
	case size > c.soft:
		select {
		case c.kick <- struct{}{}:
		default: // one is due already
		}
	}
}

func (c *checkpointer) run() {
	defer c.stopped.Done()
	for {
		select {
		case <-c.stop:
			return
		case <-c.kick:
			select {
			case <-c.stop:
				return // Close checkpoints
			case <-time.After(c.delay):
			}
			_ = checkpoint(context.Background(), c.db) // the next write retries
		}
	}
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() error {
	close(c.stop)
	c.stopped.Wait()
	return c.db.Close()
}

// checkpoint copies what it can of the WAL into the database file without
// waiting for readers or writers (SQLITE_CHECKPOINT_PASSIVE).
func checkpoint(ctx context.Context, db *sql.DB) error {
	var busy, logFrames, done int
	return db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logFrames, &done)
}

// walPragmas are the writer connection's pragmas for the above.
func walPragmas() []string {
	return []string{"wal_autocheckpoint(0)", "journal_size_limit(" + strconv.FormatInt(walCheckpointBytes, 10) + ")"}
}
