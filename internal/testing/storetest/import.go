package storetest

import (
	"fmt"
	"testing"

	"kompact"
)

// batches returns a next function for ImportSession that hands out msgs
// size at a time, then fail (when not nil) instead of the batch at index
// failAt.
func batches(msgs []kompact.Message, size, failAt int, fail error) func() ([]kompact.Message, error) {
	k := 0
	return func() ([]kompact.Message, error) {
		if fail != nil && k/size == failAt {
			return nil, fail
		}
		b := msgs[min(k, len(msgs)):min(k+size, len(msgs))]
		k += size
		return b, nil
	}
}

// testImport: a session imported in batches is stored exactly as
// CreateSession stores the same session (messages, given and assigned ids,
// title, token figures, next assigned id), whatever the batch size.
func testImport(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	u := func(id, text string) kompact.Message { return msg(kompact.RoleUser, id, text) }
	lists := map[string][]kompact.Message{
		"conversation": conversation(),
		"rich":         richMessages(),
		"mixed":        {u("", "a"), u("m_1", "b"), u("", "c"), u("m_2", "d"), u("", "e"), u("m_3", "f")},
		// A given id at or above one already handed out, in a later batch.
		"late given id": {u("", "a"), u("", "b"), u("m_2", "c"), u("", "d"), u("m_9", "e"), u("", "f")},
		"low given id":  {u("", "a"), u("", "b"), u("m_0", "c"), u("m_+1", "d"), u("", "e")},
		"all given":     {u("x", "a"), u("y", "b")},
		"none":          {},
	}
	k := 0
	for name, msgs := range lists {
		for _, size := range []int{1, 2, 100} {
			k++
			head := &kompact.Session{ID: fmt.Sprintf("imp-%d", k), Agent: "kimi", CompactionModel: "m"}
			info, err := st.ImportSession(ctx, head, batches(msgs, size, -1, nil))
			if err != nil {
				t.Fatalf("%s (batches of %d): ImportSession: %v", name, size, err)
			}
			imp := described(t, st, info, nil, "ImportSession")
			cinfo, err := st.CreateSession(ctx, &kompact.Session{ID: fmt.Sprintf("cre-%d", k), Agent: "kimi", CompactionModel: "m", Messages: msgs})
			if err != nil {
				t.Fatalf("%s: CreateSession: %v", name, err)
			}
			cre := described(t, st, cinfo, nil, "CreateSession")
			what := fmt.Sprintf("%s (batches of %d)", name, size)
			sameMessages(t, what, imp.Messages, cre.Messages)
			if info.Title != cinfo.Title || info.Messages != cinfo.Messages || imp.Tokens != cre.Tokens || imp.Version != 1 || imp.Agent != "kimi" || imp.CompactionModel != "m" {
				t.Fatalf("%s: imported %q %+v, created %q %+v", what, info.Title, imp.Tokens, cinfo.Title, cre.Tokens)
			}
			// The next assigned id is the same too.
			a1, err1 := st.AppendMessages(ctx, imp.ID, []kompact.Message{u("", "next")})
			a2, err2 := st.AppendMessages(ctx, cre.ID, []kompact.Message{u("", "next")})
			if err1 != nil || err2 != nil || a1.Messages[0].ID != a2.Messages[0].ID {
				t.Fatalf("%s: appended %v %v, errors %v %v", what, a1, a2, err1, err2)
			}
		}
	}
	// Without an id, the session gets one.
	info, err := st.ImportSession(ctx, &kompact.Session{}, batches(conversation(), 3, -1, nil))
	if err != nil || info.ID == "" || info.Messages != len(conversation()) {
		t.Fatalf("ImportSession without an id: %+v, %v", info, err)
	}
}

// testImportRejects: an import that fails, whether next fails midway or a
// batch is refused, leaves no session and the store as it was.
func testImportRejects(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "keep", Messages: conversation()})
	before := storeSnapshot(t, st)
	boom := kompact.Errorf(kompact.EInvalid, "the body broke off")
	u := func(id, text string) kompact.Message { return msg(kompact.RoleUser, id, text) }
	for _, id := range []string{"", "new"} {
		_, err := st.ImportSession(ctx, &kompact.Session{ID: id}, batches(conversation(), 2, 2, boom))
		if err == nil || err.Error() != boom.Error() || kompact.ErrorCodeOf(err) != kompact.EInvalid {
			t.Fatalf("ImportSession whose next fails: %v, want %v", err, boom)
		}
		unchanged(t, "ImportSession whose next fails", before, storeSnapshot(t, st))

		dup := []kompact.Message{u("x", "a"), u("", "b"), u("", "c"), u("x", "d")}
		_, err = st.ImportSession(ctx, &kompact.Session{ID: id}, batches(dup, 2, -1, nil))
		wantCode(t, err, kompact.EInvalid, "ImportSession with an id given twice")
		_, cerr := st.CreateSession(ctx, &kompact.Session{ID: id, Messages: dup})
		if cerr == nil || err.Error() != cerr.Error() {
			t.Fatalf("ImportSession with an id given twice: %v; CreateSession: %v", err, cerr)
		}
		bad := []kompact.Message{u("", "a"), u("", "b"), msg(kompact.Role("robot"), "", "c")}
		_, err = st.ImportSession(ctx, &kompact.Session{ID: id}, batches(bad, 2, -1, nil))
		wantCode(t, err, kompact.EInvalid, "ImportSession with an unknown role")
		if _, cerr = st.CreateSession(ctx, &kompact.Session{ID: id, Messages: bad}); cerr == nil || err.Error() != cerr.Error() {
			t.Fatalf("ImportSession with an unknown role: %v; CreateSession: %v", err, cerr)
		}
		unchanged(t, "a refused ImportSession", before, storeSnapshot(t, st))
	}
	_, err := st.ImportSession(ctx, &kompact.Session{ID: "keep"}, batches(conversation(), 2, -1, nil))
	wantCode(t, err, kompact.EConflict, "ImportSession with a taken id")
	unchanged(t, "ImportSession with a taken id", before, storeSnapshot(t, st))
}
