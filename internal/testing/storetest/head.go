package storetest

import (
	"fmt"
	"strings"
	"testing"

	"kompact"
	"kompact/kimi"
)

// testSessionHead: GetSessionHead is GetSession without the messages, with
// the same token account and breaker, through appends, a commit, a
// restore and an undo (issue 21 §1: routes that need only these read no
// messages).
func testSessionHead(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	check := func(when string) { t.Helper(); sameHead(t, st, "h", when) }
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
		Replacement: []kompact.Message{msg(kompact.RoleUser, "", "summary")}, Kind: kompact.RevisionCompaction, Note: "compacted", Version: s.Version, Generation: s.Generation, TokenCount: 40})
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

// sameHead fails unless GetSessionHead of session id is GetSession without
// the messages, and returns the session GetSession read.
func sameHead(t *testing.T, st kompact.Store, id, when string) *kompact.StoredSession {
	t.Helper()
	whole, err := st.GetSession(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	head, err := st.GetSessionHead(t.Context(), id)
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
	if head.Generation != whole.Generation || head.Generation == 0 {
		t.Errorf("%s: head generation %d, session's %d (never 0)", when, head.Generation, whole.Generation)
	}
	if head.Tokens != whole.Tokens || head.Breaker != whole.Breaker {
		t.Errorf("%s: head tokens %+v breaker %+v, session's %+v %+v", when, head.Tokens, head.Breaker, whole.Tokens, whole.Breaker)
	}
	return whole
}

// testRewrittenFigures: after a restore, an undo and a commit without a
// figure, the whole list is pending (kimi-cli's restore of a context
// without a usage record), and GetSessionHead (which a store answers
// after a restore or an undo from the figure it worked out when it wrote
// the list) gives the figure GetSession gives, on messages whose text the estimate counts in code
// points (non-ASCII text, think parts, media, data parts and tool calls,
// which it leaves out), and sums before it rounds down.
func testRewrittenFigures(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	msgs := append(richMessages(), conversation()...)
	for i := range msgs {
		msgs[i].ID = fmt.Sprintf("r%d", i)
		// Lengths of 1 to 3 code points past a multiple of 4: only a
		// sum of the lengths gives the whole list's estimate.
		msgs[i].Content = append(msgs[i].Content, kompact.TextPart(strings.Repeat("é", 4*i+1+i%3)))
	}
	create(t, st, &kompact.Session{ID: "rf", Agent: "kimi", Messages: msgs})
	pending := func(when string) *kompact.StoredSession {
		t.Helper()
		s := sameHead(t, st, "rf", when)
		if want := (kompact.TokenAccount{PendingTokens: kompact.EstimateTokens(s.Messages)}); s.Tokens != want {
			t.Fatalf("%s: token account %+v, want the whole list's estimate %+v", when, s.Tokens, want)
		}
		return s
	}
	if err := st.SetTokenCount(ctx, "rf", 4321); err != nil {
		t.Fatal(err)
	}
	cur := get(t, st, "rf")
	_, first := commit(t, st, "rf", compaction(t, cur, kimi.Options{MaxPreserved: 2}, "<current_focus>é</current_focus>"))
	restore(t, st, "rf", first.Rev)
	pending("restored")

	appendMsgs(t, st, "rf", []kompact.Message{msg(kompact.RoleUser, "", "ünïcödé and more")})
	cur = get(t, st, "rf")
	c := compaction(t, cur, kimi.Options{MaxPreserved: 3}, "sümmary")
	c.TokenCount = 0
	commit(t, st, "rf", c)
	pending("committed without a figure")

	// A restore of the restore's revision: the list the first restore
	// replaced.
	restore(t, st, "rf", first.Rev+1)
	pending("restored a restore")

	appendMsgs(t, st, "rf", []kompact.Message{msg(kompact.RoleUser, "", "q ü"), msg(kompact.RoleAssistant, "", "a ü"),
		msg(kompact.RoleUser, "", "q é"), msg(kompact.RoleAssistant, "", "a é")})
	cur = get(t, st, "rf")
	c = compaction(t, cur, kimi.Options{MaxPreserved: 2}, "summary é")
	appendMsgs(t, st, "rf", []kompact.Message{msg(kompact.RoleAssistant, "", "appended while it ran: ü")})
	_, info := commit(t, st, "rf", c)
	appendMsgs(t, st, "rf", []kompact.Message{msg(kompact.RoleUser, "", "after it: 中文")})
	if _, _, err := st.UndoCompaction(ctx, "rf", info.Rev); err != nil {
		t.Fatal(err)
	}
	pending("undone")
}

// RunUnknownLengths checks a store's restore and undo of lists holding
// bodies stored before the store kept their text lengths: forget makes
// the bodies of session id such bodies. The restored list's figure is then
// the whole list's estimate all the same, worked out when read.
func RunUnknownLengths(t *testing.T, st kompact.Store, forget func(t *testing.T, id string)) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "old", Agent: "kimi", Messages: conversation()})
	cur := get(t, st, "old")
	_, info := commit(t, st, "old", compaction(t, cur, kimi.Options{MaxPreserved: 2}, "summary"))
	forget(t, "old")
	pending := func(when string) {
		t.Helper()
		s := sameHead(t, st, "old", when)
		if want := (kompact.TokenAccount{PendingTokens: kompact.EstimateTokens(s.Messages)}); s.Tokens != want {
			t.Fatalf("%s: token account %+v, want the whole list's estimate %+v", when, s.Tokens, want)
		}
	}
	restore(t, st, "old", info.Rev)
	pending("restored")
	appendMsgs(t, st, "old", []kompact.Message{msg(kompact.RoleUser, "", "more"), msg(kompact.RoleAssistant, "", "and more")})
	pending("appended")
	_, info = commit(t, st, "old", compaction(t, get(t, st, "old"), kimi.Options{MaxPreserved: 1}, "summary"))
	if _, _, err := st.UndoCompaction(ctx, "old", info.Rev); err != nil {
		t.Fatal(err)
	}
	pending("undone")
}
