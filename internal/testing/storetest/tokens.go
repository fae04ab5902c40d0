package storetest

import (
	"strconv"
	"testing"
	"time"

	"kompact"
	"kompact/kimi"
)

// The token-accounting and breaker cases (issue 12): they run with the rest
// of the suite (see Run).

// text returns n ASCII characters: n/4 tokens by kimi-cli's estimate.
func text(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return string(b)
}

func wantAccount(t *testing.T, st kompact.Store, id, what string, want kompact.TokenAccount) *kompact.StoredSession {
	t.Helper()
	s := get(t, st, id)
	if s.Tokens != want {
		t.Fatalf("%s: token account %+v, want %+v", what, s.Tokens, want)
	}
	return s
}

// testTokens: creating a session counts its messages as pending; each
// append adds its own estimate, rounded down once per call (kimi-cli's
// append_message); SetTokenCount records a figure and resets pending without
// changing the version; a commit records its TokenCount with the messages
// appended after its base as pending; a restore estimates the whole list.
func testTokens(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	first := []kompact.Message{msg(kompact.RoleUser, "", text(10)), msg(kompact.RoleAssistant, "", text(7))}
	s := create(t, st, &kompact.Session{ID: "tok", Agent: "kimi", Messages: first})
	wantAccount(t, st, "tok", "after create", kompact.TokenAccount{PendingTokens: 4}) // 17/4
	if s.Breaker.Paused() {
		t.Fatal("a new session's breaker is open")
	}

	// Three characters are 0 tokens alone, 1 with a second three in one call.
	appendMsgs(t, st, "tok", []kompact.Message{msg(kompact.RoleUser, "", "abc")})
	appendMsgs(t, st, "tok", []kompact.Message{msg(kompact.RoleAssistant, "", "abc"), msg(kompact.RoleUser, "", "abc")})
	before := wantAccount(t, st, "tok", "after two appends", kompact.TokenAccount{PendingTokens: 4 + 0 + 1})

	if err := st.SetTokenCount(ctx, "tok", 1234); err != nil {
		t.Fatal(err)
	}
	after := wantAccount(t, st, "tok", "after SetTokenCount", kompact.TokenAccount{TokenCount: 1234})
	if after.Version != before.Version || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("SetTokenCount changed version %d → %d or updated_at", before.Version, after.Version)
	}
	added, err := st.AppendMessages(ctx, "tok", []kompact.Message{msg(kompact.RoleAssistant, "", text(41))})
	if err != nil {
		t.Fatal(err)
	}
	if added.Tokens == nil || *added.Tokens != (kompact.TokenAccount{TokenCount: 1234, PendingTokens: 10}) {
		t.Fatalf("AppendMessages reported the account %+v, want {1234 10}", added.Tokens)
	}
	cur := wantAccount(t, st, "tok", "after an append", kompact.TokenAccount{TokenCount: 1234, PendingTokens: 10})

	// A commit records the result's figure; a message appended while the
	// compaction ran stays pending.
	c := compaction(t, cur, kimi.Options{MaxPreserved: 1}, "<current_focus>x</current_focus>")
	if c.TokenCount <= 0 {
		t.Fatalf("Result.Commit carries no token count: %+v", c.TokenCount)
	}
	appendMsgs(t, st, "tok", []kompact.Message{msg(kompact.RoleUser, "", text(21))})
	commit(t, st, "tok", c)
	wantAccount(t, st, "tok", "after a commit", kompact.TokenAccount{TokenCount: c.TokenCount, PendingTokens: 5})

	// A restore has no recorded figure: the whole list is pending.
	restored, _ := restore(t, st, "tok", 1)
	wantAccount(t, st, "tok", "after a restore", kompact.TokenAccount{PendingTokens: kompact.EstimateTokens(restored.Messages)})

	// A commit without a figure estimates the whole committed list.
	cur = get(t, st, "tok")
	c = compaction(t, cur, kimi.Options{MaxPreserved: 1}, "summary")
	c.TokenCount = 0
	done, _ := commit(t, st, "tok", c)
	wantAccount(t, st, "tok", "after a commit without a figure", kompact.TokenAccount{PendingTokens: kompact.EstimateTokens(done.Messages)})

	// An automatic compaction can be undone like a manual one; the undo,
	// like a restore, leaves no recorded figure.
	appendMsgs(t, st, "tok", []kompact.Message{msg(kompact.RoleUser, "", "q1"), msg(kompact.RoleAssistant, "", "a1"),
		msg(kompact.RoleUser, "", "q2"), msg(kompact.RoleAssistant, "", "a2")})
	cur = get(t, st, "tok")
	c = compaction(t, cur, kimi.Options{MaxPreserved: 1}, "summary")
	c.Kind = kompact.RevisionAutoCompaction
	_, info := commit(t, st, "tok", c)
	if info.Kind != kompact.RevisionAutoCompaction {
		t.Fatalf("revision kind %q", info.Kind)
	}
	if _, _, err := st.UndoCompaction(ctx, "tok", info.Rev); err != nil {
		t.Fatalf("UndoCompaction of an automatic compaction: %v", err)
	}
	undone := get(t, st, "tok")
	wantAccount(t, st, "tok", "after an undo", kompact.TokenAccount{PendingTokens: kompact.EstimateTokens(undone.Messages)})

	wantCode(t, st.SetTokenCount(ctx, "tok", -1), kompact.EInvalid, "a negative token count")
	wantCode(t, st.SetTokenCount(ctx, "nope", 1), kompact.ENotFound, "SetTokenCount on an unknown session")
}

