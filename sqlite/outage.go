package sqlite

// This file tells an outage (a full disk, an I/O error, a database locked
// past the busy timeout) from a bug: an outage answers 503, not 500.

import (
	"context"
	"database/sql"
	"errors"
	"syscall"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// outage says in a few words why err means the database is out of order
// for now, or "" when it does not.
func outage(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_FULL:
			return "the disk is full"
		case sqlite3.SQLITE_IOERR:
			return "the database file cannot be read or written (an I/O error)"
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return "the database is locked by another process"
		case sqlite3.SQLITE_READONLY:
			return "the database file is read-only"
		case sqlite3.SQLITE_CANTOPEN:
			return "the database file cannot be opened"
		case sqlite3.SQLITE_NOMEM:
			return "out of memory"
		}
	}
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "the disk is full"
	case errors.Is(err, syscall.EIO):
		return "an I/O error"
	case errors.Is(err, syscall.EROFS):
		return "the file system is read-only"
	}
	return ""
}

// CheckWrite reports whether the database takes a write: it rewrites one
// row of schema_migrations as it is, in a transaction of its own. GET
// /v1/health calls it while the store's writes fail.
func (s *Store) CheckWrite(ctx context.Context) error {
	return s.write(ctx, "check a write", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE schema_migrations SET name = name WHERE version = (SELECT max(version) FROM schema_migrations)`)
		return err
	})
}
