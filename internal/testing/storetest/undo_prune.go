package storetest

import (
	"slices"
	"strings"
	"testing"

	"kompact"
)

// toolSession is a session of three tool exchanges with long outputs, and
// a closing answer; every message has an id.
func toolSession() []kompact.Message {
	msgs := []kompact.Message{msg(kompact.RoleSystem, "ps", "You are a coding agent."), msg(kompact.RoleUser, "pu", "Run the tests.")}
	for _, n := range []string{"1", "2", "3"} {
		msgs = append(msgs,
			kompact.Message{ID: "pa" + n, Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("running " + n)},
				ToolCalls: []kompact.ToolCall{{ID: "call_" + n, Name: "bash", Arguments: ptr(`{"command":"go test ./p` + n + `"}`)}}},
			kompact.Message{ID: "pt" + n, Role: kompact.RoleTool, ToolCallID: "call_" + n, HasToolCallID: true,
				Content: []kompact.Part{kompact.TextPart(strings.Repeat("output "+n+" of p"+n+"/a.go\n", 40))}})
	}
	return append(msgs, msg(kompact.RoleAssistant, "pz", "All done."))
}

// pruneCommit is a prune of s's tool results whose ids are given: each
// text becomes a marker, Base[:End] is replaced row for row.
func pruneCommit(s *kompact.StoredSession, ids ...string) kompact.Commit {
	repl := slices.Clone(s.Messages)
	end := 0
	for i := range repl {
		if slices.Contains(ids, repl[i].ID) {
			repl[i].Content = []kompact.Part{kompact.TextPart("[tool output cleared by kompact: bash]")}
			end = i + 1
		}
	}
	return kompact.Commit{Base: s.Messages, End: end, Replacement: repl[:end], Kind: kompact.RevisionPrune, Note: "pruned",
		Version: s.Version, Generation: s.Generation}
}

// testUndoPrune: a prune revision commits at the version it read (a
// message appended meanwhile stays; a commit that read a session
// rewritten since writes nothing); undoing it puts back exactly the
// outputs it cleared and keeps everything else, appended messages
// included; a cleared result changed or gone since is a conflict that
// changes nothing.
func testUndoPrune(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s0 := create(t, st, &kompact.Session{ID: "p", Messages: toolSession()})
	later := appendMsgs(t, st, "p", []kompact.Message{msg(kompact.RoleUser, "pl", "and then?")}).Messages[len(s0.Messages):]
	c := pruneCommit(s0, "pt1", "pt2")
	s1, info := commit(t, st, "p", c)
	if info.Kind != kompact.RevisionPrune || info.Messages != len(s0.Messages)+1 {
		t.Fatalf("prune revision %+v", *info)
	}
	want := append(append(slices.Clone(c.Replacement), s0.Messages[c.End:]...), later...)
	sameMessages(t, "the pruned session", s1.Messages, want)

	// A second prune that read s0 is stale: the session was rewritten.
	before := snapshot(t, st, "p")
	_, _, err := st.CommitCompaction(ctx, "p", pruneCommit(s0, "pt1"))
	wantCode(t, err, kompact.EConflict, "a stale prune")
	unchanged(t, "a stale prune", before, snapshot(t, st, "p"))

	more := appendMsgs(t, st, "p", []kompact.Message{msg(kompact.RoleAssistant, "pm", "more")})
	u, uinfo := undo(t, st, "p", info.Rev)
	sameMessages(t, "the undone prune", u.Messages, append(append(slices.Clone(s0.Messages), later...), more.Messages[len(s1.Messages):]...))
	if uinfo.Kind != kompact.RevisionUndo || !strings.Contains(uinfo.Note, "undid the prune of revision") {
		t.Errorf("undo revision %+v", *uinfo)
	}
	checkGet(t, st, u) // (a prune keeps its results' ids: checkIDHistory does not hold)

	// Undone, the outputs are no longer the markers: undoing again is a
	// conflict; so is undoing a prune whose result a compaction replaced.
	before = snapshot(t, st, "p")
	_, _, err = st.UndoCompaction(ctx, "p", info.Rev)
	wantCode(t, err, kompact.EConflict, "undoing a prune twice")
	unchanged(t, "a second undo", before, snapshot(t, st, "p"))
	_, pinfo := commit(t, st, "p", pruneCommit(u, "pt3"))
	cur := get(t, st, "p")
	summary := msg(kompact.RoleUser, "", kompact.SummaryPrefix+"\nsummary")
	commit(t, st, "p", kompact.Commit{Base: cur.Messages, End: 9, Replacement: []kompact.Message{cur.Messages[0], summary},
		Kind: kompact.RevisionCompaction, Note: "compacted", Version: cur.Version, Generation: cur.Generation})
	before = snapshot(t, st, "p")
	_, _, err = st.UndoCompaction(ctx, "p", pinfo.Rev)
	wantCode(t, err, kompact.EConflict, "undoing a prune whose result was compacted")
	unchanged(t, "undoing a prune whose result was compacted", before, snapshot(t, st, "p"))
}
