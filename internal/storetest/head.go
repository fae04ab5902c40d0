package storetest

import (
	"testing"

	"kompact"
)

// testSessionHead: GetSessionHead is GetSession without the messages, with
// the same token account and breaker, through appends, a commit, a
// restore and an undo (issue 21 §1: routes that need only these read no
// messages).
func testSessionHead(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	check := func(when string) {
		t.Helper()
		whole, err := st.GetSession(ctx, "h")
		if err != nil {
			t.Fatal(err)
		}
		head, err := st.GetSessionHead(ctx, "h")
		if err != nil {
			t.Fatalf("%s: GetSessionHead: %v", when, err)
		}
		if head.Messages != nil {
			t.Errorf("%s: the head holds %d messages", when, len(head.Messages))
		}
		if head.ID != whole.ID || head.Agent != whole.Agent || head.CompactionModel != whole.CompactionModel ||
			head.Version != whole.Version || !head.CreatedAt.Equal(whole.CreatedAt) || !head.UpdatedAt.Equal(whole.UpdatedAt) {
			t.Errorf("%s: head %+v, session %+v", when, head.Session, whole.Session)
		}
		if head.Rewritten != whole.Rewritten || head.Gateway != whole.Gateway || head.Rewritten < 1 {
			t.Errorf("%s: head rewritten %d gateway %v, session's %d %v", when, head.Rewritten, head.Gateway, whole.Rewritten, whole.Gateway)
		}
		if head.Tokens != whole.Tokens || head.Breaker != whole.Breaker {
			t.Errorf("%s: head tokens %+v breaker %+v, session's %+v %+v", when, head.Tokens, head.Breaker, whole.Tokens, whole.Breaker)
		}
	}
	s := create(t, st, &kompact.Session{ID: "h", Agent: "a", CompactionModel: "m", Messages: conversation()})
	check("created")
	if _, err := st.AppendMessages(ctx, "h", []kompact.Message{msg(kompact.RoleUser, "", "one more")}); err != nil {
		t.Fatal(err)
	}
	check("appended")
	if err := st.SetTokenCount(ctx, "h", 1234); err != nil {
		t.Fatal(err)
	}
	check("a recorded figure")
	_, info := commit(t, st, "h", kompact.Commit{Base: s.Messages, End: 2,
		Replacement: []kompact.Message{msg(kompact.RoleUser, "", "summary")}, Kind: kompact.RevisionCompaction, Note: "compacted", Version: s.Version, TokenCount: 40})
	check("committed")
	restore(t, st, "h", info.Rev)
	check("restored")
	cur, err := st.GetSession(ctx, "h")
	if err != nil {
		t.Fatal(err)
	}
	_, info = commit(t, st, "h", kompact.Commit{Base: cur.Messages, End: 2,
		Replacement: []kompact.Message{msg(kompact.RoleUser, "", "summary 2")}, Kind: kompact.RevisionCompaction, Note: "compacted"})
	if _, _, err := st.UndoCompaction(ctx, "h", info.Rev); err != nil {
		t.Fatal(err)
	}
	check("undone")
}