// testBreaker: automatic failures count per session, across reads, until a
// committed compaction closes the breaker.
func testBreaker(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "b", Agent: "kimi", Messages: conversationWithIDs()})
	create(t, st, &kompact.Session{ID: "other", Agent: "kimi", Messages: conversationWithIDs()})
	before := get(t, st, "b")
	for i := 1; i <= kompact.AutoCompactionFailureLimit; i++ {
		b, err := st.RecordAutoFailure(ctx, "b", kompact.AutoFailure{Status: "error", Code: kompact.ELLM, Message: "fail " + strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		if b.AutoFailures != i {
			t.Fatalf("failure %d: breaker %+v", i, b)
		}
	}
	s := get(t, st, "b")
	if !s.Breaker.Paused() || s.Breaker.AutoFailures != kompact.AutoCompactionFailureLimit {
		t.Fatalf("after %d failures: breaker %+v, want paused", kompact.AutoCompactionFailureLimit, s.Breaker)
	}
	if s.Version != before.Version || !s.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatal("RecordAutoFailure changed the version or updated_at")
	}
	if o := get(t, st, "other"); o.Breaker != (kompact.CompactionBreaker{}) {
		t.Fatalf("another session's breaker moved: %+v", o.Breaker)
	}
	commit(t, st, "b", compaction(t, s, kimi.Options{MaxPreserved: 1}, "summary"))
	if s := get(t, st, "b"); s.Breaker != (kompact.CompactionBreaker{}) {
		t.Fatalf("after a committed compaction: breaker %+v, want closed", s.Breaker)
	}
	// The failure log (issue 39 §5) stays after the commit, oldest first,
	// the newest kompact.MaxAutoFailureLog of them.
	log, err := st.AutoFailureLog(ctx, "b")
	if err != nil || len(log) != kompact.AutoCompactionFailureLimit || log[0].Message != "fail 1" || log[0].Code != kompact.ELLM {
		t.Fatalf("failure log %+v (%v)", log, err)
	}
	at := time.Date(2026, 12, 7, 1, 2, 3, 0, time.UTC)
	for i := 1; i <= kompact.MaxAutoFailureLog; i++ {
		f := kompact.AutoFailure{At: at, Trigger: "precompute", Status: "rejected", Reason: kompact.RefusedMissingSections,
			MissingSections: []string{"code_state"}, Code: kompact.ELLM, Message: "refused " + strconv.Itoa(i)}
		if _, err := st.RecordAutoFailure(ctx, "b", f); err != nil {
			t.Fatal(err)
		}
	}
	log, err = st.AutoFailureLog(ctx, "b")
	if err != nil || len(log) != kompact.MaxAutoFailureLog || log[0].Message != "refused 1" || log[len(log)-1].Message != "refused 20" ||
		!log[0].At.Equal(at) || log[0].Trigger != "precompute" || log[0].Reason != kompact.RefusedMissingSections || len(log[0].MissingSections) != 1 {
		t.Fatalf("failure log after %d more: %+v (%v)", kompact.MaxAutoFailureLog, log, err)
	}
	if log, err := st.AutoFailureLog(ctx, "other"); err != nil || len(log) != 0 {
		t.Fatalf("another session's failure log %+v (%v)", log, err)
	}
	if _, err := st.AutoFailureLog(ctx, "nope"); kompact.ErrorCodeOf(err) != kompact.ENotFound {
		t.Fatalf("AutoFailureLog of an unknown session: %v", err)
	}
	if _, err := st.RecordAutoFailure(ctx, "nope", kompact.AutoFailure{}); err == nil {
		t.Fatal("RecordAutoFailure on an unknown session succeeded")
	} else {
		wantCode(t, err, kompact.ENotFound, "RecordAutoFailure on an unknown session")
	}
}

// conversationWithIDs is conversation() whose messages have ids.
func conversationWithIDs() []kompact.Message {
	msgs := conversation()
	for i := range msgs {
		msgs[i].ID = "c" + string(rune('a'+i))
	}
	return msgs
}
