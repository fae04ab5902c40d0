package storetest

import (
	"slices"
	"testing"

	"kompact"
)

// kimiCodeCommit is the commit of a kimi-code compaction of the whole of s (kimicode's
// result, by hand: storetest does not link the type): the system message kept, the type's
// own messages before the summary (a kept user message, an elision note: Span.Leading),
// the summary, the pinned messages pins (indexes of s) written again, and the
// continuation note (Span.Trailing).
func kimiCodeCommit(s *kompact.StoredSession, pins ...int) kompact.Commit {
	repl := []kompact.Message{s.Messages[0], msg(kompact.RoleUser, "", "Fix the failing test.\n\nRun the tests."),
		msg(kompact.RoleUser, "", "(elided)"), msg(kompact.RoleUser, "", kompact.SummaryPrefix+"\nThe test passes now.")}
	for _, i := range pins {
		repl = append(repl, s.Messages[i])
	}
	repl = append(repl, msg(kompact.RoleUser, "", "<system-reminder>\nGo on.\n</system-reminder>"))
	return kompact.Commit{Base: s.Messages, End: len(s.Messages), Replacement: repl, Kind: kompact.RevisionCompaction,
		Version: s.Version, Generation: s.Generation, Note: "compacted the Kimi Code way"}
}

// testUndoKimiCode: the undo of a kimi-code compaction, which wrote several new messages
// around its summary (kompact.Span's Leading and Trailing), puts back exactly the messages
// it replaced, byte for byte, and keeps what was appended after it; with pinned messages
// among its own too. A second undo, or one after its messages changed, is a conflict that
// changes nothing.
func testUndoKimiCode(t *testing.T, st kompact.Store) {
	s0 := create(t, st, &kompact.Session{ID: "kc", Messages: conversation()})
	s1, _ := commit(t, st, "kc", kimiCodeCommit(s0))
	if len(s1.Messages) != 5 {
		t.Fatalf("compacted session: %s", listJSON(s1.Messages))
	}
	s2 := appendMsgs(t, st, "kc", []kompact.Message{msg(kompact.RoleUser, "", "later question"), msg(kompact.RoleAssistant, "", "later answer")})
	later := s2.Messages[len(s1.Messages):]
	u, info := undo(t, st, "kc", 1)
	sameMessages(t, "the undone session", u.Messages, append(slices.Clone(s0.Messages), later...))
	if info.Kind != kompact.RevisionUndo || info.Note != "undid the compaction of revision 1 (8 messages back)" {
		t.Errorf("the undo's revision: %+v", info)
	}
	checkGet(t, st, u)
	checkIDHistory(t, st, "kc")
	before := snapshot(t, st, "kc")
	_, _, err := st.UndoCompaction(t.Context(), "kc", 1)
	wantCode(t, err, kompact.EConflict, "undoing a kimi-code compaction twice")
	unchanged(t, "a second undo", before, snapshot(t, st, "kc"))

	// With the tool call and its result pinned: written again between the summary and the
	// continuation note; the undo puts them back in their places.
	s3 := get(t, st, "kc")
	c := kimiCodeCommit(s3, 2, 3)
	c.End = len(s0.Messages)
	s4, info4 := commit(t, st, "kc", c)
	if got := []string{s4.Messages[4].ID, s4.Messages[5].ID}; !slices.Equal(got, []string{s3.Messages[2].ID, s3.Messages[3].ID}) {
		t.Fatalf("the pinned messages after the summary: %s", listJSON(s4.Messages))
	}
	s5 := appendMsgs(t, st, "kc", []kompact.Message{msg(kompact.RoleUser, "", "one more")})
	u2, info5 := undo(t, st, "kc", info4.Rev)
	sameMessages(t, "the undone session with pins", u2.Messages, append(slices.Clone(s3.Messages), s5.Messages[len(s4.Messages):]...))
	if info5.Note != "undid the compaction of revision 3 (6 messages back)" {
		t.Errorf("the undo's note: %q", info5.Note)
	}
	checkGet(t, st, u2)
	checkIDHistory(t, st, "kc")

	// Restored to before that undo, the compaction is there again; once its continuation
	// note is gone (a later compaction keeping it out), undoing it is a conflict.
	r, _ := restore(t, st, "kc", info5.Rev)
	sameMessages(t, "restored before the undo", r.Messages, s5.Messages)
	c = kompact.Commit{Base: r.Messages, End: len(r.Messages), Replacement: append(slices.Clone(r.Messages[:6]), msg(kompact.RoleUser, "", "another")),
		Kind: kompact.RevisionCompaction, Version: r.Version, Generation: r.Generation, Note: "another"}
	commit(t, st, "kc", c)
	before = snapshot(t, st, "kc")
	_, _, err = st.UndoCompaction(t.Context(), "kc", info4.Rev)
	wantCode(t, err, kompact.EConflict, "undoing a kimi-code compaction whose continuation note is gone")
	unchanged(t, "a refused undo", before, snapshot(t, st, "kc"))
}
