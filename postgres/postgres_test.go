package postgres

import (
	"context"
	"testing"

	"kompact"
	"kompact/internal/testing/storetest"
	"kompact/internal/testing/testenv"
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

// TestUnknownTextLengths: bodies stored before migration 0009 have no
// text length (NULL); a restore or an undo to a list holding one leaves
// its estimate to the read.
func TestUnknownTextLengths(t *testing.T) {
	testenv.PostgresURL(t)
	st := openSchema(t)
	storetest.RunUnknownLengths(t, st, func(t *testing.T, id string) {
		if _, err := st.pool.Exec(t.Context(), `UPDATE bodies SET text_len = NULL WHERE session_id = $1`, id); err != nil {
			t.Fatal(err)
		}
	})
}
