package postgres

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/testing/storetest"
)

// TestAppendLooksIDsUp: the id check of an append is an index lookup of
// (session_id, id), not a filter over every row of the session (with
// "id = ANY(...)", a 10k-message append took 14 ms against 6 ms at 100).
func TestAppendLooksIDsUp(t *testing.T) {
	st := openSchema(t)
	ctx := t.Context()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: storetest.BenchSession(500)}); err != nil {
		t.Fatal(err)
	}
	plan := explain(t, st, checkFreeQuery, "s", "m_1", 0)
	looked := false
	for _, line := range plan {
		looked = looked || strings.Contains(line, "Index Cond:") && strings.Contains(line, "(id = ")
	}
	if !looked {
		t.Errorf("the id check's plan does not look the id up in an index:\n%s", strings.Join(plan, "\n"))
	}
	if _, err := st.AppendMessages(ctx, "s", []kompact.Message{{ID: "m_1", Role: kompact.RoleUser}}); kompact.ErrorCodeOf(err) != kompact.EConflict {
		t.Errorf("appending a taken id: %v, want a conflict", err)
	}
}

// TestRetireReadsTheRange: retiring the compacted range of a session reads
// that range of a (session_id, pos) index, not every live row of the
// session, even on a table without statistics yet (as one UPDATE with
// "pos < end", PostgreSQL chose the id index and filtered all 10k rows: a
// 10k commit took 15.7 ms against 3.9 ms at 100).
func TestRetireReadsTheRange(t *testing.T) {
	st := openSchema(t)
	ctx := t.Context()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: storetest.BenchSession(500)}); err != nil {
		t.Fatal(err)
	}
	plan := explain(t, st, retireQuery, 99, "s", 0, 11)
	ranged := false
	for _, line := range plan {
		ranged = ranged || strings.Contains(line, "Index Cond:") && strings.Contains(line, "(pos >= ") && strings.Contains(line, "(pos < ")
	}
	if !ranged {
		t.Errorf("the retire's plan does not read a range of positions from an index:\n%s", strings.Join(plan, "\n"))
	}
}

// TestWindowReadsTheRange (issue 34 §1): a window's bodies are read by a
// range of a (session_id, pos) index, so that a window read follows the
// window, not the session.
func TestWindowReadsTheRange(t *testing.T) {
	st := openSchema(t)
	ctx := t.Context()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: storetest.BenchSession(500)}); err != nil {
		t.Fatal(err)
	}
	plan := explain(t, st, eachBodyQuery, "s", 200, 300)
	ranged := false
	for _, line := range plan {
		ranged = ranged || strings.Contains(line, "Index Cond:") && strings.Contains(line, "(pos >= ") && strings.Contains(line, "(pos < ")
	}
	if !ranged {
		t.Errorf("the window read's plan does not read a range of positions from an index:\n%s", strings.Join(plan, "\n"))
	}
}

// TestGatewayFindUsesIndex: finding a conversation key's records looks
// the key up in gateway_records_by_key rather than reading the table, on a
// table without statistics yet and after ANALYZE: the gateway's lookup
// follows the key's few records, not the number of gateway sessions.
// (PostgreSQL may sort those few rows rather than read the index
// backwards.) The table holds 20,000 records, so that a sequential scan
// is not the cheaper plan once statistics exist, as it is for a few
// hundred rows (with 200, the test failed whenever autovacuum had analyzed
// the table first).
func TestGatewayFindUsesIndex(t *testing.T) {
	st := openSchema(t)
	ctx := t.Context()
	for i := range 200 {
		if _, err := st.CreateGatewaySession(ctx, &kompact.Session{}, kompact.GatewayRecord{Key: fmt.Sprint("k", i%50), Chain: fmt.Sprint("c", i), State: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
	}
	// More records of other keys, written directly: the store's path is
	// the one above; these only give the table its size.
	for _, q := range []string{
		`INSERT INTO sessions (id, version, created_at, updated_at) SELECT 'bulk' || n, 1, now(), now() FROM generate_series(1, 19800) AS n`,
		`INSERT INTO gateway_records (session_id, conv_key, seq, state) SELECT 'bulk' || n, 'bulk' || (n % 5000), 1, '\x7b7d' FROM generate_series(1, 19800) AS n`,
	} {
		if _, err := st.pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, stats := range []string{"without statistics", "after ANALYZE"} {
		if stats == "after ANALYZE" {
			if _, err := st.pool.Exec(ctx, `ANALYZE gateway_records`); err != nil {
				t.Fatal(err)
			}
		}
		plan := explain(t, st, findGatewayQuery, "k7", 16)
		joined := strings.Join(plan, "\n")
		if !strings.Contains(joined, "gateway_records_by_") || !strings.Contains(joined, "Index Cond: (conv_key = ") || strings.Contains(joined, "Seq Scan") {
			t.Errorf("%s, the find's plan does not look the key up in an index of gateway_records:\n%s", stats, joined)
		}
		plan = explain(t, st, findChainsQuery, "k7", 16, []string{"c7", "c57"})
		joined = strings.Join(plan, "\n")
		if !strings.Contains(joined, "gateway_records_by_chain") || strings.Contains(joined, "Seq Scan") {
			t.Errorf("%s, the find by chains does not look them up in gateway_records_by_chain:\n%s", stats, joined)
		}
	}
}

// explain returns the lines of PostgreSQL's plan for query with args.
func explain(t *testing.T, st *Store, query string, args ...any) []string {
	t.Helper()
	rows, err := st.pool.Query(t.Context(), `EXPLAIN `+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return plan
}
