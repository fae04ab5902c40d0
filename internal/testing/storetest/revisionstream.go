package storetest

import (
	"testing"

	"kompact"
	"kompact/kimi"
)

// testStreamRevision: StreamRevision gives a revision's description, as
// ListRevisions does, then each message of its list in stored form, exactly
// Message.AppendJSON of the session's messages before the change, in order,
// for a compaction's revision and a restore's; an unknown session or revision is ENotFound
// before head is called; an error from body ends the read and comes back
// (issue 29: the revision GET streams).
func testStreamRevision(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "sr", Agent: "kimi", Messages: append(conversation(), richMessages()...)})
	before := [][]kompact.Message{get(t, st, "sr").Messages}
	commit(t, st, "sr", compaction(t, get(t, st, "sr"), kimi.Options{MaxPreserved: 2}, "S"))
	before = append(before, get(t, st, "sr").Messages)
	if _, _, err := st.RestoreRevision(ctx, "sr", 1); err != nil {
		t.Fatalf("RestoreRevision: %v", err)
	}
	infos := map[int64]kompact.RevisionInfo{}
	for _, info := range revisions(t, st, "sr") {
		infos[info.Rev] = info
	}
	for _, rev := range []int64{1, 2} {
		want := kompact.Revision{RevisionInfo: infos[rev], Before: before[rev-1]}
		var head *kompact.RevisionInfo
		var bodies []string
		err := st.StreamRevision(ctx, "sr", rev, func(info *kompact.RevisionInfo) error {
			head = info
			return nil
		}, func(b []byte) error {
			bodies = append(bodies, string(b))
			return nil
		})
		if err != nil {
			t.Fatalf("StreamRevision(%d): %v", rev, err)
		}
		if head == nil {
			t.Fatalf("StreamRevision(%d) called no head", rev)
		}
		sameInfo(t, "StreamRevision's head", *head, want.RevisionInfo)
		if len(bodies) != len(want.Before) || len(bodies) == 0 {
			t.Fatalf("revision %d: %d bodies, want %d", rev, len(bodies), len(want.Before))
		}
		for i := range want.Before {
			if j := jsonOf(&want.Before[i]); bodies[i] != j {
				t.Fatalf("revision %d: body %d is\n%s\nwant\n%s", rev, i, bodies[i], j)
			}
		}
	}
	for _, tc := range []struct {
		id  string
		rev int64
	}{{"nobody", 1}, {"sr", 3}} {
		called := false
		err := st.StreamRevision(ctx, tc.id, tc.rev, func(*kompact.RevisionInfo) error { called = true; return nil }, func([]byte) error { return nil })
		wantCode(t, err, kompact.ENotFound, "StreamRevision of an unknown session or revision")
		if called {
			t.Fatalf("head was called for %s revision %d", tc.id, tc.rev)
		}
	}
	stop := kompact.Errorf(kompact.EConflict, "stop here")
	n := 0
	err := st.StreamRevision(ctx, "sr", 1, func(*kompact.RevisionInfo) error { return nil }, func([]byte) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("StreamRevision with a failing body: %v after %d bodies, want the body's error after 1", err, n)
	}
}
