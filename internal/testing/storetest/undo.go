package storetest

import (
	"slices"
	"testing"

	"kompact"
	"kompact/internal/storeutil"
	"kompact/kimi"
)

func undo(t *testing.T, st kompact.Store, id string, rev int64) (*kompact.StoredSession, *kompact.RevisionInfo) {
	t.Helper()
	return byRevision(t, st, id, rev, st.UndoCompaction, "UndoCompaction")
}

// testUndo: undoing a compaction puts exactly the messages it replaced in
// place of its summary and keeps what came after, appended later included;
// it is a revision of its own; a summary removed or changed since is a
// conflict that changes nothing; only compactions can be undone.
func testUndo(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s0 := create(t, st, &kompact.Session{ID: "s", Messages: conversation()})
	s1, _ := commit(t, st, "s", compaction(t, s0, kimi.Options{MaxPreserved: 2}, "summary one"))
	if len(s1.Messages) != 4 {
		t.Fatalf("compacted session: %s", listJSON(s1.Messages))
	}
	s2 := appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "later question"), msg(kompact.RoleAssistant, "", "later answer")})
	later := s2.Messages[len(s1.Messages):]

	// What a full restore of revision 1 would do instead: drop the summary
	// and the later messages, bring back the compacted ones.
	eff := storeutil.EffectOfRestore(s2.Messages, revision(t, st, "s", 1).Before)
	wantDrops := []string{s1.Messages[1].ID, later[0].ID, later[1].ID}
	if !slices.Equal(eff.Drops, wantDrops) || len(eff.Adds) != len(s0.Messages)-3 || eff.Messages != len(s0.Messages) {
		t.Fatalf("restore effect %+v, want drops %v", eff, wantDrops)
	}

	u, info := undo(t, st, "s", 1)
	sameMessages(t, "the undone session", u.Messages, append(slices.Clone(s0.Messages), later...))
	if u.Version != s2.Version+1 || !u.UpdatedAt.After(s2.UpdatedAt) {
		t.Fatalf("after the undo: version %d (was %d)", u.Version, s2.Version)
	}
	sameInfo(t, "undo revision", *info, kompact.RevisionInfo{
		Rev: 2, Kind: kompact.RevisionUndo, Note: info.Note, CreatedAt: info.CreatedAt, Version: u.Version, Messages: len(s2.Messages)})
	checkGet(t, st, u)
	sameMessages(t, "the undo's own revision", revision(t, st, "s", 2).Before, s2.Messages)
	checkIDHistory(t, st, "s")

	// The summary is gone now: undoing again is a conflict.
	before := snapshot(t, st, "s")
	_, _, err := st.UndoCompaction(ctx, "s", 1)
	wantCode(t, err, kompact.EConflict, "undoing a compaction whose summary is gone")
	_, _, err = st.UndoCompaction(ctx, "s", 2)
	wantCode(t, err, kompact.EInvalid, "undoing an undo")
	_, _, err = st.UndoCompaction(ctx, "s", 99)
	wantCode(t, err, kompact.ENotFound, "undoing a missing revision")
	_, _, err = st.UndoCompaction(ctx, "nope", 1)
	wantCode(t, err, kompact.ENotFound, "undoing in a missing session")
	unchanged(t, "failed undos", before, snapshot(t, st, "s"))

	// A range in the middle: the messages before it stay too, and so does
	// a message appended after the compaction.
	c3 := compaction(t, u, kimi.Options{Start: u.Messages[4].ID, End: u.Messages[6].ID}, "summary two")
	s3, info3 := commit(t, st, "s", c3)
	s4 := appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "one more")})
	u2, _ := undo(t, st, "s", info3.Rev)
	sameMessages(t, "undo of a middle range", u2.Messages, append(slices.Clone(u.Messages), s4.Messages[len(s3.Messages):]...))
	checkGet(t, st, u2)
	a := appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "after the undo")})
	checkIDs(t, "appended after the undo", a.Messages)
	checkIDHistory(t, st, "s")

	// Restoring the revision before the undo brings the summary back, and
	// the compaction can be undone again.
	r, _ := restore(t, st, "s", info3.Rev+1)
	sameMessages(t, "restored before the undo", r.Messages, s4.Messages)
	u3, _ := undo(t, st, "s", info3.Rev)
	sameMessages(t, "undo after the restore", u3.Messages, u2.Messages)

	// A summary changed since (a commit that rewrote it under its id) is a
	// conflict.
	c5 := compaction(t, u3, kimi.Options{Start: u3.Messages[4].ID, End: u3.Messages[6].ID}, "summary three")
	s5, info5 := commit(t, st, "s", c5)
	at := slices.IndexFunc(s5.Messages, func(m kompact.Message) bool { return kompact.IsSummary(m) })
	edited := msg(kompact.RoleUser, s5.Messages[at].ID, kompact.SummaryPrefix+"\nedited by someone")
	commit(t, st, "s", kompact.Commit{Base: s5.Messages, End: at + 1,
		Replacement: append(slices.Clone(s5.Messages[:at]), edited), Kind: kompact.RevisionCompaction, Note: "edit", Version: s5.Version, Generation: s5.Generation})
	before = snapshot(t, st, "s")
	_, _, err = st.UndoCompaction(ctx, "s", info5.Rev)
	wantCode(t, err, kompact.EConflict, "undoing a compaction whose summary changed")
	unchanged(t, "undo of a changed summary", before, snapshot(t, st, "s"))
}
