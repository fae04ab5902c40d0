package storetest

import (
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"
)

// testInputRule (issue 21 §5): the message id rule (kompact.MessageIDRule)
// and the compaction model's length are applied by the store itself, on
// every way in, with the same EInvalid on every store; a session id with
// NUL or bytes that are not UTF-8 is EInvalid too (never an internal
// error of the database).
func testInputRule(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "keep", Messages: conversation()})
	before := storeSnapshot(t, st)
	for _, id := range []string{"a\x00b", "\xff", "a b"} {
		_, err := st.CreateSession(ctx, &kompact.Session{ID: id, Messages: conversation()})
		wantCode(t, err, kompact.EInvalid, "CreateSession with the session id "+id)
		_, err = st.ImportSession(ctx, &kompact.Session{ID: id}, batches(conversation(), 2, -1, nil))
		wantCode(t, err, kompact.EInvalid, "ImportSession with the session id "+id)
	}
	for name, id := range map[string]string{
		"a message id of 129 bytes":     strings.Repeat("i", kompact.MaxMessageIDLen+1),
		"a message id of 100 KB":        strings.Repeat("i", 100_000),
		"a message id holding NUL":      "a\x00b",
		"a message id holding a return": "a\rb",
	} {
		msgs := []kompact.Message{msg(kompact.RoleUser, "", "fine"), msg(kompact.RoleUser, id, "x")}
		_, cerr := st.CreateSession(ctx, &kompact.Session{Messages: msgs})
		wantCode(t, cerr, kompact.EInvalid, "CreateSession with "+name)
		_, err := st.ImportSession(ctx, &kompact.Session{}, batches(msgs, 1, -1, nil))
		wantCode(t, err, kompact.EInvalid, "ImportSession with "+name)
		if err.Error() != cerr.Error() {
			t.Fatalf("ImportSession with %s: %v; CreateSession: %v", name, err, cerr)
		}
		_, err = st.AppendMessages(ctx, "keep", msgs)
		wantCode(t, err, kompact.EInvalid, "AppendMessages with "+name)
		if !strings.Contains(err.Error(), "messages[1].id") || len(err.Error()) > 400 {
			t.Fatalf("AppendMessages with %s: %.400v", name, err)
		}
	}
	long := strings.Repeat("m", kompact.MaxCompactionModelLen+1)
	for _, model := range []string{long, "m\x00"} {
		_, err := st.CreateSession(ctx, &kompact.Session{CompactionModel: model, Messages: conversation()})
		wantCode(t, err, kompact.EInvalid, "CreateSession with compaction_model "+model[:2])
		_, err = st.ImportSession(ctx, &kompact.Session{CompactionModel: model}, batches(conversation(), 2, -1, nil))
		wantCode(t, err, kompact.EInvalid, "ImportSession with compaction_model "+model[:2])
		_, err = st.UpdateSettings(ctx, "keep", Model(model))
		wantCode(t, err, kompact.EInvalid, "a compaction model "+model[:2])
	}
	unchanged(t, "refused input", before, storeSnapshot(t, st))
	if _, err := st.UpdateSettings(ctx, "keep", Model(long[1:])); err != nil {
		t.Fatalf("a compaction model of %d bytes: %v", len(long)-1, err)
	}
}

// testSessionLimit (issue 21 §4): a store bounds the messages of a
// session (kompact.SessionLimiter): a create, import, append, restore or
// undo past the limit is ETooLarge naming it and changes nothing, one up
// to it is taken, and a compaction of a session over it (a lowered
// limit) still goes through.
func testSessionLimit(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	l, ok := st.(kompact.SessionLimiter)
	if !ok {
		t.Fatal("the store has no LimitSessionMessages (kompact.SessionLimiter)")
	}
	n := len(conversation()) // 9
	l.LimitSessionMessages(n)
	s0 := create(t, st, &kompact.Session{ID: "full", Messages: conversation()})
	before := storeSnapshot(t, st)
	tooMany := append(conversation(), msg(kompact.RoleUser, "", "one too many"))
	_, err := st.CreateSession(ctx, &kompact.Session{ID: "big", Messages: tooMany})
	wantLimit(t, err, "CreateSession", `session "big" would have 10 messages; a session holds at most 9`)
	_, err = st.ImportSession(ctx, &kompact.Session{ID: "big"}, batches(tooMany, 3, -1, nil))
	wantLimit(t, err, "ImportSession", `session "big" would have 10 messages`)
	_, err = st.AppendMessages(ctx, "full", []kompact.Message{msg(kompact.RoleUser, "", "more")})
	wantLimit(t, err, "AppendMessages", `session "full" would have 10 messages`)
	unchanged(t, "refused past the limit", before, storeSnapshot(t, st))

	// A compaction shrinks the session; appends fill it again; the undo
	// would bring back the compacted messages: past the limit.
	s1, _ := commit(t, st, "full", compaction(t, s0, kimi.Options{MaxPreserved: 2}, "summary"))
	appendMsgs(t, st, "full", []kompact.Message{msg(kompact.RoleUser, "", "q"), msg(kompact.RoleAssistant, "", "a")})
	before = storeSnapshot(t, st)
	_, _, err = st.UndoCompaction(ctx, "full", 1)
	wantLimit(t, err, "UndoCompaction", `session "full" would have 11 messages`)
	unchanged(t, "an undo past the limit", before, storeSnapshot(t, st))
	if len(s1.Messages) >= n {
		t.Fatalf("the compaction left %d messages", len(s1.Messages))
	}

	// Lowered below the session's length, the limit refuses growth only.
	l.LimitSessionMessages(2)
	c := compaction(t, get(t, st, "full"), kimi.Options{MaxPreserved: 1}, "summary two")
	commit(t, st, "full", c)
	l.LimitSessionMessages(0) // the default again
	appendMsgs(t, st, "full", tooMany)
}

// wantLimit checks that err is the ETooLarge of a session limit, with want
// in its message.
func wantLimit(t *testing.T, err error, what, want string) {
	t.Helper()
	wantCode(t, err, kompact.ETooLarge, what+" past the session limit")
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%s past the session limit: %v, want %q", what, err, want)
	}
}
