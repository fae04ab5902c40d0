package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kompact"
	"kompact/kimi"
)

// testCommitAfterRecreate: a compaction that read a session commits into
// nothing but that session. Deleted and created (or imported) again under
// its id, the session starts its versions and message ids again, so that
// a stale commit's version and ids match the new one's; the commit is
// then EConflict and writes nothing, even when the new session's
// messages are the old ones (issue 28 §1).
func testCommitAfterRecreate(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	grown := func(s *kompact.StoredSession) *kompact.StoredSession {
		t.Helper()
		for i := range 2 {
			s = appendMsgs(t, st, s.ID, []kompact.Message{msg(kompact.RoleUser, "", fmt.Sprint("later ", i))})
		}
		return s
	}
	old := grown(create(t, st, &kompact.Session{ID: "r", Agent: "a", Messages: conversation()}))
	stale := compaction(t, old, kimi.Options{MaxPreserved: 2}, "the old session's summary")

	changed := conversation()
	changed[2] = msg(changed[2].Role, "", "a message the old session did not have")
	again := []struct {
		what string
		make func() *kompact.StoredSession
	}{
		{"created again with a message changed", func() *kompact.StoredSession {
			return create(t, st, &kompact.Session{ID: "r", Agent: "a", Messages: changed})
		}},
		{"created again with the same messages", func() *kompact.StoredSession {
			return create(t, st, &kompact.Session{ID: "r", Agent: "a", Messages: conversation()})
		}},
		{"imported again with a message changed", func() *kompact.StoredSession {
			if _, err := st.ImportSession(ctx, &kompact.Session{ID: "r", Agent: "a"}, batches(slices.Clone(changed), 3, -1, nil)); err != nil {
				t.Fatalf("ImportSession: %v", err)
			}
			return get(t, st, "r")
		}},
	}
	for _, tc := range again {
		if err := st.DeleteSession(ctx, "r"); err != nil {
			t.Fatal(err)
		}
		now := grown(tc.make())
		if now.Version != old.Version || !slices.Equal(ids(now.Messages), ids(old.Messages)) {
			t.Fatalf("%s: version %d and ids %v; the test needs the old session's %d and %v",
				tc.what, now.Version, ids(now.Messages), old.Version, ids(old.Messages))
		}
		before := snapshot(t, st, "r")
		_, _, err := st.CommitCompaction(ctx, "r", stale)
		wantCode(t, err, kompact.EConflict, "a commit that read the session before it was "+tc.what)
		unchanged(t, "a commit into a session "+tc.what, before, snapshot(t, st, "r"))

		// A commit that read the new session applies.
		got, _ := commit(t, st, "r", compaction(t, now, kimi.Options{MaxPreserved: 2}, "the new session's summary"))
		checkGet(t, st, got)
	}

	recreatedPreviews(t, st, old)

	// Without a version a commit promises nothing: the store compares
	// the replaced messages, and the changed one conflicts.
	if err := st.DeleteSession(ctx, "r"); err != nil {
		t.Fatal(err)
	}
	grown(create(t, st, &kompact.Session{ID: "r", Agent: "a", Messages: changed}))
	unversioned := stale
	unversioned.Version = 0
	before := snapshot(t, st, "r")
	_, _, err := st.CommitCompaction(ctx, "r", unversioned)
	wantCode(t, err, kompact.EConflict, "a commit without a version whose base has a message changed since")
	unchanged(t, "a commit without a version, conflicting", before, snapshot(t, st, "r"))
}

// recreatedPreviews: a preview goes with its session. One of old, the
// session once kept under the id "r", is refused; one of the session "r"
// now is kept and taken with its generation.
func recreatedPreviews(t *testing.T, st kompact.Store, old *kompact.StoredSession) {
	t.Helper()
	ctx := t.Context()
	now := get(t, st, "r")
	at := time.Now().UTC()
	lim := kompact.PreviewLimits{MaxCount: 10, MaxBytes: 1 << 20}
	err := st.PutPreview(ctx, &kompact.Preview{ID: "pv_old", SessionID: "r", Version: old.Version, Generation: old.Generation,
		Body: []byte("{}"), ExpiresAt: at.Add(time.Hour)}, at, lim)
	wantCode(t, err, kompact.EConflict, "a preview of the session before it was created again")
	if err := st.PutPreview(ctx, &kompact.Preview{ID: "pv_new", SessionID: "r", Version: now.Version, Generation: now.Generation,
		Body: []byte("{}"), ExpiresAt: at.Add(time.Hour)}, at, lim); err != nil {
		t.Fatal(err)
	}
	if p, err := st.TakePreview(ctx, "r", "pv_new", at); err != nil || p.Generation != now.Generation {
		t.Fatalf("TakePreview: %+v, %v; want the session's generation %d", p, err, now.Generation)
	}
	if _, err := st.TakePreview(ctx, "r", "pv_old", at); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Fatalf("the refused preview was kept: %v", err)
	}
}

// ids returns the ids of msgs, in order.
func ids(msgs []kompact.Message) []string {
	out := make([]string, len(msgs))
	for i := range msgs {
		out[i] = msgs[i].ID
	}
	return out
}
