package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5"
)

// PostgresURL returns $KOMPACT_TEST_POSTGRES, the PostgreSQL server the
// tests may create schemas in (Var).
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	return Var(tb, "KOMPACT_TEST_POSTGRES", "set it to a PostgreSQL URL (.ci/run starts a throwaway server)")
}

// PostgresSchema returns PostgresURL with its search_path set to a new,
// empty schema, dropped when tb ends: each test gets a database of its own
// on the shared server.
func PostgresSchema(tb testing.TB) string {
	tb.Helper()
	base := PostgresURL(tb)
	ctx := context.Background()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "kt_" + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if c, err := pgx.Connect(context.Background(), base); err == nil {
			_, _ = c.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
			c.Close(context.Background())
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
