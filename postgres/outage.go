package postgres

// This file tells an outage (the database down, restarting, out of disk
// or connections, the connection broken) from a bug: an outage answers
// 503, not 500.

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// outage says in a few words why err means the database is out of order
// for now, or "" when it does not.
func outage(err error) string {
	if errors.Is(err, context.Canceled) {
		return "" // the caller went away
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return sqlStateOutage(pe.Code)
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	switch {
	case errors.As(err, &ce):
		return "it does not answer"
	case errors.Is(err, pgconn.ErrConnClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE),
		errors.As(err, &ne), pgconn.SafeToRetry(err):
		return "the connection to it broke"
	}
	return ""
}

// sqlStateOutage is outage for an error PostgreSQL reported.
func sqlStateOutage(code string) string {
	switch {
	case code == "53100":
		return "its disk is full"
	case strings.HasPrefix(code, "53"):
		return "it is out of resources (memory or connections)"
	case strings.HasPrefix(code, "08"):
		return "the connection to it failed"
	case code == "57P01", code == "57P02", code == "57P03":
		return "it is shutting down or starting up"
	case code == "25006":
		return "it takes no writes (a read-only server)"
	case strings.HasPrefix(code, "58"):
		return "it has a system error (I/O)"
	}
	return ""
}

// CheckWrite reports whether the database takes a write: it rewrites one
// row of schema_migrations as it is, in a transaction of its own. GET
// /v1/health calls it while the store's writes fail.
func (s *Store) CheckWrite(ctx context.Context) error {
	_, err := s.pool.Exec(ctx, `UPDATE schema_migrations SET name = name WHERE version = (SELECT max(version) FROM schema_migrations)`)
	return wrap("check a write", err)
}
