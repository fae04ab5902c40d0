package storetest

import (
	"encoding/json"
	"testing"

	"kompact"
	"kompact/kimi"
)

// testFidelity: a compaction's fidelity report is recorded with its
// revision, listed and read back as it was; a commit without one (and a
// restore) records none.
func testFidelity(t *testing.T, st kompact.Store) {
	s := create(t, st, &kompact.Session{Agent: "a", Messages: []kompact.Message{
		msg(kompact.RoleUser, "u1", "Fix summary.go and run `go vet ./...`"),
		msg(kompact.RoleAssistant, "a1", "Done with summary.go"),
		msg(kompact.RoleUser, "u2", "thanks"),
		msg(kompact.RoleAssistant, "a2", "welcome"),
	}})
	c := compaction(t, s, kimi.Options{End: "a1"}, "Edited summary.go")
	if c.Fidelity == nil || c.Fidelity.Artifacts != 2 || c.Fidelity.Kept != 1 || len(c.Fidelity.Lost) != 1 {
		t.Fatalf("the commit's fidelity is %+v", c.Fidelity)
	}
	want, _ := json.Marshal(c.Fidelity)
	s2, rev := commit(t, st, s.ID, c)
	check := func(what string, info kompact.RevisionInfo, fid []byte) {
		t.Helper()
		got, _ := json.Marshal(info.Fidelity)
		if fid == nil && info.Fidelity != nil || fid != nil && string(got) != string(fid) {
			t.Fatalf("%s: fidelity %s, want %s", what, got, fid)
		}
	}
	check("CommitCompaction", *rev, want)
	check("StreamRevision", revision(t, st, s.ID, rev.Rev).RevisionInfo, want)
	check("ListRevisions", revisions(t, st, s.ID)[0], want)

	plain := compaction(t, s2, kimi.Options{End: "u2"}, "x")
	plain.Fidelity = nil
	_, rev2 := commit(t, st, s.ID, plain)
	check("a commit without a report", *rev2, nil)
	_, rev3 := restore(t, st, s.ID, rev.Rev)
	check("a restore", *rev3, nil)
	check("the first compaction, listed after others", revisions(t, st, s.ID)[2], want)
}
