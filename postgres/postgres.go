// Package postgres is a kompact.Store in a PostgreSQL database, through
// pgx (github.com/jackc/pgx/v5) and its connection pool. Several kompact
// instances can share one database: every write runs in one transaction
// that first locks the session's row (SELECT ... FOR UPDATE), so writers to
// a session queue in PostgreSQL, never in one process's memory, and a
// failed call rolls back whole. Reads run in REPEATABLE READ read-only
// transactions: a consistent snapshot that never waits for a writer.
//
// The data model is the SQLite store's (see migrations/0001_init.sql), and
// so are the algorithms: the methods of kompact.Store come from
// storeutil.Core, and this package supplies its statements (storeutil.Tx).
package postgres

import (
	"context"
	"embed"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"kompact"
	"kompact/internal/storeutil"
	"kompact/internal/urlsecret"
)

var _ kompact.Store = (*Store)(nil)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the key of the advisory lock that keeps two processes
// from migrating one database at once.
const migrationLock = 0x6b6f6d70 // "komp"

// Store is a kompact.Store in PostgreSQL. It is safe for concurrent use,
// also by several processes.
type Store struct {
	*storeutil.Core // the methods of kompact.Store, over this store's SQL

	pool *pgxpool.Pool
	keep int
	// maxConns sizes the pool; 0 means the URL's pool_max_conns, else
	// DefaultMaxConns.
	maxConns int32
}

// Option configures a Store.
type Option func(*Store)

// KeepRevisions makes a store keep the newest n revisions of a session
// (see sqlite.KeepRevisions). 0 keeps every revision.
func KeepRevisions(n int) Option { return func(s *Store) { s.keep = max(n, 0) } }

// Open connects to the database at url (postgres://...) and brings its
// schema up to date.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	st := &Store{keep: kompact.DefaultKeepRevisions}
	for _, o := range opts {
		o(st)
	}
	if !IsURL(url) {
		return nil, kompact.Errorf(kompact.EInvalid, "%s is not a postgres:// URL", urlsecret.RedactURL(url)).
			WithFixes("Give a URL like postgres://user@host:5432/dbname.")
	}
	if err := checkAt(url); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(normalizeScheme(url))
	if err != nil {
		return nil, kompact.Errorf(kompact.EInvalid, "the PostgreSQL URL does not parse: %v", redact(err)).
			WithFixes("Give a URL like postgres://user@host:5432/dbname.")
	}
	cfg.MaxConns = st.poolSize(url, cfg.MaxConns)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, kompact.Errorf(kompact.EInternal, "connect to PostgreSQL: %v", redact(err))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, kompact.Errorf(kompact.EInternal, "connect to PostgreSQL at %s:%d: %v", cfg.ConnConfig.Host, cfg.ConnConfig.Port, redact(err)).
			WithFixes("Check that the server runs and the URL's user, password and database are right.")
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	st.pool = pool
	// PostgreSQL keeps microseconds.
	st.Core = storeutil.NewCore(txs{st}, "postgres store", st.keep, time.Microsecond)
	return st, nil
}

// redact keeps a password that a driver error might quote out of the
// message, and each of its lines once: the driver tries a host once with
// TLS and once without (sslmode=prefer, the default) and reports both
// attempts, alike to the letter when neither reached the server.
func redact(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "password="); i >= 0 {
		msg = msg[:i] + "password=..."
	}
	var kept []string
	for l := range strings.SplitSeq(msg, "\n") {
		if !slices.Contains(kept, l) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return wrap("ping", s.pool.Ping(ctx))
}

// Close closes the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// migrate applies the migrations the database lacks, all in one
// transaction under an advisory lock, so that two instances starting at
// once apply each migration once.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    integer     NOT NULL PRIMARY KEY,
			name       text        NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		return storeutil.Migrate(ctx, migrator{tx}, migrationFiles, "Upgrade kompact, or use another database.")
	})
	return wrap("migrate the schema", err)
}

// migrator runs the migrations in the transaction tx.
type migrator struct{ tx pgx.Tx }

func (m migrator) Applied(ctx context.Context) ([]int, error) {
	rows, err := m.tx.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

func (m migrator) Apply(ctx context.Context, mig storeutil.Migration) error {
	if _, err := m.tx.Exec(ctx, mig.SQL); err != nil {
		return err
	}
	_, err := m.tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, mig.Version, mig.Name)
	return err
}

// txs runs the store's transactions for its Core.
type txs struct{ s *Store }

// Write runs fn in one read-committed transaction; LoadSession locks the
// session's row (SELECT ... FOR UPDATE), which serialises writes to the
// session across processes.
func (t txs) Write(ctx context.Context, what string, fn func(storeutil.Tx) error) error {
	return wrap(what, pgx.BeginFunc(ctx, t.s.pool, func(tx pgx.Tx) error { return fn(stmts{tx, true}) }))
}

// Read runs fn in one read-only snapshot.
func (t txs) Read(ctx context.Context, what string, fn func(storeutil.Tx) error) error {
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	return wrap(what, pgx.BeginTxFunc(ctx, t.s.pool, opts, func(tx pgx.Tx) error { return fn(stmts{tx, false}) }))
}

// stmts is one transaction's statements (storeutil.Tx).
type stmts struct {
	tx    pgx.Tx
	write bool // lock the rows a write changes
}

// affected returns how many rows a statement changed.
func affected(tag pgconn.CommandTag, err error) (int64, error) { return tag.RowsAffected(), err }

func wrap(what string, err error) error {
	if reason := outage(err); reason != "" && kompact.ErrorCodeOf(err) == kompact.EInternal {
		return storeutil.Unavailable("postgres store", what, reason, err, redact)
	}
	return storeutil.Wrap("postgres store", what, err, redact)
}
