package storetest

import (
	"fmt"
	"testing"

	"kompact"
	"kompact/kimi"
)

// Retention is what the retention test needs from a store: a new, empty
// store that keeps the newest keep revisions of a session, and the number
// of message bodies it holds for a session.
type Retention struct {
	Open   func(t *testing.T, keep int) kompact.Store
	Bodies func(t *testing.T, st kompact.Store, session string) int
}

// RunRetention checks revision retention: a store keeping 3 revisions
// compacts, appends and restores a session; after every commit it holds
// the newest 3 revisions, each still reading back as the list the session
// had, and exactly the bodies the session and those revisions refer to.
func RunRetention(t *testing.T, r Retention) {
	const keep = 3
	st := r.Open(t, keep)
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	cur := create(t, st, &kompact.Session{ID: "s", Messages: conversation()})
	before := map[int64][]kompact.Message{} // each revision's list
	check := func(step string) {
		t.Helper()
		revs := revisions(t, st, "s")
		if len(revs) > keep {
			t.Fatalf("%s: %d revisions kept, want at most %d", step, len(revs), keep)
		}
		distinct := map[string]bool{}
		for i := range cur.Messages {
			distinct[jsonOf(&cur.Messages[i])] = true
		}
		for i, info := range revs {
			if i > 0 && info.Rev != revs[i-1].Rev-1 {
				t.Fatalf("%s: revisions %d and %d kept, not the newest in a row", step, revs[i-1].Rev, info.Rev)
			}
			got := revision(t, st, "s", info.Rev)
			sameMessages(t, fmt.Sprintf("%s: revision %d", step, info.Rev), got.Before, before[info.Rev])
			for j := range got.Before {
				distinct[jsonOf(&got.Before[j])] = true
			}
		}
		if n := r.Bodies(t, st, "s"); n != len(distinct) {
			t.Fatalf("%s: the store holds %d bodies for the session, want %d (the distinct messages of the session and its revisions)", step, n, len(distinct))
		}
		checkGet(t, st, cur)
	}
	for i := range 6 {
		var more []kompact.Message
		for j := range 4 {
			more = append(more, msg(kompact.RoleUser, "", fmt.Sprintf("turn %d.%d", i, j)))
		}
		cur = appendMsgs(t, st, "s", more)
		c := compaction(t, cur, kimi.Options{MaxPreserved: 2}, fmt.Sprint("summary ", i))
		prev := cur
		var info *kompact.RevisionInfo
		cur, info = commit(t, st, "s", c)
		before[info.Rev] = prev.Messages
		check(fmt.Sprint("compaction ", i))
	}
	// Restoring the oldest kept revision brings back bodies its list holds;
	// the restore's own revision prunes one more.
	oldest := revisions(t, st, "s")[keep-1].Rev
	prev := cur
	var info *kompact.RevisionInfo
	cur, info = restore(t, st, "s", oldest)
	before[info.Rev] = prev.Messages
	sameMessages(t, "the restored session", cur.Messages, before[oldest])
	check("restore")
}
