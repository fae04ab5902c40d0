package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
)

// TestAppendLooksIDsUp: the id check of an append looks the new ids up in
// messages_live_by_id rather than scanning the session's rows by position,
// so an append's cost does not grow with the session (the 100k-message
// append took 19.7 ms against 0.9 ms at 100 before).
func TestAppendLooksIDsUp(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: benchSession(200)}); err != nil {
		t.Fatal(err)
	}
	plan := explain(t, st, checkFreeQuery(2), "s", 0, "a", "b")
	if got := strings.Join(plan, "; "); !strings.Contains(got, "messages_live_by_id") {
		t.Errorf("the id check's plan is %q, want a lookup in messages_live_by_id", got)
	}
}

// TestGatewayFindByChains (issue 29): the find by chains looks the key and
// chains up in gateway_records_by_chain, so that it follows the records
// found, not how many share the key.
func TestGatewayFindByChains(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	plan := explain(t, st, findChainsQuery, "k", `["c1","c2"]`, 16)
	if got := strings.Join(plan, "; "); !strings.Contains(got, "gateway_records_by_chain") || strings.Contains(got, "SCAN gateway_records") {
		t.Errorf("the find by chains' plan is %q, want a lookup in gateway_records_by_chain", got)
	}
}

// explain returns the details of SQLite's query plan for query with args.
func explain(t *testing.T, st *Store, query string, args ...any) []string {
	t.Helper()
	rows, err := st.w.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+query, args...)
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
	return plan
}

// TestWindowReadsARange (issue 34 §1): a window's bodies are read by an
// index range of the session's positions, and the message it is around is
// looked up in messages_live_by_id, so that a window read follows the
// window, not the session.
func TestWindowReadsARange(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got := strings.Join(explain(t, st, eachBodyQuery, "s", 10, 20), "; "); !strings.Contains(got, "(session_id=? AND pos>? AND pos<?)") || strings.Contains(got, "SCAN") {
		t.Errorf("the window read's plan is %q, want a range of the session's positions", got)
	}
	if got := strings.Join(explain(t, st, liveMessageQuery, "s", "m1"), "; "); !strings.Contains(got, "messages_live_by_id") {
		t.Errorf("the message lookup's plan is %q, want a lookup in messages_live_by_id", got)
	}
}
