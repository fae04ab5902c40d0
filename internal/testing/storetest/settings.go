package storetest

import (
	"strings"
	"testing"

	"kompact"
	"kompact/internal/title"
	"kompact/kimi"
)

// testUpdateSettings: a settings change is checked whole before its one
// write. One refused in any field writes none of the others (issue 28 §1:
// a token count was recorded from a change refused for its model); one
// accepted sets all of them at once, the version going up with the model.
func testUpdateSettings(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "s", Agent: "a", CompactionModel: "before", Messages: conversation()})
	n, model, renamed := 777, "after", "renamed"
	long, longTitle, negative := strings.Repeat("m", 300), strings.Repeat("t", kompact.MaxTitleLen+1), -1
	longInstr, focus := strings.Repeat("é", kompact.MaxInstructionsLen+1), "Keep the schema."
	for _, set := range []kompact.SessionSettings{
		{TokenCount: &n, CompactionModel: &model, Instructions: &longInstr},
		{TokenCount: &n, CompactionModel: &long},
		{TokenCount: &n, Title: &renamed, CompactionModel: &long},
		{CompactionModel: &model, Title: &longTitle},
		{CompactionModel: &model, TokenCount: &negative},
	} {
		before, tokens := snapshot(t, st, "s"), get(t, st, "s").Tokens
		_, err := st.UpdateSettings(ctx, "s", set)
		wantCode(t, err, kompact.EInvalid, "a settings change refused in part")
		unchanged(t, "a settings change refused in part", before, snapshot(t, st, "s"))
		if now := get(t, st, "s"); now.Tokens != tokens || listSessions(t, st)[0].Title != title.DefaultTitle(s.Messages) {
			t.Fatalf("a settings change refused in part wrote: tokens %+v (were %+v), title %q", now.Tokens, tokens, listSessions(t, st)[0].Title)
		}
	}

	info, err := st.UpdateSettings(ctx, "s", kompact.SessionSettings{TokenCount: &n, CompactionModel: &model, Title: &renamed})
	if err != nil {
		t.Fatal(err)
	}
	now := get(t, st, "s")
	if info.CompactionModel != model || info.Title != renamed || info.Version != s.Version+1 || now.Version != info.Version ||
		now.Tokens.TokenCount != n || now.Tokens.PendingTokens != 0 {
		t.Fatalf("after the change: %+v, tokens %+v", *info, now.Tokens)
	}
	_, err = st.UpdateSettings(ctx, "nope", kompact.SessionSettings{TokenCount: &n})
	wantCode(t, err, kompact.ENotFound, "settings of no session")
	testInstructions(t, st, focus)
}

// testInstructions: a session's standing instructions (issue 33 §2) are
// stored with it, as its compaction model is: set (the version goes up,
// as a compaction would now ask otherwise), read back by every read of the
// session and its description, kept by a commit, and cleared with "".
func testInstructions(t *testing.T, st kompact.Store, focus string) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "i", Agent: "a", Messages: conversation()})
	if got := get(t, st, "i").Instructions; got != "" {
		t.Fatalf("a new session has instructions %q", got)
	}
	multi := focus + "\n\nAnd the flags ✓."
	info, err := st.UpdateSettings(ctx, "i", kompact.SessionSettings{Instructions: &multi})
	if err != nil {
		t.Fatal(err)
	}
	head, err := st.GetSessionHead(ctx, "i")
	if err != nil {
		t.Fatal(err)
	}
	var listed string
	for _, in := range listSessions(t, st) {
		if in.ID == "i" {
			listed = in.Instructions
		}
	}
	if info.Instructions != multi || info.Version != s.Version+1 || get(t, st, "i").Instructions != multi || head.Instructions != multi || listed != multi {
		t.Fatalf("after setting: info %+v, session %q, head %q, listed %q", *info, get(t, st, "i").Instructions, head.Instructions, listed)
	}
	var streamed string
	if err := st.StreamSession(ctx, "i", func(h *kompact.StoredSession) error { streamed = h.Instructions; return nil }, func([]byte) error { return nil }); err != nil || streamed != multi {
		t.Fatalf("streamed head: %q, %v", streamed, err)
	}
	if after, _ := commit(t, st, "i", compaction(t, get(t, st, "i"), kimi.Options{MaxPreserved: 2}, "summary")); after.Instructions != multi {
		t.Fatalf("after a compaction: %q", after.Instructions)
	}
	empty := ""
	if info, err = st.UpdateSettings(ctx, "i", kompact.SessionSettings{Instructions: &empty}); err != nil || info.Instructions != "" || get(t, st, "i").Instructions != "" {
		t.Fatalf("after clearing: %+v, %v", info, err)
	}
}

// testUpdateSettingsAt: a change made at a session's generation and
// version (SessionSettings.At, how the gateway records an upstream's token
// count) is refused with EConflict, writing nothing, once the session was
// written since or is another session under the same id; at the session's
// own generation and version it is made.
func testUpdateSettingsAt(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "s", Agent: "a", Messages: conversation()})
	head, err := st.GetSessionHead(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	n := 4242
	for name, at := range map[string]kompact.SessionAt{
		"an older version":   {Generation: head.Generation, Version: head.Version - 1},
		"another generation": {Generation: head.Generation + 1, Version: head.Version},
	} {
		before, tokens := snapshot(t, st, "s"), get(t, st, "s").Tokens
		_, err := st.UpdateSettings(ctx, "s", kompact.SessionSettings{TokenCount: &n, At: &at})
		wantCode(t, err, kompact.EConflict, "a token count at "+name)
		unchanged(t, "a token count at "+name, before, snapshot(t, st, "s"))
		if now := get(t, st, "s").Tokens; now != tokens {
			t.Fatalf("a token count at %s was recorded: %+v (was %+v)", name, now, tokens)
		}
	}

	// Deleted and created again: the same version, another session.
	if err := st.DeleteSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	create(t, st, &kompact.Session{ID: "s", Agent: "a", Messages: conversation()})
	_, err = st.UpdateSettings(ctx, "s", kompact.SessionSettings{TokenCount: &n, At: &kompact.SessionAt{Generation: head.Generation, Version: head.Version}})
	wantCode(t, err, kompact.EConflict, "a token count for the session deleted and created again")
	if now := get(t, st, "s").Tokens; now.TokenCount == n {
		t.Fatalf("a token count for the deleted session was recorded in the new one: %+v", now)
	}

	head, err = st.GetSessionHead(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateSettings(ctx, "s", kompact.SessionSettings{TokenCount: &n, At: &kompact.SessionAt{Generation: head.Generation, Version: head.Version}}); err != nil {
		t.Fatal(err)
	}
	if now := get(t, st, "s").Tokens; now.TokenCount != n || now.PendingTokens != 0 {
		t.Fatalf("a token count at the session's own version: %+v", now)
	}
}
