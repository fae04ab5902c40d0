package sqlite

import (
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/storetest"
)

// TestGatewayMigration: a database at migration 0007 (before the gateway
// records) upgrades when opened (storetest.RunGatewayUpgrade).
func TestGatewayMigration(t *testing.T) {
	st := openTemp(t)
	storetest.RunGatewayUpgrade(t, st, func(t *testing.T) kompact.Store {
		for _, q := range []string{`DROP TABLE gateway_records`, `DELETE FROM schema_migrations WHERE version IN (8, 11, 17)`} {
			if _, err := st.w.ExecContext(t.Context(), q); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		up := openAt(t, st.path)
		t.Cleanup(func() { up.Close() })
		return up
	})
}

// TestGatewaySideCallsMigration: records stored before migration 0017
// are no side calls (storetest.RunGatewaySideCallsUpgrade).
func TestGatewaySideCallsMigration(t *testing.T) {
	st := openTemp(t)
	storetest.RunGatewaySideCallsUpgrade(t, st, func(t *testing.T) kompact.Store {
		for _, q := range []string{`ALTER TABLE gateway_records DROP COLUMN side_call`, `DELETE FROM schema_migrations WHERE version = 17`} {
			if _, err := st.w.ExecContext(t.Context(), q); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		up := openAt(t, st.path)
		t.Cleanup(func() { up.Close() })
		return up
	})
}

// TestGatewayChainsMigration: records stored before migration 0011 get the
// chain their state holds (storetest.RunGatewayChainsUpgrade).
func TestGatewayChainsMigration(t *testing.T) {
	st := openTemp(t)
	storetest.RunGatewayChainsUpgrade(t, st, func(t *testing.T) kompact.Store {
		for _, q := range []string{`DROP INDEX gateway_records_by_chain`, `ALTER TABLE gateway_records DROP COLUMN chain`,
			`DELETE FROM schema_migrations WHERE version = 11`} {
			if _, err := st.w.ExecContext(t.Context(), q); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		up := openAt(t, st.path)
		t.Cleanup(func() { up.Close() })
		return up
	})
}

// TestGatewayFindUsesIndex: finding a key's records reads them through
// gateway_records_by_key, newest first, without a sort: the cost follows
// the records returned, not the table.
func TestGatewayFindUsesIndex(t *testing.T) {
	st := openTemp(t)
	plan := explain(t, st, findGatewayQuery, "k", 16)
	if got := strings.Join(plan, "; "); !strings.Contains(got, "gateway_records_by_key") || strings.Contains(got, "TEMP B-TREE") {
		t.Errorf("the find's plan is %q, want a search of gateway_records_by_key without a sort", got)
	}
}
