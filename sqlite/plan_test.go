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
	rows, err := st.w.QueryContext(ctx, `EXPLAIN QUERY PLAN `+checkFreeQuery(2), "s", 0, "a", "b")
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
	if got := strings.Join(plan, "; "); !strings.Contains(got, "messages_live_by_id") {
		t.Errorf("the id check's plan is %q, want a lookup in messages_live_by_id", got)
	}
}
