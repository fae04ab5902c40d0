// Package sqlite is kompact's default store: sessions, their messages and
// their revisions in one SQLite file, through modernc.org/sqlite (pure Go, no
// cgo).
//
// The database runs in WAL mode. Writes go through a single connection whose
// transactions begin with BEGIN IMMEDIATE, so writers from many goroutines
// queue in the connection pool instead of failing with SQLITE_BUSY, and a
// failed call rolls back whole. Reads use a separate pool of read-only
// connections, each read in one transaction, so they see a consistent
// snapshot and never wait for a writer.
//
// A message is stored as its JSON form (kompact.Message.AppendJSON), once:
// the session's message list and the lists its revisions hold refer to
// these stored bodies, so recording a revision writes one small row per
// message rather than a copy of the session.
package sqlite

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	modernc "modernc.org/sqlite" // also registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"kompact"
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
	w    *sql.DB // one connection; every transaction is BEGIN IMMEDIATE
	r    *sql.DB // read-only connections
	path string

	mu   sync.Mutex
	last time.Time // the latest time handed out: times only grow

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

// Open opens the database at path, creating it and its folder when needed,
// and brings its schema up to date.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, kompact.Errorf(kompact.EInvalid, "no database path given").
			WithFixes("Pass the path of the database file, for example sqlite.DefaultPath(os.Getenv).")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "database path %q: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "create the database folder: %w", err).
			WithFixes("Check that the folder " + filepath.Dir(abs) + " can be created, or set KOMPACT_DB to another path.")
	}
	// Sessions hold whole conversations: create the file readable by its
	// owner only (SQLite would use the umask). The WAL files inherit this.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "open the database file: %w", err).
			WithFixes("Check that " + abs + " is a writable file, or set KOMPACT_DB to another path.")
	}
	f.Close()

	busy := "busy_timeout(" + strconv.Itoa(busyTimeoutMS) + ")"
	w, err := sql.Open("sqlite", dsn(abs, url.Values{
		"_txlock": {"immediate"},
		"_pragma": {busy, "foreign_keys(1)", "synchronous(NORMAL)"},
	}))
	if err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err)
	}
	// One writer connection: writers queue here rather than in SQLite's busy
	// handler, and BEGIN IMMEDIATE takes the write lock before the first
	// read so a transaction never has to upgrade.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	ctx := context.Background()
	// Only a database without tables takes a new page size, and only
	// before it switches to WAL mode.
	if _, err := w.ExecContext(ctx, `PRAGMA page_size = `+strconv.Itoa(pageSize)); err != nil {
		w.Close()
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err).
			WithFixes("Check that " + abs + " is a kompact database (or an empty file), or set KOMPACT_DB to another path.")
	}
	if err := useWAL(ctx, w); err != nil {
		w.Close()
		return nil, err.WithFixes("Check that " + abs + " is a kompact database (or an empty file), or set KOMPACT_DB to another path.")
	}
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn(abs, url.Values{
		"_pragma": {busy, "query_only(1)"},
	}))
	if err != nil {
		w.Close()
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err)
	}
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	if err := r.PingContext(ctx); err != nil {
		r.Close()
		w.Close()
		return nil, kompact.Errorf(kompact.EInternal, "open the database %s: %w", abs, err)
	}
	return &Store{w: w, r: r, path: abs}, nil
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

// Close closes the database. Calling it again does nothing.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.closeErr = errors.Join(s.r.Close(), s.w.Close())
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

// migration is one embedded schema change, applied once in its own
// transaction and recorded in schema_migrations.
type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: the name must start with a positive number and an underscore", e.Name())
		}
		body, err := fs.ReadFile(migrationFiles, "migrations/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s have the same version", ms[i-1].name, ms[i].name)
		}
	}
	return ms, nil
}

