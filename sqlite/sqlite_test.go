package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kompact"
	"kompact/internal/storeutil"
	"kompact/internal/testing/storetest"
	"kompact/kimi"
)

func TestConformance(t *testing.T) {
	var mu sync.Mutex
	paths := map[*testing.T]string{}
	open := func(t *testing.T) kompact.Store {
		path := filepath.Join(t.TempDir(), "kompact.db")
		mu.Lock()
		paths[t] = path
		mu.Unlock()
		return openAt(t, path)
	}
	reopen := func(t *testing.T) kompact.Store {
		mu.Lock()
		path, ok := paths[t]
		mu.Unlock()
		if !ok {
			t.Fatal("reopen before open")
		}
		return openAt(t, path)
	}
	storetest.RunPersistent(t, open, reopen)
}

func openAt(t testing.TB, path string) *Store {
	t.Helper()
	st, err := Open(path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return st
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	st := openAt(t, filepath.Join(t.TempDir(), "kompact.db"))
	t.Cleanup(func() { st.Close() })
	return st
}

func TestOpenCreatesFolderAndFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "kompact.db")
	st := openAt(t, path)
	defer st.Close()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the database file was not created: %v", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		t.Errorf("the database file is readable by others: %v", info.Mode())
	}
	if st.Path() != path {
		t.Errorf("Path() = %s, want %s", st.Path(), path)
	}
	// Characters that mean something in a URI are only characters in the
	// path.
	odd := filepath.Join(t.TempDir(), "we?ird #name %20", "k.db")
	st2 := openAt(t, odd)
	if _, err := st2.CreateSession(t.Context(), &kompact.Session{ID: "x"}); err != nil {
		t.Fatal(err)
	}
	st2.Close()
	if _, err := os.Stat(odd); err != nil {
		t.Fatalf("the database is not at %s: %v", odd, err)
	}
	st2 = openAt(t, odd)
	if _, err := st2.GetSession(t.Context(), "x"); err != nil {
		t.Fatalf("reopening %s: %v", odd, err)
	}
	st2.Close()
	// A file that is not a database is refused, with a fix.
	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(junk); kompact.ErrorCodeOf(err) != kompact.EInternal || len(kompact.ErrorFixes(err)) == 0 {
		t.Errorf("Open(a text file): %v, want an internal error with fixes", err)
	}
	if _, err := Open(""); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("Open(\"\"): %v, want invalid_request", err)
	}
	// A folder where the file should be is an error that names the fix.
	_, err = Open(filepath.Dir(path))
	if kompact.ErrorCodeOf(err) != kompact.EInternal || len(kompact.ErrorFixes(err)) == 0 {
		t.Errorf("Open(a folder): %v, want an internal error with fixes", err)
	}
}

func TestMigrationsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kompact.db")
	st := openAt(t, path)
	ctx := t.Context()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: []kompact.Message{{Role: kompact.RoleUser}}}); err != nil {
		t.Fatal(err)
	}
	ms, err := storeutil.LoadMigrations(migrationFiles, "migrations")
	if err != nil || len(ms) == 0 {
		t.Fatalf("LoadMigrations: %v, %d migrations", err, len(ms))
	}
	count := func(st *Store) (n, hi int) {
		t.Helper()
		if err := st.w.QueryRowContext(ctx, `SELECT count(*), max(version) FROM schema_migrations`).Scan(&n, &hi); err != nil {
			t.Fatal(err)
		}
		return n, hi
	}
	n1, max1 := count(st)
	if n1 != len(ms) || max1 != ms[len(ms)-1].Version {
		t.Fatalf("schema_migrations has %d rows up to %d, want %d up to %d", n1, max1, len(ms), ms[len(ms)-1].Version)
	}
	st.Close()
	for range 2 {
		st = openAt(t, path)
		if n, hi := count(st); n != n1 || hi != max1 {
			t.Fatalf("reopening changed schema_migrations: %d rows up to %d", n, hi)
		}
		if s, err := st.GetSession(ctx, "s"); err != nil || len(s.Messages) != 1 {
			t.Fatalf("reopening lost the data: %v", err)
		}
		st.Close()
	}

	// A database from a newer kompact is refused rather than misread.
	st = openAt(t, path)
	if _, err := st.w.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future.sql', '')`); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("opening a newer schema: %v, want an error saying it is newer", err)
	}
}

