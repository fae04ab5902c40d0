package storetest

import (
	"slices"
	"testing"

	"kompact"
)

// testPinned: a session's pinned messages (issue 33 §1) are stored with
// it. A new session's refs (ids, or #N) become the ids its messages are
// stored with, and one that names no message refuses the session; the
// settings replace the list with ids of live messages only (the version
// goes up; an unknown id, or more than kompact.MaxPinned, is EInvalid and
// writes nothing); every read gives them back; a commit that keeps the
// pinned messages after its summary keeps their ids, and its undo brings
// back the session as it was.
func testPinned(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	_, err := st.CreateSession(ctx, &kompact.Session{ID: "x", Messages: conversation(), Pinned: []string{"nope"}})
	wantCode(t, err, kompact.EInvalid, "a session pinning no message")
	if _, err := st.GetSession(ctx, "x"); err == nil {
		t.Fatal("a refused session was stored")
	}
	s := create(t, st, &kompact.Session{ID: "p", Messages: conversation(), Pinned: []string{"#4", "#4"}})
	tool := s.Messages[3].ID
	if !slices.Equal(s.Pinned, []string{tool}) {
		t.Fatalf("pinned %q, want [%q]", s.Pinned, tool)
	}
	call := s.Messages[2].ID
	pins := []string{call, tool}
	info, err := st.UpdateSettings(ctx, "p", kompact.SessionSettings{Pinned: &pins})
	if err != nil || !slices.Equal(info.Pinned, pins) || info.Version != s.Version+1 {
		t.Fatalf("after pinning: %+v, %v", info, err)
	}
	head, err := st.GetSessionHead(ctx, "p")
	if err != nil || !slices.Equal(head.Pinned, pins) || !slices.Equal(get(t, st, "p").Pinned, pins) {
		t.Fatalf("head pinned %q (%v), session %q", head.Pinned, err, get(t, st, "p").Pinned)
	}
	before := snapshot(t, st, "p")
	for _, bad := range [][]string{{call, "m_999"}, make([]string, kompact.MaxPinned+1)} {
		_, err = st.UpdateSettings(ctx, "p", kompact.SessionSettings{Pinned: &bad})
		wantCode(t, err, kompact.EInvalid, "pinning no message")
		unchanged(t, "a refused pin", before, snapshot(t, st, "p"))
	}

	// A compaction keeping the exchange after its summary.
	s = get(t, st, "p")
	summary := msg(kompact.RoleUser, "", kompact.SummaryPrefix+"\nsummary")
	c := kompact.Commit{Base: s.Messages, End: 7, Replacement: []kompact.Message{s.Messages[0], summary, s.Messages[2], s.Messages[3]},
		Version: s.Version, Generation: s.Generation, Note: "compacted 4 messages, 2 pinned messages kept"}
	after, _ := commit(t, st, "p", c)
	if got := []string{after.Messages[2].ID, after.Messages[3].ID}; !slices.Equal(got, pins) || !slices.Equal(after.Pinned, pins) {
		t.Fatalf("after the commit: messages %q, pinned %q", got, after.Pinned)
	}
	sameMessages(t, "the kept pinned messages", after.Messages[2:4], s.Messages[2:4])
	u, _ := undo(t, st, "p", 1)
	sameMessages(t, "the undone session", u.Messages, s.Messages)
	checkIDHistory(t, st, "p")

	none := []string{}
	if info, err = st.UpdateSettings(ctx, "p", kompact.SessionSettings{Pinned: &none}); err != nil || info.Pinned != nil || get(t, st, "p").Pinned != nil {
		t.Fatalf("after unpinning: %+v, %v", info, err)
	}

	// An import's refs are resolved as its batches go by.
	batches := [][]kompact.Message{conversation()[:3], conversation()[3:]}
	in, err := st.ImportSession(ctx, &kompact.Session{ID: "i", Pinned: []string{"#5"}}, func() ([]kompact.Message, error) {
		if len(batches) == 0 {
			return nil, nil
		}
		b := batches[0]
		batches = batches[1:]
		return b, nil
	})
	if err != nil || !slices.Equal(in.Pinned, []string{get(t, st, "i").Messages[4].ID}) {
		t.Fatalf("imported: %+v, %v", in, err)
	}
}
