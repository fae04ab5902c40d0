// Package sqlite is kompact's default store: sessions, their messages and
// their revisions in one SQLite file, through modernc.org/sqlite (pure Go, no
// cgo).
//
// The database runs in WAL mode. Writes go through a single connection whose
// transactions begin with BEGIN IMMEDIATE, so writers from many goroutines
// queue in the connection pool instead of failing with SQLITE_BUSY, and a
// failed call rolls back whole. Reads use a separate pool of read-only
// connections, each read in one transaction, so they see a consistent
// snapshot and never wait for a writer. The WAL is checkpointed by the
// store in the background, not in the commit of the write that grew it
// (checkpoint.go).
//
// A message is stored as its JSON form (kompact.Message.AppendJSON), once:
// the session's message list and the lists its revisions hold refer to
// these stored bodies, so recording a revision writes one small row per
// message rather than a copy of the session.
//
// The methods of kompact.Store come from storeutil.Core, written once for
// both stores; this package supplies its statements (storeutil.Tx).
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	modernc "modernc.org/sqlite" // also registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"kompact"
	"kompact/internal/storeutil"
)

var _ kompact.Store = (*Store)(nil)

// readers is the number of read-only connections.
const readers = 4

// busyTimeoutMS is how long a connection waits for a lock that another
// process holds before it reports SQLITE_BUSY.
const busyTimeoutMS = 5000

// pageSize is the page size of new databases. A stored message body is
// typically 1-3 KB: with 4 KiB pages most of a page is left empty around
// each one, and larger pages pack them closer (see docs/benchmarks.md for
// the measurement behind the choice). An existing database keeps its size.
var pageSize = 16384

// timeLayout writes UTC times as RFC 3339 with a fixed nine-digit fraction,
// so that the text sorts in time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Store is a kompact.Store in a SQLite database file. It is safe for
// concurrent use.
type Store struct {
	*storeutil.Core // the methods of kompact.Store, over this store's SQL

	w    *sql.DB // one connection; every transaction is BEGIN IMMEDIATE
	r    *sql.DB // read-only connections
	ck   *checkpointer
	path string
	keep int // revisions kept per session; 0 keeps them all

	closeOnce sync.Once
	closeErr  error
}

// DefaultPath returns where the database lives by default: $KOMPACT_DB when
// set, else $XDG_DATA_HOME/kompact/kompact.db, else
// ~/.local/share/kompact/kompact.db (on macOS ~/Library/Application
// Support/kompact/kompact.db). getenv is usually os.Getenv.
func DefaultPath(getenv func(string) string) string {
	return defaultPath(runtime.GOOS, getenv)
}

func defaultPath(goos string, getenv func(string) string) string {
	if p := getenv("KOMPACT_DB"); p != "" {
		return p
	}
	// The XDG specification says to ignore a relative XDG_DATA_HOME.
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "kompact", "kompact.db")
	}
	home := getenv("HOME")
	if home == "" && goos == "windows" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = h
		}
	}
	if goos == "darwin" {
		return filepath.Join(home, "Library", "Application Support", "kompact", "kompact.db")
	}
	return filepath.Join(home, ".local", "share", "kompact", "kompact.db")
}

// Option configures a Store.
type Option func(*Store)

// KeepRevisions makes a store keep the newest n revisions of a session:
// the commit that records a new revision prunes older ones, with the
// message bodies nothing else refers to. 0 keeps every revision. The
// default is kompact.DefaultKeepRevisions.
func KeepRevisions(n int) Option { return func(s *Store) { s.keep = max(n, 0) } }

// Open opens the database at path, creating it and its folder when needed,
// and brings its schema up to date.
func Open(path string, opts ...Option) (*Store, error) {
	abs, err := createFile(path)
	if err != nil {
		return nil, err
	}
	w, err := openWriter(abs)
	if err != nil {
		return nil, err
	}
	r, err := openReaders(abs)
	if err != nil {
		w.Close()
		return nil, err
	}
	ck, err := openSingle(abs, url.Values{"_pragma": {busyPragma()}})
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	st := &Store{w: w, r: r, ck: newCheckpointer(ck, abs), path: abs, keep: kompact.DefaultKeepRevisions}
	for _, o := range opts {
		o(st)
	}
	st.Core = storeutil.NewCore(txs{st}, "sqlite store", st.keep, time.Nanosecond)
	return st, nil
}

// createFile makes the database file at path, and its folder, when they
// do not exist, and returns its absolute path.
func createFile(path string) (string, error) {
	if path == "" {
		return "", kompact.Errorf(kompact.EInvalid, "no database path given").
			WithFixes("Pass the path of the database file, for example sqlite.DefaultPath(os.Getenv).")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", kompact.Errorf(kompact.EInternal, "database path %q: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return "", kompact.Errorf(kompact.EInternal, "create the database folder: %w", err).
			WithFixes("Check that the folder " + filepath.Dir(abs) + " can be created, or set KOMPACT_DB to another path.")
	}
	// Sessions hold whole conversations: create the file readable by its
	// owner only (SQLite would use the umask). The WAL files inherit this.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return "", kompact.Errorf(kompact.EInternal, "open the database file: %w", err).
			WithFixes("Check that " + abs + " is a writable file, or set KOMPACT_DB to another path.")
	}
	f.Close()
	return abs, nil
}

// busyPragma is the busy timeout every connection has.
func busyPragma() string { return "busy_timeout(" + strconv.Itoa(busyTimeoutMS) + ")" }

// openSingle opens a pool of one connection to the database at abs, kept
// open for good.
func openSingle(abs string, params url.Values) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(abs, params))
	if err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	return db, nil
}