func TestOpenConcurrently(t *testing.T) {
	// Two stores opening a new database at once apply the migrations once.
	path := filepath.Join(t.TempDir(), "kompact.db")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := Open(path)
			if err == nil {
				_, err = st.CreateSession(context.Background(), &kompact.Session{ID: fmt.Sprint("s", i)})
				err = errors.Join(err, st.Close())
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("store %d: %v", i, err)
		}
	}
	st2 := openAt(t, path)
	defer st2.Close()
	list, err := st2.ListSessions(t.Context(), kompact.SessionFilter{})
	if err != nil || len(list) != len(errs) {
		t.Fatalf("%d sessions (%v), want %d", len(list), err, len(errs))
	}
}

func TestWAL(t *testing.T) {
	st := openTemp(t)
	ctx := t.Context()
	for name, db := range map[string]*sql.DB{"writer": st.w, "reader": st.r} {
		var mode string
		if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" {
			t.Errorf("%s: journal_mode %q, want wal", name, mode)
		}
	}
	var fk, syncMode, busy int
	if err := st.w.QueryRowContext(ctx, `SELECT * FROM pragma_foreign_keys, pragma_synchronous, pragma_busy_timeout`).Scan(&fk, &syncMode, &busy); err != nil {
		t.Fatal(err)
	}
	if fk != 1 || syncMode != 1 || busy != busyTimeoutMS {
		t.Errorf("writer: foreign_keys %d synchronous %d busy_timeout %d, want 1 1 (NORMAL) %d", fk, syncMode, busy, busyTimeoutMS)
	}
	if _, err := st.r.ExecContext(ctx, `DELETE FROM sessions`); err == nil {
		t.Error("a reader connection could write")
	}
}

func TestDefaultPath(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		goos string
		env  func(string) string
		want string
	}{
		{"linux", env("KOMPACT_DB", "/data/k.db", "XDG_DATA_HOME", "/xdg", "HOME", "/home/u"), "/data/k.db"},
		{"linux", env("KOMPACT_DB", "rel/k.db"), "rel/k.db"},
		{"linux", env("XDG_DATA_HOME", "/xdg", "HOME", "/home/u"), "/xdg/kompact/kompact.db"},
		{"linux", env("XDG_DATA_HOME", "relative", "HOME", "/home/u"), "/home/u/.local/share/kompact/kompact.db"},
		{"linux", env("HOME", "/home/u"), "/home/u/.local/share/kompact/kompact.db"},
		{"darwin", env("HOME", "/Users/u"), "/Users/u/Library/Application Support/kompact/kompact.db"},
		{"darwin", env("XDG_DATA_HOME", "/xdg", "HOME", "/Users/u"), "/xdg/kompact/kompact.db"},
		{"darwin", env("KOMPACT_DB", "/k.db", "HOME", "/Users/u"), "/k.db"},
	}
	for _, tc := range tests {
		if got := defaultPath(tc.goos, tc.env); got != filepath.FromSlash(tc.want) {
			t.Errorf("%s: %s, want %s", tc.goos, got, tc.want)
		}
	}
	if got := DefaultPath(env("KOMPACT_DB", "/x.db")); got != "/x.db" {
		t.Errorf("DefaultPath: %s", got)
	}
	if got := DefaultPath(env()); !strings.HasSuffix(got, filepath.Join("kompact", "kompact.db")) {
		t.Errorf("DefaultPath without environment: %s", got)
	}
}

