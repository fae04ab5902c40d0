// Package pgtest gives a test a PostgreSQL database of its own: a new
// schema of the test cluster named by $KOMPACT_TEST_POSTGRES, dropped when
// the test ends.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// URL returns $KOMPACT_TEST_POSTGRES. Without it the test skips, except
// under CI=true, where it fails: CI must run the PostgreSQL tests.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("KOMPACT_TEST_POSTGRES")
	if u == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("KOMPACT_TEST_POSTGRES is not set; CI runs the PostgreSQL tests (see .ci/run)")
		}
		t.Skip("set KOMPACT_TEST_POSTGRES to a PostgreSQL URL to run these tests")
	}
	return u
}

// Schema creates a schema named prefix and 12 random hex digits in the
// test database, dropped when the test ends, and returns the database's
// URL with its search_path set to it: every test starts empty.
func Schema(t testing.TB, prefix string) string {
	t.Helper()
	base := URL(t)
	ctx := context.Background()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := prefix + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(context.Background(), base); err == nil {
			_, _ = c.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
			c.Close(context.Background())
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
