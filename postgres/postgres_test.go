package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storetest"
)

// testURL returns $KOMPACT_TEST_POSTGRES. Without it the tests skip, except
// under CI=true, where they fail: CI must run them.
func testURL(t testing.TB) string {
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

// openSchema opens a store in a new schema of the test database, dropped
// when the test ends: every test starts empty.
func openSchema(t *testing.T, opts ...Option) *Store { return openSchemaTB(t, opts...) }

// openSchemaTB is openSchema for tests and benchmarks.
func openSchemaTB(t testing.TB, opts ...Option) *Store {
	t.Helper()
	base := testURL(t)
	ctx := context.Background()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "kt_" + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err == nil {
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
	st, err := Open(ctx, u.String(), opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return st
}

func TestConformance(t *testing.T) {
	testURL(t)
	storetest.Run(t, func(t *testing.T) kompact.Store { return openSchema(t) })
}

func TestRetention(t *testing.T) {
	testURL(t)
	storetest.RunRetention(t, storetest.Retention{
		Open: func(t *testing.T, keep int) kompact.Store { return openSchema(t, KeepRevisions(keep)) },
		Bodies: func(t *testing.T, st kompact.Store, session string) int {
			var n int
			if err := st.(*Store).pool.QueryRow(t.Context(), `SELECT count(*) FROM bodies WHERE session_id = $1`, session).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		},
	})
}
