package storetest

import (
	"reflect"
	"slices"
	"testing"

	"kompact"
	"kompact/internal/storeutil"
	"kompact/kimi"
)

// testPreviewRestore: PreviewRestore is EffectOfRestore of the session's
// messages and the revision's, with the revision and the session's
// version, through appends, a compaction and a restore; a message whose
// id comes back with other content is dropped and added, one that comes
// back with the same JSON under a new body is neither; unknown sessions
// and revisions are ENotFound.
func testPreviewRestore(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	check := func(when string, rev int64) kompact.RestoreEffect {
		t.Helper()
		got, err := st.PreviewRestore(ctx, "p", rev)
		if err != nil {
			t.Fatalf("%s: PreviewRestore: %v", when, err)
		}
		cur, old := get(t, st, "p"), revision(t, st, "p", rev)
		want := kompact.RestorePreview{Effect: storeutil.EffectOfRestore(cur.Messages, old.Before), Revision: old.RevisionInfo, Version: cur.Version}
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("%s: PreviewRestore %+v, want %+v", when, *got, want)
		}
		return got.Effect
	}
	s0 := create(t, st, &kompact.Session{ID: "p", Messages: conversationWithIDs()})
	commit(t, st, "p", compaction(t, s0, kimi.Options{MaxPreserved: 2}, "summary"))
	check("compacted", 1)

	// "cb" comes back with other content, "cc" with the same.
	again := s0.Messages[2]
	appendMsgs(t, st, "p", []kompact.Message{msg(kompact.RoleUser, "cb", "other content"), again})
	eff := check("appended", 1)
	if !slices.Contains(eff.Drops, "cb") || !slices.Contains(eff.Adds, "cb") || slices.Contains(eff.Drops, "cc") || slices.Contains(eff.Adds, "cc") {
		t.Fatalf("effect %+v: want cb dropped and added, cc neither", eff)
	}
	_, info := restore(t, st, "p", 1)
	check("restored", 1)
	check("restored, its own revision", info.Rev)

	_, err := st.PreviewRestore(ctx, "p", 99)
	wantCode(t, err, kompact.ENotFound, "previewing a missing revision")
	_, err = st.PreviewRestore(ctx, "nope", 1)
	wantCode(t, err, kompact.ENotFound, "previewing in a missing session")
}