// dump writes every row of every table, in a fixed order, as text.
func dump(t *testing.T, db *sql.DB) string {
	t.Helper()
	ctx := t.Context()
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	var b strings.Builder
	for _, table := range tables {
		rows, err := db.QueryContext(ctx, `SELECT * FROM "`+table+`" ORDER BY 1, 2`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		fmt.Fprintf(&b, "== %s %v\n", table, cols)
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%q\n", vals)
		}
		rows.Close()
	}
	return b.String()
}

func fileHash(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "absent"
	}
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestFailedCommitChangesNothing checks the files themselves, not just what
// the store reports: a commit that fails in Rebase, one whose replacement
// is invalid, and one that fails half-way through its writes all leave the
// database as it was.
func TestFailedCommitChangesNothing(t *testing.T) {
	st := openTemp(t)
	ctx := t.Context()
	var msgs []kompact.Message
	for i := range 20 {
		role := kompact.RoleUser
		if i%2 == 1 {
			role = kompact.RoleAssistant
		}
		msgs = append(msgs, kompact.Message{Role: role, Content: []kompact.Part{kompact.TextPart(fmt.Sprint("message ", i))}})
	}
	s := createRead(t, st, &kompact.Session{ID: "s", Messages: msgs})
	var err error
	summary := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("summary")}}}
	if _, _, err := st.CommitCompaction(ctx, "s", kompact.Commit{Base: s.Messages, End: 5, Replacement: summary, Kind: kompact.RevisionCompaction}); err != nil {
		t.Fatal(err)
	}
	files := func() string {
		return fileHash(t, st.path) + " " + fileHash(t, st.path+"-wal")
	}
	before, beforeFiles := dump(t, st.w), files()

	// Rebase fails: the base's first messages are gone.
	_, _, err = st.CommitCompaction(ctx, "s", kompact.Commit{Base: s.Messages, End: 10, Replacement: summary, Kind: kompact.RevisionCompaction})
	if kompact.ErrorCodeOf(err) != kompact.EConflict {
		t.Fatalf("stale commit: %v, want a conflict", err)
	}
	// The replacement would take the id of a message it keeps.
	cur, _ := st.GetSession(ctx, "s")
	_, _, err = st.CommitCompaction(ctx, "s", kompact.Commit{Base: cur.Messages, End: 3,
		Replacement: []kompact.Message{{ID: cur.Messages[7].ID, Role: kompact.RoleUser}}, Kind: kompact.RevisionCompaction})
	if kompact.ErrorCodeOf(err) != kompact.EConflict {
		t.Fatalf("replacement with a kept id: %v, want a conflict", err)
	}
	if after := dump(t, st.w); after != before {
		t.Fatalf("a failed commit changed the database\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if after := files(); after != beforeFiles {
		t.Fatalf("a failed commit changed the files: %s, was %s", after, beforeFiles)
	}

	// A failure after the first writes of the transaction: a trigger makes
	// the session update fail once the revision and the messages are
	// written. The whole commit rolls back.
	if _, err := st.w.ExecContext(ctx, `CREATE TEMP TRIGGER fail_update BEFORE UPDATE ON main.sessions
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
	_, _, err = st.CommitCompaction(ctx, "s", kompact.Commit{Base: cur.Messages, End: 3, Replacement: summary, Kind: kompact.RevisionCompaction})
	if kompact.ErrorCodeOf(err) != kompact.EInternal || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("commit with a failing update: %v, want an internal error wrapping the cause", err)
	}
	if _, err := st.w.ExecContext(ctx, `DROP TRIGGER temp.fail_update`); err != nil {
		t.Fatal(err)
	}
	if after := dump(t, st.w); after != before {
		t.Fatalf("a commit that failed half-way changed the database\nbefore:\n%s\nafter:\n%s", before, after)
	}
	// The store still works, and the same commit now goes through.
	if _, _, err := st.CommitCompaction(ctx, "s", kompact.Commit{Base: cur.Messages, End: 3, Replacement: summary, Kind: kompact.RevisionCompaction}); err != nil {
		t.Fatal(err)
	}
	if dump(t, st.w) == before {
		t.Fatal("a successful commit left the dump as it was")
	}
}

// TestCanonicalForm checks what the store does with messages whose JSON
// form would not come back byte for byte: data and extras are compacted, as
// decoding them would, and what would not decode is refused.
func TestCanonicalForm(t *testing.T) {
	st := openTemp(t)
	ctx := t.Context()
	in := []kompact.Message{{Role: kompact.RoleTool, Content: []kompact.Part{
		{Type: kompact.PartData, Data: []byte(" { \"a\" : [ 1 , 2 ] } ")},
		{Type: kompact.PartData},
	}}, {Role: kompact.RoleAssistant, ToolCalls: []kompact.ToolCall{
		{ID: "c1", Name: "f", Extras: []byte(`{ "x": 1 }`)},
		{ID: "c2", Name: "g", Extras: []byte(`null`)},
	}}}
	s := createRead(t, st, &kompact.Session{Messages: in})
	var err error
	if string(in[0].Content[0].Data) != " { \"a\" : [ 1 , 2 ] } " || string(in[1].ToolCalls[0].Extras) != `{ "x": 1 }` {
		t.Fatal("CreateSession changed its input")
	}
	got, err := st.GetSession(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range [][]kompact.Message{s.Messages, got.Messages} {
		if string(m[0].Content[0].Data) != `{"a":[1,2]}` || string(m[1].ToolCalls[0].Extras) != `{"x":1}` || m[1].ToolCalls[1].Extras != nil {
			t.Fatalf("stored %s %s", m[0].AppendJSON(nil), m[1].AppendJSON(nil))
		}
		if string(m[0].AppendJSON(nil)) != string(got.Messages[0].AppendJSON(nil)) {
			t.Fatal("CreateSession's result differs from what GetSession reads")
		}
	}
	// A compaction whose base was built from the uncompacted input still
	// matches: the comparison is on the decoded form.
	base := append([]kompact.Message(nil), in...)
	base[0].ID, base[1].ID = s.Messages[0].ID, s.Messages[1].ID
	if _, _, err := st.CommitCompaction(ctx, s.ID, kompact.Commit{Base: base, End: 1, Replacement: in[:0], Kind: kompact.RevisionCompaction}); err != nil {
		t.Fatalf("commit over an equivalent base: %v", err)
	}
	for name, bad := range map[string]kompact.Message{
		"extras not an object": {Role: kompact.RoleAssistant, ToolCalls: []kompact.ToolCall{{ID: "c", Name: "f", Extras: []byte(`[1]`)}}},
		"extras not JSON":      {Role: kompact.RoleAssistant, ToolCalls: []kompact.ToolCall{{ID: "c", Name: "f", Extras: []byte(`{`)}}},
		"data only spaces":     {Role: kompact.RoleTool, Content: []kompact.Part{{Type: kompact.PartData, Data: []byte("  ")}}},
	} {
		if _, err := st.AppendMessages(ctx, s.ID, []kompact.Message{bad}); kompact.ErrorCodeOf(err) != kompact.EInvalid {
			t.Errorf("%s: %v, want invalid_request", name, err)
		}
	}
	if _, err := st.AppendMessages(ctx, s.ID, nil); kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("appending nothing: %v, want invalid_request", err)
	}
}

func TestTimesSortAsText(t *testing.T) {
	a := time.Now().UTC()
	b := a.Add(time.Nanosecond)
	if !b.After(a) || formatTime(a) >= formatTime(b) {
		t.Fatalf("times %s and %s do not sort", formatTime(a), formatTime(b))
	}
	whole := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	frac := whole.Add(123 * time.Millisecond)
	if formatTime(whole) >= formatTime(frac) {
		t.Fatalf("%s sorts after %s", formatTime(whole), formatTime(frac))
	}
	if got, err := parseTime(formatTime(frac)); err != nil || !got.Equal(frac) || got.Location() != time.UTC {
		t.Fatalf("round trip of %s: %v %v", frac, got, err)
	}
}

// TestAssignedIDsNeverReused: the counter behind assigned ids skips ids a
// client gave, even after those messages were compacted away.
func TestAssignedIDsNeverReused(t *testing.T) {
	st := openTemp(t)
	ctx := t.Context()
	user := func(id string) kompact.Message {
		return kompact.Message{ID: id, Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("x " + id)}}
	}
	s := createRead(t, st, &kompact.Session{ID: "s", Messages: []kompact.Message{user(""), user("m_5"), user("")}})
	var err error
	if got := s.Messages[0].ID + " " + s.Messages[2].ID; got != "m_6 m_7" {
		t.Fatalf("assigned %s, want m_6 m_7 (after the given m_5)", got)
	}
	_, _, err = st.CommitCompaction(ctx, "s", kompact.Commit{Base: s.Messages, End: 3, Replacement: []kompact.Message{user("")}, Kind: kompact.RevisionCompaction})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = st.AppendMessages(ctx, "s", []kompact.Message{user("m_20"), user(""), user("")}); err != nil {
		t.Fatal(err)
	}
	if s, err = st.GetSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range s.Messages {
		ids = append(ids, m.ID)
	}
	if got := strings.Join(ids, " "); got != "m_8 m_20 m_21 m_22" {
		t.Fatalf("ids %s, want m_8 m_20 m_21 m_22", got)
	}
}

// TestKeptBodyIsReused compacts a session five times: the system message
// each compaction keeps is stored once, not once per compaction.
func TestKeptBodyIsReused(t *testing.T) {
	st := openTemp(t)
	ctx := t.Context()
	s := createRead(t, st, &kompact.Session{ID: "s", Messages: benchSession(20)})
	for i := range 5 {
		p, err := kimi.Prepare(&s.Session, kimi.Options{MaxPreserved: 2})
		if err != nil || p.Noop {
			t.Fatalf("compaction %d: %v %+v", i, err, p)
		}
		res, err := p.Apply(kompact.Answer{Parts: []kompact.Part{kompact.TextPart(fmt.Sprint("summary ", i))}})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Commit()
		c.Version, c.Generation = s.Version, s.Generation
		if _, _, err = st.CommitCompaction(ctx, "s", c); err != nil {
			t.Fatal(err)
		}
		if s, err = st.GetSession(ctx, "s"); err != nil {
			t.Fatal(err)
		}
		if s.Messages[0].Role != kompact.RoleSystem {
			t.Fatalf("compaction %d did not keep the system message first", i)
		}
		if _, err := st.AppendMessages(ctx, "s", benchSession(8)[1:]); err != nil {
			t.Fatal(err)
		}
		if s, err = st.GetSession(ctx, "s"); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM bodies WHERE body LIKE '%"message 0:%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("the kept system message is stored %d times, want once", n)
	}
	if r, err := storetest.Revision(ctx, st, "s", 1); err != nil || r.Before[0].Content[0].Text != s.Messages[0].Content[0].Text {
		t.Fatalf("revision 1 lost the system message: %v", err)
	}
}

func TestRetention(t *testing.T) {
	storetest.RunRetention(t, storetest.Retention{
		Open: func(t *testing.T, keep int) kompact.Store {
			st, err := Open(filepath.Join(t.TempDir(), "kompact.db"), KeepRevisions(keep))
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		Bodies: func(t *testing.T, st kompact.Store, session string) int {
			var n int
			if err := st.(*Store).r.QueryRowContext(t.Context(), `SELECT count(*) FROM bodies WHERE session_id = ?`, session).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		},
	})
}

// createRead creates a session and returns it as GetSession reads it.
func createRead(t *testing.T, st *Store, in *kompact.Session) *kompact.StoredSession {
	t.Helper()
	info, err := st.CreateSession(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.GetSession(t.Context(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWindowMemory: a window of a 100k-message session is read without
// the rest of it (storetest.RunWindowMemory).
func TestWindowMemory(t *testing.T) {
	storetest.RunWindowMemory(t, openTemp(t))
}
