package storetest

import (
	"bytes"
	"testing"

	"kompact"
	"kompact/kimi"
)

// kimiSession is a kimi-cli session as an import makes it: its system
// prompt message, the conversation's other messages, and the file's
// metadata lines at their places.
func kimiSession() *kompact.Session {
	msgs := conversation()
	return &kompact.Session{ID: "k", Messages: msgs, Kimi: &kompact.KimiContext{SystemPrompt: true, Records: []kompact.KimiRecord{
		{At: 1, Line: kompact.KimiSystemPromptLine(msgs[0].Content[0].Text)},
		{At: 1, Line: kompact.KimiCheckpointLine(0)},
		{At: 4, Line: kompact.KimiUsageLine(1234)},
		{At: 5, Line: `{"role": "_checkpoint", "id": 1}`},
		{At: len(msgs), Line: `{"role":"_usage","token_count":99}`},
	}}}
}

func kimiJSON(k *kompact.KimiContext) string {
	if k == nil {
		return "null"
	}
	return string(k.AppendJSON(nil))
}

func sameKimi(t *testing.T, what string, got, want *kompact.KimiContext) {
	t.Helper()
	if g, w := kimiJSON(got), kimiJSON(want); g != w {
		t.Fatalf("%s: kimi-cli context\n got %s\nwant %s", what, g, w)
	}
}

// testKimi: a kimi-cli session's context (its file's metadata lines) is
// stored as given and read back by GetSession and StreamSession; appends
// leave it; a commit that brings one replaces it, and the revision keeps
// the one before, which a restore and an undo put back; a commit without
// one leaves it; a kompact session has none; a context that does not fit
// the messages is refused.
func testKimi(t *testing.T, st kompact.Store) {
	in := kimiSession()
	s0 := create(t, st, in)
	sameKimi(t, "GetSession", s0.Kimi, in.Kimi)
	var streamed *kompact.KimiContext
	if err := st.StreamSession(t.Context(), "k", func(h *kompact.StoredSession) error {
		streamed = h.Kimi
		return nil
	}, func([]byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	sameKimi(t, "StreamSession", streamed, in.Kimi)
	// The token figures are kimi-cli's restored ones: the last _usage
	// line's count, and the estimate of the messages after it.
	if want := (kompact.TokenAccount{TokenCount: 99}); s0.Tokens != want {
		t.Fatalf("tokens after the import %+v, want %+v", s0.Tokens, want)
	}
	mid := kimiSession()
	mid.ID, mid.Kimi.Records = "k2", mid.Kimi.Records[:3]
	if got, want := create(t, st, mid).Tokens, (kompact.TokenAccount{TokenCount: 1234, PendingTokens: kompact.EstimateTokens(mid.Messages[4:])}); got != want {
		t.Fatalf("tokens of a file whose last _usage has messages after it: %+v, want %+v", got, want)
	}
	if plain := create(t, st, &kompact.Session{ID: "plain", Messages: conversation()}); plain.Kimi != nil {
		t.Fatalf("a kompact session has a kimi-cli context: %s", kimiJSON(plain.Kimi))
	}

	s1 := appendMsgs(t, st, "k", []kompact.Message{msg(kompact.RoleUser, "", "more"), msg(kompact.RoleAssistant, "", "yes")})
	sameKimi(t, "after an append", s1.Kimi, in.Kimi)

	// A compaction writes kimi-cli's form: the summary in two parts, then
	// checkpoint 0 and its _usage (what kimi-cli writes after /compact).
	c := compaction(t, s1, kimi.Options{MaxPreserved: 2}, "<current_focus>x</current_focus>")
	if c.Kimi == nil || len(c.Replacement) != 2 || len(c.Replacement[1].Content) != 2 {
		t.Fatalf("a kimi-cli session's commit: %+v", c)
	}
	s2, info := commit(t, st, "k", c)
	sameKimi(t, "after the compaction", s2.Kimi, c.Kimi)
	if s2.Tokens.TokenCount != c.TokenCount || c.TokenCount <= 0 {
		t.Fatalf("tokens after the compaction %+v, want the commit's %d", s2.Tokens, c.TokenCount)
	}
	if !bytes.Contains([]byte(kimiJSON(s2.Kimi)), []byte(`_checkpoint\", \"id\": 0`)) {
		t.Fatalf("compacted context %s", kimiJSON(s2.Kimi))
	}
	s3 := appendMsgs(t, st, "k", []kompact.Message{msg(kompact.RoleUser, "", "after")})

	// Undo: the compaction's records go, the ones it replaced come back.
	u, _ := undo(t, st, "k", info.Rev)
	sameKimi(t, "after the undo", u.Kimi, in.Kimi)
	if len(u.Messages) != len(s3.Messages)-1+c.End-(len(c.Replacement)-1) {
		t.Fatalf("undone session: %s", listJSON(u.Messages))
	}
	// Restore of the compaction's revision: the context it replaced; of
	// the undo's: the compacted one.
	r1, _ := restore(t, st, "k", info.Rev)
	sameKimi(t, "after restoring the compaction's revision", r1.Kimi, in.Kimi)
	r2, _ := restore(t, st, "k", info.Rev+1)
	sameKimi(t, "after restoring the undo's revision", r2.Kimi, c.Kimi)

	// A commit without a context leaves the session's.
	plainCommit := compaction(t, r2, kimi.Options{MaxPreserved: 1}, "again")
	plainCommit.Kimi = nil
	s4, _ := commit(t, st, "k", plainCommit)
	sameKimi(t, "after a commit without a context", s4.Kimi, c.Kimi)

	for name, k := range map[string]*kompact.KimiContext{
		"a record beyond the messages": {Records: []kompact.KimiRecord{{At: 99, Line: "{}"}}},
		"records out of order":         {Records: []kompact.KimiRecord{{At: 2, Line: "{}"}, {At: 1, Line: "{}"}}},
		"a record of two lines":        {Records: []kompact.KimiRecord{{At: 0, Line: "{}\n{}"}}},
		"a system prompt of no system": {SystemPrompt: true, Records: []kompact.KimiRecord{}},
	} {
		_, err := st.CreateSession(t.Context(), &kompact.Session{Messages: conversation()[1:], Kimi: k})
		wantCode(t, err, kompact.EInvalid, "a session with "+name)
	}
}
