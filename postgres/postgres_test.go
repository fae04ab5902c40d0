package postgres

import (
	"context"
	"testing"

	"kompact"
	"kompact/internal/storetest"
	"kompact/internal/testenv"
)

// openSchema opens a store in a new schema of the test database, dropped
// when the test ends: every test starts empty.
func openSchema(t *testing.T, opts ...Option) *Store { return openSchemaTB(t, opts...) }

// openSchemaTB is openSchema for tests and benchmarks.
func openSchemaTB(t testing.TB, opts ...Option) *Store {
	t.Helper()
	st, err := Open(context.Background(), testenv.PostgresSchema(t), opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return st
}

func TestConformance(t *testing.T) {
	testenv.PostgresURL(t)
	storetest.Run(t, func(t *testing.T) kompact.Store { return openSchema(t) })
}

func TestRetention(t *testing.T) {
	testenv.PostgresURL(t)
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
