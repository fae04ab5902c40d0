package sqlite

import (
	"path/filepath"
	"testing"

	"kompact"
	"kompact/internal/testing/storetest"
)

// TestTokensOfExistingSessions: a session stored before migration 0004 has
// no recorded figure (pending_tokens -1): it reads as kimi-cli restores a
// context without a usage record (the whole list pending), appends report
// no account until a figure is recorded, and then count as usual.
func TestTokensOfExistingSessions(t *testing.T) {
	ctx := t.Context()
	st := openAt(t, filepath.Join(t.TempDir(), "kompact.db"))
	msgs := []kompact.Message{
		{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("abcdefgh")}},
		{Role: kompact.RoleAssistant, Content: []kompact.Part{kompact.TextPart("abcd")}},
	}
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "old", Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `UPDATE sessions SET pending_tokens = -1 WHERE id = 'old'`); err != nil {
		t.Fatal(err)
	}
	s, err := st.GetSession(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if s.Tokens != (kompact.TokenAccount{PendingTokens: 3}) {
		t.Fatalf("existing session: %+v, want the whole list's estimate 3", s.Tokens)
	}
	added, err := st.AppendMessages(ctx, "old", []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("abcd")}}})
	if err != nil {
		t.Fatal(err)
	}
	if added.Tokens != nil {
		t.Fatalf("append to an existing session reported %+v, want none", *added.Tokens)
	}
	if s, _ := st.GetSession(ctx, "old"); s.Tokens != (kompact.TokenAccount{PendingTokens: 4}) {
		t.Fatalf("after the append: %+v, want the whole list's estimate 4", s.Tokens)
	}
	if err := st.SetTokenCount(ctx, "old", 500); err != nil {
		t.Fatal(err)
	}
	added, err = st.AppendMessages(ctx, "old", []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart("abcdefgh")}}})
	if err != nil {
		t.Fatal(err)
	}
	if added.Tokens == nil || *added.Tokens != (kompact.TokenAccount{TokenCount: 500, PendingTokens: 2}) {
		t.Fatalf("after a recorded figure, the append reported %+v, want {500 2}", added.Tokens)
	}
}

// TestUnknownTextLengths: bodies stored before migration 0009 have no
// text length; a restore or an undo to a list holding one leaves its
// estimate to the read.
func TestUnknownTextLengths(t *testing.T) {
	st := openAt(t, filepath.Join(t.TempDir(), "kompact.db"))
	storetest.RunUnknownLengths(t, st, func(t *testing.T, id string) {
		if _, err := st.w.ExecContext(t.Context(), `DELETE FROM body_lengths WHERE body_id IN (SELECT id FROM bodies WHERE session_id = ?)`, id); err != nil {
			t.Fatal(err)
		}
	})
}
