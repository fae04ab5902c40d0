package testserver

import (
	"context"
	"os"
	"testing"

	"kompact"
	"kompact/internal/testing/testenv"
	"kompact/postgres"
)

// Stores are the stores a test runs through, by name: SQLite, and
// PostgreSQL (a schema of its own per test) when $KOMPACT_TEST_POSTGRES is
// set.
func Stores() map[string]func(t *testing.T) kompact.Store {
	out := map[string]func(t *testing.T) kompact.Store{
		"sqlite": func(t *testing.T) kompact.Store { return SQLite(t) },
	}
	if os.Getenv("KOMPACT_TEST_POSTGRES") != "" {
		out["postgres"] = func(t *testing.T) kompact.Store {
			st, err := postgres.Open(context.Background(), testenv.PostgresSchema(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}
	}
	return out
}
