// Schema migrations: the embedded migrations/*.sql files, applied in order.

package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"kompact"
)

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
