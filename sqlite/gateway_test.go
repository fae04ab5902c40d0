package sqlite

import (
	"path/filepath"
	"strings"
	"testing"

	"kompact"
)

// TestGatewayMigration: a database at migration 0007 (before the gateway
// records) upgrades when opened: its sessions stay, none of them is a
// gateway session, and gateway sessions can be created.
func TestGatewayMigration(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "kompact.db")
	st := openAt(t, path)
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "old", Messages: []kompact.Message{{Role: kompact.RoleUser}}}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP TABLE gateway_records`, `DELETE FROM schema_migrations WHERE version = 8`} {
		if _, err := st.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	st = openAt(t, path)
	defer st.Close()
	if s, err := st.GetSession(ctx, "old"); err != nil || s.Gateway || s.Rewritten != 1 || len(s.Messages) != 1 {
		t.Fatalf("the session stored at 0007: %+v, %v", s, err)
	}
	if _, err := st.CreateGatewaySession(ctx, &kompact.Session{ID: "new"}, "k", []byte("{}")); err != nil {
		t.Fatalf("CreateGatewaySession after the upgrade: %v", err)
	}
	if rs, err := st.FindGatewayRecords(ctx, "k", 0); err != nil || len(rs) != 1 || rs[0].SessionID != "new" {
		t.Fatalf("FindGatewayRecords after the upgrade: %+v, %v", rs, err)
	}
}

// TestGatewayFindUsesIndex: finding a key's records reads them through
// gateway_records_by_key, newest first, without a sort: the cost follows
// the records returned, not the table.
func TestGatewayFindUsesIndex(t *testing.T) {
	st := openTemp(t)
	rows, err := st.w.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+findGatewayQuery, "k", 16)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if got := strings.Join(plan, "; "); !strings.Contains(got, "gateway_records_by_key") || strings.Contains(got, "TEMP B-TREE") {
		t.Errorf("the find's plan is %q, want a search of gateway_records_by_key without a sort", got)
	}
}
