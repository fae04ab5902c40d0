package sqlite

import (
	"bytes"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"kompact"
	"kompact/internal/testing/storetest"
)

// TestOwnedBodies holds the driver to what OwnedBodies promises (see
// ownedBody): EachBody and EachRevisionBody hand out each body in a buffer
// of its own. The bodies are kept as handed out, uncopied, while the
// following rows are read; afterwards each must still be the stored body,
// and no two may share memory. A driver that reused or shared its buffer
// between rows (as database/sql does with a TEXT value) fails here, and
// the stores' decoder must then copy again (storeutil.bodyDecoder).
func TestOwnedBodies(t *testing.T) {
	ctx := t.Context()
	st := openAt(t, filepath.Join(t.TempDir(), "kompact.db"))
	var msgs []kompact.Message
	for i := range 40 {
		// Bodies of one size, which a reused buffer would fit, and others.
		text := strings.Repeat(fmt.Sprint(i%10), 100)
		if i%3 == 0 {
			text = strings.Repeat("é\"x", 50*i+1)
		}
		msgs = append(msgs, kompact.Message{ID: fmt.Sprint("m", i), Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(text)}})
	}
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s", Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	summary := kompact.Message{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("summary")}}
	if _, _, err := st.CommitCompaction(ctx, "s", kompact.Commit{Base: msgs, End: 30, Replacement: []kompact.Message{summary}, Kind: kompact.RevisionCompaction, Version: 1}); err != nil {
		t.Fatal(err)
	}
	cur, err := st.GetSession(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	rev, err := storetest.Revision(ctx, st, "s", 1)
	if err != nil {
		t.Fatal(err)
	}
	err = st.read(ctx, "test", func(tx *sql.Tx) error {
		s := stmts{tx: tx}
		if !s.OwnedBodies() {
			t.Fatal("the SQLite store does not say its bodies are owned")
		}
		var live [][]byte
		if err := s.EachBody(ctx, "s", 0, math.MaxInt64, func(body []byte) error {
			live = append(live, body)
			return nil
		}); err != nil {
			return err
		}
		checkOwned(t, "EachBody", live, cur.Messages)
		var before [][]byte
		if err := s.EachRevisionBody(ctx, "s", 1, false, func(_ int64, body []byte) error {
			before = append(before, body)
			return nil
		}); err != nil {
			return err
		}
		checkOwned(t, "EachRevisionBody", before, rev.Before)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkOwned checks that bodies, kept as handed out, are still want's
// JSON forms and that no two share memory (capacity included).
func checkOwned(t *testing.T, what string, bodies [][]byte, want []kompact.Message) {
	t.Helper()
	if len(bodies) != len(want) {
		t.Fatalf("%s: %d bodies, want %d", what, len(bodies), len(want))
	}
	type span struct{ from, to uintptr }
	spans := make([]span, len(bodies))
	for i, b := range bodies {
		if !bytes.Equal(b, want[i].AppendJSON(nil)) {
			t.Fatalf("%s: body %d changed after later rows were read: %.80s", what, i, b)
		}
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		spans[i] = span{p, p + uintptr(cap(b))}
		for j := range i {
			if spans[i].from < spans[j].to && spans[j].from < spans[i].to {
				t.Fatalf("%s: bodies %d and %d share memory", what, j, i)
			}
		}
	}
}