// openWriter opens the one writer connection, with the database in WAL
// mode and migrated. Writers queue on it rather than in SQLite's busy
// handler, and BEGIN IMMEDIATE takes the write lock before the first read
// so a transaction never has to upgrade.
func openWriter(abs string) (*sql.DB, error) {
	w, err := openSingle(abs, url.Values{
		"_txlock": {"immediate"},
		"_pragma": append([]string{busyPragma(), "foreign_keys(1)", "synchronous(NORMAL)"}, walPragmas()...),
	})
	if err != nil {
		return nil, err
	}
	notOurs := "Check that " + abs + " is a kompact database (or an empty file), or set KOMPACT_DB to another path."
	ctx := context.Background()
	// Only a database without tables takes a new page size, and only
	// before it switches to WAL mode.
	if _, err := w.ExecContext(ctx, `PRAGMA page_size = `+strconv.Itoa(pageSize)); err != nil {
		w.Close()
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err).WithFixes(notOurs)
	}
	if err := useWAL(ctx, w); err != nil {
		w.Close()
		return nil, err.WithFixes(notOurs)
	}
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// openReaders opens the pool of read-only connections.
func openReaders(abs string) (*sql.DB, error) {
	r, err := sql.Open("sqlite", dsn(abs, url.Values{
		"_pragma": {busyPragma(), "query_only(1)"},
	}))
	if err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err)
	}
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	if err := r.PingContext(context.Background()); err != nil {
		r.Close()
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err)
	}
	return r, nil
}

// dsn returns the driver's URI for the file at path with params.
func dsn(path string, params url.Values) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: params.Encode()}
	return u.String()
}

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Ping reports whether the database answers a read. It does not queue
// behind the writer.
func (s *Store) Ping(ctx context.Context) error {
	return s.read(ctx, "ping", func(tx *sql.Tx) error {
		var n int
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n)
	})
}

// Close closes the database. Calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		// The writer checkpoints what the checkpointer left, with every
		// other connection closed (SQLite also does when the last
		// connection to the file closes).
		ckErr := s.ck.close()
		rErr := s.r.Close()
		wErr := checkpoint(context.Background(), s.w)
		s.closeErr = errors.Join(ckErr, rErr, wErr, s.w.Close())
	})
	return s.closeErr
}

// useWAL switches the database to WAL mode, which lasts in the file. The
// switch needs the database to itself, and SQLite reports SQLITE_BUSY at
// once, without waiting out the busy timeout, when another connection is
// using it (another process opening it at the same moment): so it retries
// for as long as the busy timeout.
func useWAL(ctx context.Context, db *sql.DB) *kompact.Error {
	deadline := time.Now().Add(busyTimeoutMS * time.Millisecond)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		var mode string
		err := db.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode)
		if err == nil && !strings.EqualFold(mode, "wal") {
			return kompact.Errorf(kompact.EInternal, "the database cannot use WAL mode (it stays in %s mode)", mode).
				WithFixes("Put the database on a local file system, or set KOMPACT_DB to a path on one.")
		}
		var se *modernc.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			if err != nil {
				return kompact.Errorf(kompact.EInternal, "open the database: switch to WAL mode: %w", err)
			}
			return nil
		}
		time.Sleep(wait)
	}
}

// inTx runs fn in a transaction of db and commits it, or rolls it back when
// fn fails.
func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// txs runs the store's transactions for its Core.
type txs struct{ s *Store }

// Write runs fn in one BEGIN IMMEDIATE transaction of the writer
// connection.
func (t txs) Write(ctx context.Context, what string, fn func(storeutil.Tx) error) error {
	return t.s.write(ctx, what, func(tx *sql.Tx) error { return fn(stmts{tx, &writeState{}}) })
}

// Read runs fn in one read-only transaction: a consistent snapshot.
func (t txs) Read(ctx context.Context, what string, fn func(storeutil.Tx) error) error {
	return t.s.read(ctx, what, func(tx *sql.Tx) error { return fn(stmts{tx: tx}) })
}

// write runs fn in one write transaction. A *kompact.Error from fn is
// returned as it is; any other error becomes EInternal.
func (s *Store) write(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	if err := inTx(ctx, s.w, fn); err != nil {
		return wrap(what, err)
	}
	s.ck.afterWrite(ctx, s.w)
	return nil
}

// read runs fn in one read-only transaction.
func (s *Store) read(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return wrap(what, err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to undo
	return wrap(what, fn(tx))
}

// stmts is one transaction's statements (storeutil.Tx). w is what a
// write transaction keeps from one call to the next (nil: nothing is
// kept).
type stmts struct {
	tx *sql.Tx
	w  *writeState
}

// writeState is what a write transaction's calls share: the multi-row
// INSERT statements it prepared, so that an import's batches parse each
// once, and the buffers the bodies are encoded into.
type writeState struct {
	prep map[stmtKey]*sql.Stmt
	bufs [2]chunkBuf
}

func wrap(what string, err error) error {
	if reason := outage(err); reason != "" && kompact.ErrorCodeOf(err) == kompact.EInternal {
		return storeutil.Unavailable("sqlite store", what, reason, err, nil)
	}
	return storeutil.Wrap("sqlite store", what, err, nil)
}

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// each runs fn on every row of a query's result.
func each(rows *sql.Rows, err error, fn func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// collect returns the rows of a query's result, each read by scan; room
// is how many rows to make room for at first.
func collect[T any](rows *sql.Rows, err error, room int64, scan func(scanner, *T) error) ([]T, error) {
	out := make([]T, 0, room)
	err = each(rows, err, func(r *sql.Rows) error {
		var zero T
		out = append(out, zero)
		return scan(r, &out[len(out)-1])
	})
	return out, err
}

// affected returns how many rows a statement changed.
func affected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
