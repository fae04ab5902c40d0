package storetest

import (
	"testing"

	"kompact"
)

// testAppendRetry: an append that committed but whose answer was lost is
// safe to send again. The same messages (every one with its id, the same
// content) while they are still the session's last are answered as the
// append was (its version, its messages, the token figures) and stored
// only once; the same ids with other content, a part of them, or after
// other messages came are a conflict as before (issue 21, item 7).
func testAppendRetry(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "s", Messages: conversation()})
	batch := []kompact.Message{
		msg(kompact.RoleUser, "u-1", "Run the tests."),
		{ID: "a-1", Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.ThinkPart("hm"), kompact.TextPart("They pass.")}},
	}
	first, err := st.AppendMessages(ctx, "s", batch)
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st, "s")
	again, err := st.AppendMessages(ctx, "s", batch)
	if err != nil {
		t.Fatalf("the same append again: %v, want the first answer", err)
	}
	if again.Version != first.Version || !again.UpdatedAt.Equal(first.UpdatedAt) || again.Agent != first.Agent {
		t.Errorf("retry answered version %d at %s, the append %d at %s", again.Version, ts(again.UpdatedAt), first.Version, ts(first.UpdatedAt))
	}
	sameMessages(t, "the retry's messages", again.Messages, first.Messages)
	if (again.Tokens == nil) != (first.Tokens == nil) || (again.Tokens != nil && *again.Tokens != *first.Tokens) || again.Breaker != first.Breaker {
		t.Errorf("retry's tokens %+v %+v, the append's %+v %+v", again.Tokens, again.Breaker, first.Tokens, first.Breaker)
	}
	unchanged(t, "a retried append", before, snapshot(t, st, "s"))

	for _, tc := range []struct {
		what string
		msgs []kompact.Message
	}{
		{"the same ids with other content", []kompact.Message{batch[0], msg(kompact.RoleAssistant, "a-1", "They fail.")}},
		{"the same ids, one role changed", []kompact.Message{msg(kompact.RoleAssistant, "u-1", "Run the tests."), batch[1]}},
		{"a part of the append", batch[:1]},
		{"one of them without its id", []kompact.Message{msg(kompact.RoleUser, "", "Run the tests."), batch[1]}},
	} {
		_, err := st.AppendMessages(ctx, "s", tc.msgs)
		wantCode(t, err, kompact.EConflict, tc.what)
		unchanged(t, tc.what, before, snapshot(t, st, "s"))
	}
	// Once other messages follow, the same append is a conflict.
	appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "Next.")})
	after := snapshot(t, st, "s")
	_, err = st.AppendMessages(ctx, "s", batch)
	wantCode(t, err, kompact.EConflict, "the append again after another")
	unchanged(t, "the append again after another", after, snapshot(t, st, "s"))
}
