package storetest

import (
	"strings"
	"testing"

	"kompact"
)

// testValidate: every way into a store applies kompact.ValidateSession's
// rules, not only the HTTP API: a session id the rule refuses (".."), text
// that is not valid UTF-8 and a message id given twice are EInvalid, from
// CreateSession, ImportSession (its head and its batches, with the same
// error as CreateSession), AppendMessages and CommitCompaction's
// replacement, and leave the store as it was.
func testValidate(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "keep", Messages: conversation()})
	before := storeSnapshot(t, st)
	u := func(id, text string) kompact.Message { return msg(kompact.RoleUser, id, text) }
	badUTF8 := []kompact.Message{u("", "fine"), u("", "caf\xe9")}
	dup := []kompact.Message{u("x", "a"), u("", "b"), u("x", "c")}

	for _, id := range []string{"..", ".", "a/b", strings.Repeat("x", kompact.MaxSessionIDLen+1), "caf\xc3\xa9"} {
		_, err := st.CreateSession(ctx, &kompact.Session{ID: id, Messages: conversation()})
		wantCode(t, err, kompact.EInvalid, "CreateSession with the session id "+id)
		_, err = st.ImportSession(ctx, &kompact.Session{ID: id}, batches(conversation(), 2, -1, nil))
		wantCode(t, err, kompact.EInvalid, "ImportSession with the session id "+id)
	}
	unchanged(t, "refused session ids", before, storeSnapshot(t, st))

	for name, msgs := range map[string][]kompact.Message{
		"text that is not UTF-8":   badUTF8,
		"a name that is not UTF-8": {{Role: kompact.RoleUser, Name: "\xff", Content: []kompact.Part{kompact.TextPart("a")}}},
		"a data part that is not UTF-8": {{Role: kompact.RoleTool, Content: []kompact.Part{
			{Type: kompact.PartData, Data: []byte("\"\xfe\"")}}}},
		"a message id given twice": dup,
	} {
		for _, id := range []string{"", "new"} {
			_, cerr := st.CreateSession(ctx, &kompact.Session{ID: id, Messages: msgs})
			wantCode(t, cerr, kompact.EInvalid, "CreateSession with "+name)
			_, err := st.ImportSession(ctx, &kompact.Session{ID: id}, batches(msgs, 1, -1, nil))
			wantCode(t, err, kompact.EInvalid, "ImportSession with "+name)
			if err.Error() != cerr.Error() {
				t.Fatalf("ImportSession with %s: %v; CreateSession: %v", name, err, cerr)
			}
		}
		_, err := st.AppendMessages(ctx, "keep", msgs)
		wantCode(t, err, kompact.EInvalid, "AppendMessages with "+name)
		c := kompact.Commit{Base: s.Messages, End: 2, Replacement: msgs, Version: s.Version, Generation: s.Generation}
		_, _, err = st.CommitCompaction(ctx, "keep", c)
		wantCode(t, err, kompact.EInvalid, "CommitCompaction with a replacement holding "+name)
		unchanged(t, "refused "+name, before, storeSnapshot(t, st))
	}
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "..", Messages: badUTF8}); err == nil || !strings.Contains(err.Error(), kompact.SessionIDRule) {
		t.Fatalf("CreateSession with the session id \"..\": %v, want the session id rule", err)
	}
}