// migrate applies the migrations the database lacks. Each runs in its own
// BEGIN IMMEDIATE transaction, which also keeps two processes opening a new
// database at once from applying one twice.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := loadMigrations()
	if err != nil {
		return kompact.Errorf(kompact.EInternal, "sqlite store migrations: %w", err)
	}
	// In a BEGIN IMMEDIATE transaction: in autocommit mode, a statement that
	// reads and then writes fails at once with SQLITE_BUSY when another
	// connection wrote in between, whatever the busy timeout.
	if err := inTx(ctx, db, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    INTEGER NOT NULL PRIMARY KEY,
			name       TEXT    NOT NULL,
			applied_at TEXT    NOT NULL
		) STRICT`)
		return err
	}); err != nil {
		return kompact.Errorf(kompact.EInternal, "open the database: %w", err).
			WithFixes("Check that the file is a SQLite database written by kompact, or set KOMPACT_DB to another path.")
	}
	for _, m := range ms {
		err := inTx(ctx, db, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, time.Now().UTC().Format(timeLayout))
			return err
		})
		if err != nil {
			return kompact.Errorf(kompact.EInternal, "sqlite store migration %s: %w", m.name, err)
		}
	}
	var latest sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&latest); err != nil {
		return kompact.Errorf(kompact.EInternal, "sqlite store migrations: %w", err)
	}
	if known := ms[len(ms)-1].version; latest.Int64 > int64(known) {
		return kompact.Errorf(kompact.EInternal, "the database has schema version %d, newer than this kompact knows (%d)", latest.Int64, known).
			WithFixes("Upgrade kompact, or set KOMPACT_DB to another database file.")
	}
	return nil
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

// write runs fn in one write transaction. A *kompact.Error from fn is
// returned as it is; any other error becomes EInternal.
func (s *Store) write(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	return wrap(what, inTx(ctx, s.w, fn))
}

// read runs fn in one read-only transaction: a consistent snapshot.
func (s *Store) read(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return wrap(what, err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to undo
	return wrap(what, fn(tx))
}

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	var ke *kompact.Error
	if errors.As(err, &ke) {
		return err
	}
	return kompact.Errorf(kompact.EInternal, "sqlite store: %s: %w", what, err)
}

func notFound(id string) error {
	return kompact.Errorf(kompact.ENotFound, "no session has the id %q", id).
		WithFixes("Check the session id; listing the sessions shows the ones that exist.")
}

// now returns the current UTC time, later than every time handed out
// before and than after, so that updated_at always moves forward.
func (s *Store) now(after time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := time.Now().UTC().Round(0)
	if !t.After(s.last) {
		t = s.last.Add(time.Nanosecond)
	}
	if !t.After(after) {
		t = after.Add(time.Nanosecond)
	}
	s.last = t
	return t
}

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// sessionRow is a row of the sessions table.
type sessionRow struct {
	id, agent, model string
	version          int64
	created, updated time.Time
	firstPos, n      int64
	nextMsg, nextRev int64
	rewritten        int64 // the version after the latest compaction or restore
}

const sessionCols = `id, agent, compaction_model, version, created_at, updated_at, first_pos, n_messages, next_msg, next_rev, rewritten_version`

type scanner interface{ Scan(dest ...any) error }

func scanSession(sc scanner) (*sessionRow, error) {
	var r sessionRow
	var created, updated string
	if err := sc.Scan(&r.id, &r.agent, &r.model, &r.version, &created, &updated, &r.firstPos, &r.n, &r.nextMsg, &r.nextRev, &r.rewritten); err != nil {
		return nil, err
	}
	var err1, err2 error
	r.created, err1 = parseTime(created)
	r.updated, err2 = parseTime(updated)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("session %q: %w", r.id, err)
	}
	return &r, nil
}

func loadSession(ctx context.Context, tx *sql.Tx, id string) (*sessionRow, error) {
	r, err := scanSession(tx.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(id)
	}
	return r, err
}

func (r *sessionRow) info() kompact.SessionInfo {
	return kompact.SessionInfo{
		ID:              r.id,
		Agent:           r.agent,
		CompactionModel: r.model,
		Messages:        int(r.n),
		Version:         r.version,
		CreatedAt:       r.created,
		UpdatedAt:       r.updated,
	}
}

func (r *sessionRow) stored(msgs []kompact.Message) *kompact.StoredSession {
	return &kompact.StoredSession{
		Session: kompact.Session{
			ID:              r.id,
			Agent:           r.agent,
			CompactionModel: r.model,
			Messages:        msgs,
		},
		Version:   r.version,
		CreatedAt: r.created,
		UpdatedAt: r.updated,
	}
}

func corrupt(what string, err error) error {
	return kompact.Errorf(kompact.EInternal, "sqlite store: %s is corrupt: %w", what, err).
		WithFixes("Restore the database from a backup; the stored JSON no longer decodes.")
}

// readMessages returns the session's messages in order.
func readMessages(ctx context.Context, tx *sql.Tx, row *sessionRow) ([]kompact.Message, error) {
	return readMessagesMatching(ctx, tx, row, nil)
}

// readMessagesMatching returns the session's messages in order. Where a
// stored message's JSON equals the JSON of the message at the same index in
// known, it returns that message itself instead of decoding its copy: a
// compaction's base is mostly what is stored, and comparing bytes is far
// cheaper than decoding.
func readMessagesMatching(ctx context.Context, tx *sql.Tx, row *sessionRow, known []kompact.Message) ([]kompact.Message, error) {
	rows, err := tx.QueryContext(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ? ORDER BY m.pos`, row.id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	msgs := make([]kompact.Message, 0, row.n)
	var buf []byte
	for rows.Next() {
		var body sql.RawBytes
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		i := len(msgs)
		if i < len(known) {
			buf = known[i].AppendJSON(buf[:0])
			if bytes.Equal(buf, body) {
				msgs = append(msgs, known[i])
				continue
			}
		}
		m, err := kompact.DecodeStoredMessage(body, i)
		if err != nil {
			return nil, corrupt(fmt.Sprintf("message %d of session %q", i+1, row.id), err)
		}
		msgs = append(msgs, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if int64(len(msgs)) != row.n {
		return nil, kompact.Errorf(kompact.EInternal, "sqlite store: session %q should have %d messages and has %d", row.id, row.n, len(msgs))
	}
	return msgs, nil
}

// insertMessages stores the bodies of msgs and puts the messages in the
// session at positions pos, pos+1, ...
func insertMessages(ctx context.Context, tx *sql.Tx, id string, pos int64, msgs []kompact.Message) error {
	return insertMessagesReusing(ctx, tx, id, pos, msgs, nil)
}

// insertMessagesReusing is insertMessages where reuse[i], when not 0, is
// the id of a stored body to use for msgs[i] instead of a new one.
func insertMessagesReusing(ctx context.Context, tx *sql.Tx, id string, pos int64, msgs []kompact.Message, reuse []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	bodies, err := tx.PrepareContext(ctx, `INSERT INTO bodies (session_id, body) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	defer bodies.Close()
	refs, err := tx.PrepareContext(ctx, `INSERT INTO messages (session_id, pos, id, body_id) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer refs.Close()
	var buf []byte
	for i := range msgs {
		if reuse != nil && reuse[i] != 0 {
			if _, err := refs.ExecContext(ctx, id, pos+int64(i), msgs[i].ID, reuse[i]); err != nil {
				return err
			}
			continue
		}
		buf = msgs[i].AppendJSON(buf[:0])
		res, err := bodies.ExecContext(ctx, id, string(buf))
		if err != nil {
			return err
		}
		bodyID, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := refs.ExecContext(ctx, id, pos+int64(i), msgs[i].ID, bodyID); err != nil {
			return err
		}
	}
	return nil
}

// insertRefs puts messages whose bodies are stored already in the session
// at positions 0, 1, ...
func insertRefs(ctx context.Context, tx *sql.Tx, id string, msgs []kompact.Message, bodyIDs []int64) error {
	if len(msgs) == 0 {
		return nil
	}
	refs, err := tx.PrepareContext(ctx, `INSERT INTO messages (session_id, pos, id, body_id) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer refs.Close()
	for i := range msgs {
		if _, err := refs.ExecContext(ctx, id, i, msgs[i].ID, bodyIDs[i]); err != nil {
			return err
		}
	}
	return nil
}

// canonical validates msgs and returns copies in the form the store keeps:
// one whose JSON form decodes back to the same bytes. It compacts data
// parts and tool-call extras (as decoding would) and rejects what would not
// decode. The copies share their parts with msgs unless those change.
func canonical(msgs []kompact.Message, field string) ([]kompact.Message, error) {
	out := make([]kompact.Message, len(msgs))
	var scratch bytes.Buffer
	compact := func(raw []byte) ([]byte, bool, error) {
		scratch.Reset()
		if err := json.Compact(&scratch, raw); err != nil {
			return nil, false, err
		}
		if bytes.Equal(scratch.Bytes(), raw) {
			return raw, false, nil
		}
		return bytes.Clone(scratch.Bytes()), true, nil
	}
	for i := range msgs {
		m := msgs[i]
		if !m.Role.Valid() {
			return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].role: unknown role %q; use one of system, user, assistant, tool", field, i, m.Role)
		}
		partsCopied := false
		for j := range m.Content {
			p := &m.Content[j]
			if !p.Type.Valid() {
				return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].content[%d].type: unknown part type %q; use one of text, think, image_url, audio_url, video_url, data", field, i, j, p.Type)
			}
			if p.Type != kompact.PartData || len(p.Data) == 0 {
				continue
			}
			data, changed, err := compact(p.Data)
			if err != nil {
				return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].content[%d].data: not valid JSON: %v", field, i, j, err)
			}
			if changed {
				if !partsCopied {
					m.Content = append([]kompact.Part(nil), m.Content...)
					partsCopied = true
				}
				m.Content[j].Data = data
			}
		}
		callsCopied := false
		for j := range m.ToolCalls {
			extras := m.ToolCalls[j].Extras
			if len(extras) == 0 {
				continue
			}
			c, changed, err := compact(extras)
			if err != nil || (string(c) != "null" && c[0] != '{') {
				return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].tool_calls[%d].extras: must be a JSON object", field, i, j)
			}
			if string(c) == "null" { // decodes as no extras
				c, changed = nil, true
			}
			if changed {
				if !callsCopied {
					m.ToolCalls = append([]kompact.ToolCall{}, m.ToolCalls...)
					callsCopied = true
				}
				m.ToolCalls[j].Extras = c
			}
		}
		out[i] = m
	}
	return out, nil
}

// claimIDs adds the ids msgs carry to taken. An id given twice in msgs is
// EInvalid; one already in taken is EConflict.
func claimIDs(msgs []kompact.Message, taken map[string]bool, field string) error {
	seen := make(map[string]int, len(msgs))
	for i := range msgs {
		id := msgs[i].ID
		if id == "" {
			continue
		}
		if j, dup := seen[id]; dup {
			return kompact.Errorf(kompact.EInvalid, "%s[%d].id: %q is already the id of %s[%d]", field, i, id, field, j).
				WithFixes("Give every message a unique id, or none to have one assigned.")
		}
		seen[id] = i
		if taken[id] {
			return kompact.Errorf(kompact.EConflict, "%s[%d].id: the session already has a message with the id %q", field, i, id).
				WithFixes("Use another id, or none to have one assigned.")
		}
	}
	for id := range seen {
		taken[id] = true
	}
	return nil
}

// assignIDs gives the messages without an id the next free id m_N, counting
// from *next. A given id of that form moves *next past it, so the counter
// never hands out an id a client chose, even one compacted away since.
func assignIDs(msgs []kompact.Message, taken map[string]bool, next *int64) {
	for i := range msgs {
		if n, err := strconv.ParseInt(strings.TrimPrefix(msgs[i].ID, "m_"), 10, 64); err == nil &&
			strings.HasPrefix(msgs[i].ID, "m_") && n >= *next {
			*next = n + 1
		}
	}
	for i := range msgs {
		if msgs[i].ID != "" {
			continue
		}
		for {
			id := "m_" + strconv.FormatInt(*next, 10)
			*next++
			if !taken[id] {
				msgs[i].ID = id
				taken[id] = true
				break
			}
		}
	}
}

func idsOf(msgs []kompact.Message) map[string]bool {
	taken := make(map[string]bool, len(msgs))
	for i := range msgs {
		taken[msgs[i].ID] = true
	}
	return taken
}

const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567" // base32, lower case

// newSessionID returns "s_" and 12 random base32 characters (60 bits).
func newSessionID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (see crypto/rand.Read)
	for i := range b {
		b[i] = idAlphabet[b[i]&31]
	}
	return "s_" + string(b[:])
}

func sessionExists(ctx context.Context, tx *sql.Tx, id string) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// CreateSession stores a new session with version 1. An empty in.ID gets a
// new id ("s_" and 12 random characters); messages without an id get one
// ("m_" and a number), unique within the session. A taken session id is
// EConflict, a message id given twice EInvalid. in is not modified.
func (s *Store) CreateSession(ctx context.Context, in *kompact.Session) (*kompact.StoredSession, error) {
	if in == nil {
		return nil, kompact.Errorf(kompact.EInvalid, "no session given")
	}
	msgs, err := canonical(in.Messages, "messages")
	if err != nil {
		return nil, err
	}
	taken := make(map[string]bool, len(msgs))
	if err := claimIDs(msgs, taken, "messages"); err != nil {
		return nil, err
	}
	next := int64(1)
	assignIDs(msgs, taken, &next)
	var out *kompact.StoredSession
	err = s.write(ctx, "create session", func(tx *sql.Tx) error {
		id := in.ID
		if id == "" {
			for tries := 0; ; tries++ {
				id = newSessionID()
				exists, err := sessionExists(ctx, tx, id)
				if err != nil {
					return err
				}
				if !exists {
					break
				}
				if tries == 10 {
					return fmt.Errorf("no free session id after %d tries", tries)
				}
			}
		} else if exists, err := sessionExists(ctx, tx, id); err != nil {
			return err
		} else if exists {
			return kompact.Errorf(kompact.EConflict, "a session with the id %q exists already", id).
				WithFixes("Choose another id, or leave it empty to have one assigned.")
		}
		now := s.now(time.Time{})
		ts := formatTime(now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (`+sessionCols+`) VALUES (?, ?, ?, 1, ?, ?, 0, ?, ?, 1, 1)`,
			id, in.Agent, in.CompactionModel, ts, ts, len(msgs), next); err != nil {
			return err
		}
		if err := insertMessages(ctx, tx, id, 0, msgs); err != nil {
			return err
		}
		row := &sessionRow{id: id, agent: in.Agent, model: in.CompactionModel, version: 1, created: now, updated: now}
		out = row.stored(msgs)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetSession returns the session with all its messages.
func (s *Store) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	var out *kompact.StoredSession
	err := s.read(ctx, "get session", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		out, err = storedSession(ctx, tx, row)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListSessions describes every session, the most recently updated first.
func (s *Store) ListSessions(ctx context.Context) ([]kompact.SessionInfo, error) {
	out := []kompact.SessionInfo{}
	err := s.read(ctx, "list sessions", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions ORDER BY updated_at DESC, id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanSession(rows)
			if err != nil {
				return err
			}
			out = append(out, r.info())
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteSession deletes the session, its messages and its revisions.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	return s.write(ctx, "delete session", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return notFound(id)
		}
		return nil
	})
}

// AppendMessages adds msgs at the end of the session and returns the new
// version and the appended messages. Messages without an id get one. An id
// given twice in msgs is EInvalid, one the session already has EConflict,
// and an empty msgs EInvalid. It reads no stored message: the ids are
// checked by the index on (session_id, id).
func (s *Store) AppendMessages(ctx context.Context, id string, in []kompact.Message) (*kompact.Appended, error) {
	if len(in) == 0 {
		return nil, kompact.Errorf(kompact.EInvalid, "no messages to append").
			WithFixes("Send at least one message.")
	}
	msgs, err := canonical(in, "messages")
	if err != nil {
		return nil, err
	}
	given := map[string]bool{}
	if err := claimIDs(msgs, given, "messages"); err != nil {
		return nil, err
	}
	var out *kompact.Appended
	err = s.write(ctx, "append messages", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		assignIDs(msgs, given, &row.nextMsg)
		if err := checkFree(ctx, tx, id, msgs, row.firstPos, "messages"); err != nil {
			return err
		}
		if err := insertMessages(ctx, tx, id, row.firstPos+row.n, msgs); err != nil {
			return err
		}
		row.n += int64(len(msgs))
		row.version++
		row.updated = s.now(row.updated)
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET n_messages = ?, next_msg = ?, version = ?, updated_at = ? WHERE id = ?`,
			row.n, row.nextMsg, row.version, formatTime(row.updated), id); err != nil {
			return err
		}
		out = &kompact.Appended{Version: row.version, UpdatedAt: row.updated, Messages: msgs}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkFree fails with EConflict when the session already has, at a
// position from minPos on, a message with the id of one of msgs. It looks
// the ids up in the index on (session_id, id), a few at a time.
func checkFree(ctx context.Context, tx *sql.Tx, id string, msgs []kompact.Message, minPos int64, field string) error {
	const chunk = 400
	index := make(map[string]int, len(msgs))
	for i := range msgs {
		index[msgs[i].ID] = i
	}
	for start := 0; start < len(msgs); start += chunk {
		part := msgs[start:min(len(msgs), start+chunk)]
		args := make([]any, 0, len(part)+2)
		args = append(args, id, minPos)
		for i := range part {
			args = append(args, part[i].ID)
		}
		var taken string
		err := tx.QueryRowContext(ctx, `SELECT id FROM messages WHERE session_id = ? AND pos >= ? AND id IN (?`+
			strings.Repeat(", ?", len(part)-1)+`) LIMIT 1`, args...).Scan(&taken)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		return kompact.Errorf(kompact.EConflict, "%s[%d].id: the session already has a message with the id %q", field, index[taken], taken).
			WithFixes("Use another id, or none to have one assigned.")
	}
	return nil
}

// SetCompactionModel sets the session's compaction model, or clears it with
// "". It is a write: the version goes up.
func (s *Store) SetCompactionModel(ctx context.Context, id string, model string) (*kompact.SessionInfo, error) {
	var out kompact.SessionInfo
	err := s.write(ctx, "set compaction model", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		row.model = model
		row.version++
		row.updated = s.now(row.updated)
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET compaction_model = ?, version = ?, updated_at = ? WHERE id = ?`,
			model, row.version, formatTime(row.updated), id); err != nil {
			return err
		}
		out = row.info()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// storedSession reads row's messages and returns the whole stored session.
func storedSession(ctx context.Context, tx *sql.Tx, row *sessionRow) (*kompact.StoredSession, error) {
	msgs, err := readMessages(ctx, tx, row)
	if err != nil {
		return nil, err
	}
	return row.stored(msgs), nil
}

// recordRevision inserts revision row.nextRev holding the session's current
// messages (references to their bodies) and returns its description.
// version is the session's version after the change.
func recordRevision(ctx context.Context, tx *sql.Tx, row *sessionRow, kind, note string, now time.Time, version int64) (*kompact.RevisionInfo, error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO revisions (session_id, rev, kind, note, created_at, version, n_messages) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		row.id, row.nextRev, kind, note, formatTime(now), version, row.n); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO revision_messages (session_id, rev, pos, body_id)
		SELECT session_id, ?, pos - ?, body_id FROM messages WHERE session_id = ?`,
		row.nextRev, row.firstPos, row.id); err != nil {
		return nil, err
	}
	return &kompact.RevisionInfo{
		Rev:       row.nextRev,
		Kind:      kind,
		Note:      note,
		CreatedAt: now,
		Version:   version,
		Messages:  int(row.n),
	}, nil
}

// CommitCompaction applies c to the session's current messages (see
// kompact.Rebase), all in one transaction: it records a revision holding
// the messages as they were, replaces the first c.End of them with
// c.Replacement (whose messages without an id get one), and bumps the
// version. A conflict changes nothing.
//
// When c.Version is set and the session was not rewritten since, only
// appends happened: the commit reads the ids and body ids of the replaced
// range and the messages appended since, and compares nothing else. A kept
// message whose JSON is unchanged keeps its stored body.
func (s *Store) CommitCompaction(ctx context.Context, id string, c kompact.Commit) (*kompact.StoredSession, *kompact.RevisionInfo, error) {
	if c.End < 0 || c.End > len(c.Base) {
		_, err := kompact.Rebase(nil, c) // reports the bad end
		return nil, nil, err
	}
	repl, err := canonical(c.Replacement, "replacement")
	if err != nil {
		return nil, nil, err
	}
	// The base in stored form, so that a base equal in JSON value but
	// written differently (say, data with spaces) still matches.
	base, err := canonical(c.Base[:c.End], "base")
	if err != nil {
		return nil, nil, err
	}
	given := map[string]bool{}
	if err := claimIDs(repl, given, "replacement"); err != nil {
		return nil, nil, err
	}
	kind := c.Kind
	if kind == "" {
		kind = kompact.RevisionCompaction
	}
	var row *sessionRow
	var info *kompact.RevisionInfo
	var later [][]byte // the stored messages after the base's (fast) or after c.End (compared)
	var fast bool
	err = s.write(ctx, "commit compaction", func(tx *sql.Tx) error {
		row, err = loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if row.n < int64(c.End) {
			return kompact.Errorf(kompact.EConflict, "the session has %d messages now, fewer than the %d this compaction replaces", row.n, c.End).
				WithFixes("Reload the session and compact again.")
		}
		end := row.firstPos + int64(c.End)
		refs, err := readRefs(ctx, tx, id, row.firstPos, end)
		if err != nil {
			return err
		}
		fast = c.Version > 0 && c.Version <= row.version && row.rewritten <= c.Version &&
			row.n >= int64(len(c.Base)) && sameIDs(refs, base)
		from := end
		if fast {
			from = row.firstPos + int64(len(c.Base))
		} else if err := compareBase(ctx, tx, refs, base); err != nil {
			return err
		}
		if later, err = readBodies(ctx, tx, id, from); err != nil {
			return err
		}
		assignIDs(repl, given, &row.nextMsg)
		if err := checkFree(ctx, tx, id, repl, end, "replacement"); err != nil {
			return err
		}
		now := s.now(row.updated)
		version := row.version + 1
		info, err = recordRevision(ctx, tx, row, kind, c.Note, now, version)
		if err != nil {
			return err
		}
		// The kept tail stays where it is: the replacement goes just
		// before it, in the positions the compacted messages leave.
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ? AND pos < ?`, id, end); err != nil {
			return err
		}
		first := end - int64(len(repl))
		if err := insertMessagesReusing(ctx, tx, id, first, repl, keptBodies(repl, base, refs)); err != nil {
			return err
		}
		row.n = row.n - int64(c.End) + int64(len(repl))
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET first_pos = ?, n_messages = ?, next_msg = ?, next_rev = ?, version = ?, updated_at = ?, rewritten_version = ? WHERE id = ?`,
			first, row.n, row.nextMsg, row.nextRev+1, version, formatTime(now), version, id); err != nil {
			return err
		}
		row.version, row.updated = version, now
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Decoding happens after the write transaction.
	tail, err := decodeBodies(later, id)
	if err != nil {
		return nil, nil, err
	}
	next := make([]kompact.Message, 0, row.n)
	next = append(next, repl...)
	if fast {
		next = append(next, c.Base[c.End:]...)
	}
	next = append(next, tail...)
	return row.stored(next), info, nil
}

// ref is a message's place in a session: its id and stored body.
type ref struct {
	id     string
	bodyID int64
}

// readRefs returns the ids and body ids of the session's messages at
// positions [from, to), in order.
func readRefs(ctx context.Context, tx *sql.Tx, id string, from, to int64) ([]ref, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, body_id FROM messages WHERE session_id = ? AND pos >= ? AND pos < ? ORDER BY pos`, id, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]ref, 0, to-from)
	for rows.Next() {
		var r ref
		if err := rows.Scan(&r.id, &r.bodyID); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func sameIDs(refs []ref, msgs []kompact.Message) bool {
	if len(refs) != len(msgs) {
		return false
	}
	for i := range refs {
		if refs[i].id != msgs[i].ID {
			return false
		}
	}
	return true
}

// compareBase fails with EConflict, as kompact.Rebase does, unless the
// stored bodies of refs are the JSON forms of base.
func compareBase(ctx context.Context, tx *sql.Tx, refs []ref, base []kompact.Message) error {
	if len(refs) != len(base) {
		return fmt.Errorf("%d stored messages in a range of %d", len(refs), len(base))
	}
	stmt, err := tx.PrepareContext(ctx, `SELECT body FROM bodies WHERE id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	var buf []byte
	for i := range refs {
		var body []byte
		if err := stmt.QueryRowContext(ctx, refs[i].bodyID).Scan(&body); err != nil {
			return err
		}
		buf = base[i].AppendJSON(buf[:0])
		if !bytes.Equal(buf, body) {
			ref := strconv.Quote(refs[i].id)
			return kompact.Errorf(kompact.EConflict, "message %s changed while the compaction ran", ref).
				WithFixes("Reload the session and compact again; nothing was written.")
		}
	}
	return nil
}

// readBodies returns copies of the stored bodies of the session's messages
// from position from on, in order.
func readBodies(ctx context.Context, tx *sql.Tx, id string, from int64) ([][]byte, error) {
	rows, err := tx.QueryContext(ctx, `SELECT b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ? AND m.pos >= ? ORDER BY m.pos`, id, from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		out = append(out, body)
	}
	return out, rows.Err()
}

func decodeBodies(bodies [][]byte, id string) ([]kompact.Message, error) {
	out := make([]kompact.Message, len(bodies))
	for i, b := range bodies {
		m, err := kompact.DecodeStoredMessage(b, i)
		if err != nil {
			return nil, corrupt(fmt.Sprintf("a message of session %q", id), err)
		}
		out[i] = m
	}
	return out, nil
}

// keptBodies returns, for each replacement message, the body id of the
// replaced message it repeats unchanged (same id, same JSON), or 0: a kept
// message (the system prompt) is not stored again at every compaction.
// base is what refs hold (compared, or promised by the commit's version).
func keptBodies(repl, base []kompact.Message, refs []ref) []int64 {
	at := make(map[string]int, len(repl))
	for i := range repl {
		at[repl[i].ID] = -1
	}
	for i := range base {
		if _, ok := at[base[i].ID]; ok {
			at[base[i].ID] = i
		}
	}
	out := make([]int64, len(repl))
	var a, b []byte
	for j := range repl {
		i := at[repl[j].ID]
		if i < 0 {
			continue
		}
		a, b = repl[j].AppendJSON(a[:0]), base[i].AppendJSON(b[:0])
		if bytes.Equal(a, b) {
			out[j] = refs[i].bodyID
		}
	}
	return out
}

// ListRevisions describes the session's revisions, the newest first.
func (s *Store) ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	out := []kompact.RevisionInfo{}
	err := s.read(ctx, "list revisions", func(tx *sql.Tx) error {
		if _, err := loadSession(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT rev, kind, note, created_at, version, n_messages FROM revisions WHERE session_id = ? ORDER BY rev DESC`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			info, err := scanRevisionInfo(rows)
			if err != nil {
				return err
			}
			out = append(out, *info)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func scanRevisionInfo(sc scanner) (*kompact.RevisionInfo, error) {
	var info kompact.RevisionInfo
	var created string
	if err := sc.Scan(&info.Rev, &info.Kind, &info.Note, &created, &info.Version, &info.Messages); err != nil {
		return nil, err
	}
	t, err := parseTime(created)
	if err != nil {
		return nil, fmt.Errorf("revision %d: %w", info.Rev, err)
	}
	info.CreatedAt = t
	return &info, nil
}

// loadRevision reads revision rev of the session and decodes its messages.
// It also returns the ids of their stored bodies.
func loadRevision(ctx context.Context, tx *sql.Tx, id string, rev int64) (*kompact.Revision, []int64, error) {
	info, err := scanRevisionInfo(tx.QueryRowContext(ctx,
		`SELECT rev, kind, note, created_at, version, n_messages FROM revisions WHERE session_id = ? AND rev = ?`, id, rev))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, kompact.Errorf(kompact.ENotFound, "session %q has no revision %d", id, rev).
			WithFixes("List the session's revisions to see which exist.")
	}
	if err != nil {
		return nil, nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT r.body_id, b.body FROM revision_messages r JOIN bodies b ON b.id = r.body_id
		WHERE r.session_id = ? AND r.rev = ? ORDER BY r.pos`, id, rev)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	msgs := make([]kompact.Message, 0, info.Messages)
	bodyIDs := make([]int64, 0, info.Messages)
	for rows.Next() {
		var bodyID int64
		var body sql.RawBytes
		if err := rows.Scan(&bodyID, &body); err != nil {
			return nil, nil, err
		}
		m, err := kompact.DecodeStoredMessage(body, len(msgs))
		if err != nil {
			return nil, nil, corrupt(fmt.Sprintf("message %d of revision %d of session %q", len(msgs)+1, rev, id), err)
		}
		msgs = append(msgs, m)
		bodyIDs = append(bodyIDs, bodyID)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if len(msgs) != info.Messages {
		return nil, nil, kompact.Errorf(kompact.EInternal, "sqlite store: revision %d of session %q should hold %d messages and holds %d", rev, id, info.Messages, len(msgs))
	}
	return &kompact.Revision{RevisionInfo: *info, Before: msgs}, bodyIDs, nil
}

// GetRevision returns revision rev of the session with the messages it
// holds.
func (s *Store) GetRevision(ctx context.Context, id string, rev int64) (*kompact.Revision, error) {
	var out *kompact.Revision
	err := s.read(ctx, "get revision", func(tx *sql.Tx) error {
		if _, err := loadSession(ctx, tx, id); err != nil {
			return err
		}
		r, _, err := loadRevision(ctx, tx, id, rev)
		out = r
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RestoreRevision puts back the messages revision rev holds. It records a
// restore revision holding the messages it replaces, so it can be undone in
// turn.
func (s *Store) RestoreRevision(ctx context.Context, id string, rev int64) (*kompact.StoredSession, *kompact.RevisionInfo, error) {
	var out *kompact.StoredSession
	var info *kompact.RevisionInfo
	err := s.write(ctx, "restore revision", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		r, bodyIDs, err := loadRevision(ctx, tx, id, rev)
		if err != nil {
			return err
		}
		now := s.now(row.updated)
		version := row.version + 1
		info, err = recordRevision(ctx, tx, row, kompact.RevisionRestore, fmt.Sprintf("restored revision %d (%s)", rev, r.Kind), now, version)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ?`, id); err != nil {
			return err
		}
		if err := insertRefs(ctx, tx, id, r.Before, bodyIDs); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET first_pos = 0, n_messages = ?, next_rev = ?, version = ?, updated_at = ?, rewritten_version = ? WHERE id = ?`,
			len(r.Before), row.nextRev+1, version, formatTime(now), version, id); err != nil {
			return err
		}
		row.version, row.updated = version, now
		out = row.stored(r.Before)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, info, nil
}
