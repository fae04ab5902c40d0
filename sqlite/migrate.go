// Schema migrations: the embedded migrations/*.sql files, applied in order.

package sqlite

import (
	"context"
	"database/sql"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// migrate applies the migrations the database lacks, in one BEGIN
// IMMEDIATE transaction, which also keeps two processes opening a new
// database at once from applying one twice.
func migrate(ctx context.Context, db *sql.DB) error {
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
	return wrap("migrate the schema", inTx(ctx, db, func(tx *sql.Tx) error {
		return storeutil.Migrate(ctx, migrator{tx}, migrationFiles, "Upgrade kompact, or set KOMPACT_DB to another database file.")
	}))
}

// migrator runs the migrations in the transaction tx.
type migrator struct{ tx *sql.Tx }

func (m migrator) Applied(ctx context.Context) ([]int, error) {
	rows, err := m.tx.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	return collect(rows, err, 0, func(sc scanner, v *int) error { return sc.Scan(v) })
}

func (m migrator) Apply(ctx context.Context, mig storeutil.Migration) error {
	if _, err := m.tx.ExecContext(ctx, mig.SQL); err != nil {
		return err
	}
	_, err := m.tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		mig.Version, mig.Name, time.Now().UTC().Format(timeLayout))
	return err
}
