package storetest

import (
	"strings"
	"testing"

	"kompact"
)

// testUpdateSettings: a settings change is checked whole before its one
// write. One refused in any field writes none of the others (issue 28 §1:
// a token count was recorded from a change refused for its model); one
// accepted sets all of them at once, the version going up with the model.
func testUpdateSettings(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "s", Agent: "a", CompactionModel: "before", Messages: conversation()})
	n, model, title := 777, "after", "renamed"
	long, longTitle, negative := strings.Repeat("m", 300), strings.Repeat("t", kompact.MaxTitleLen+1), -1
	for _, set := range []kompact.SessionSettings{
		{TokenCount: &n, CompactionModel: &long},
		{TokenCount: &n, Title: &title, CompactionModel: &long},
		{CompactionModel: &model, Title: &longTitle},
		{CompactionModel: &model, TokenCount: &negative},
	} {
		before, tokens := snapshot(t, st, "s"), get(t, st, "s").Tokens
		_, err := st.UpdateSettings(ctx, "s", set)
		wantCode(t, err, kompact.EInvalid, "a settings change refused in part")
		unchanged(t, "a settings change refused in part", before, snapshot(t, st, "s"))
		if now := get(t, st, "s"); now.Tokens != tokens || listSessions(t, st)[0].Title != kompact.DefaultTitle(s.Messages) {
			t.Fatalf("a settings change refused in part wrote: tokens %+v (were %+v), title %q", now.Tokens, tokens, listSessions(t, st)[0].Title)
		}
	}

	info, err := st.UpdateSettings(ctx, "s", kompact.SessionSettings{TokenCount: &n, CompactionModel: &model, Title: &title})
	if err != nil {
		t.Fatal(err)
	}
	now := get(t, st, "s")
	if info.CompactionModel != model || info.Title != title || info.Version != s.Version+1 || now.Version != info.Version ||
		now.Tokens.TokenCount != n || now.Tokens.PendingTokens != 0 {
		t.Fatalf("after the change: %+v, tokens %+v", *info, now.Tokens)
	}
	_, err = st.UpdateSettings(ctx, "nope", kompact.SessionSettings{TokenCount: &n})
	wantCode(t, err, kompact.ENotFound, "settings of no session")
}
