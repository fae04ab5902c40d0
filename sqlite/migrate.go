// Schema migrations: the embedded migrations/*.sql files, applied in order.

package sqlite

import (
	"context"
	"database/sql"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

func loadMigrations() ([]storeutil.Migration, error) {
	return storeutil.LoadMigrations(migrationFiles, "migrations")
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
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.Version, m.Name, time.Now().UTC().Format(timeLayout))
			return err
		})
		if err != nil {
			return kompact.Errorf(kompact.EInternal, "sqlite store migration %s: %w", m.Name, err)
		}
	}
	var latest sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&latest); err != nil {
		return kompact.Errorf(kompact.EInternal, "sqlite store migrations: %w", err)
	}
	if known := ms[len(ms)-1].Version; latest.Int64 > int64(known) {
		return kompact.Errorf(kompact.EInternal, "the database has schema version %d, newer than this kompact knows (%d)", latest.Int64, known).
			WithFixes("Upgrade kompact, or set KOMPACT_DB to another database file.")
	}
	return nil
}
