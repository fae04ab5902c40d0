package postgres

import (
	"context"
	"testing"

	"kompact"
	"kompact/internal/testing/storetest"
)

// TestMigrationBelowTheNewest: a migration numbered below the newest one a
// database has (branches add them in any order) is still applied.
func TestMigrationBelowTheNewest(t *testing.T) {
	st := openSchema(t)
	defer st.Close()
	ctx := context.Background()
	// The database as it was before 0004: without its columns and record.
	for _, q := range []string{
		`ALTER TABLE sessions DROP COLUMN token_count, DROP COLUMN pending_tokens, DROP COLUMN auto_failures`,
		`DELETE FROM schema_migrations WHERE version = 4`,
	} {
		if _, err := st.pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := migrate(ctx, st.pool); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := st.pool.QueryRow(ctx, `SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'sessions' AND column_name IN ('token_count', 'pending_tokens', 'auto_failures')`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Fatalf("after migrating again the sessions table has %d of the 3 token columns", n)
	}
}

// TestGatewayMigration: a database at migration 0007 (before the gateway
// records) upgrades (storetest.RunGatewayUpgrade).
func TestGatewayMigration(t *testing.T) {
	st := openSchema(t)
	defer st.Close()
	storetest.RunGatewayUpgrade(t, st, func(t *testing.T) kompact.Store {
		ctx := t.Context()
		for _, q := range []string{`DROP TABLE gateway_records`, `DELETE FROM schema_migrations WHERE version IN (8, 11, 17)`} {
			if _, err := st.pool.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if err := migrate(ctx, st.pool); err != nil {
			t.Fatal(err)
		}
		return st
	})
}

// TestGatewaySideCallsMigration: records stored before migration 0017
// are no side calls (storetest.RunGatewaySideCallsUpgrade).
func TestGatewaySideCallsMigration(t *testing.T) {
	st := openSchema(t)
	defer st.Close()
	storetest.RunGatewaySideCallsUpgrade(t, st, func(t *testing.T) kompact.Store {
		ctx := t.Context()
		for _, q := range []string{`ALTER TABLE gateway_records DROP COLUMN side_call`, `DELETE FROM schema_migrations WHERE version = 17`} {
			if _, err := st.pool.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if err := migrate(ctx, st.pool); err != nil {
			t.Fatal(err)
		}
		return st
	})
}

// TestGatewayChainsMigration: records stored before migration 0011 get the
// chain their state holds (storetest.RunGatewayChainsUpgrade).
func TestGatewayChainsMigration(t *testing.T) {
	st := openSchema(t)
	defer st.Close()
	storetest.RunGatewayChainsUpgrade(t, st, func(t *testing.T) kompact.Store {
		ctx := t.Context()
		for _, q := range []string{`ALTER TABLE gateway_records DROP COLUMN chain`, `DELETE FROM schema_migrations WHERE version = 11`} {
			if _, err := st.pool.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if err := migrate(ctx, st.pool); err != nil {
			t.Fatal(err)
		}
		return st
	})
}
