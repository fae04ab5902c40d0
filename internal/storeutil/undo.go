package storeutil

import (
	"fmt"

	"kompact"
)

// PosRef is a stored message row: its Ref and its position.
type PosRef struct {
	Ref
	Pos int64
}

// SplitCompaction tells, from the rows a compaction revision removed and
// the rows it added before the end of that range (both in position order),
// which removed messages an undo restores (those after the kept ones it
// wrote again) and which added row is its summary (the last). ok is false
// when the rows are not those of a compaction.
func SplitCompaction(removed, added []PosRef) (restored []Ref, summary Ref, ok bool) {
	if len(removed) == 0 || len(added) == 0 || len(added) > len(removed) {
		return nil, Ref{}, false
	}
	for _, r := range removed[len(added)-1:] {
		restored = append(restored, r.Ref)
	}
	return restored, added[len(added)-1].Ref, true
}

// RestoredRows returns messages carrying only the ids of head (the kept
// messages before the summary, then the restored ones), for the id checks,
// and their body ids. An id head holds twice is EConflict: the compaction
// cannot be undone.
func RestoredRows(head []Ref) ([]kompact.Message, []int64, error) {
	msgs := make([]kompact.Message, len(head))
	bodyIDs := make([]int64, len(head))
	for i := range head {
		msgs[i].ID, bodyIDs[i] = head[i].ID, head[i].BodyID
	}
	if err := ClaimIDs(msgs, map[string]bool{}, "restored messages"); err != nil {
		return nil, nil, kompact.Errorf(kompact.EConflict, "the compaction cannot be undone: %s", kompact.AsError(err).Message)
	}
	return msgs, bodyIDs, nil
}

// SummaryGone is the conflict of an undo whose summary message left the
// session; SummaryChanged that of one whose summary was edited.
func SummaryGone(summaryID string, rev int64) error {
	return kompact.Errorf(kompact.EConflict, "the summary message %q of revision %d is no longer in the session", summaryID, rev).
		WithFixes(undoFix)
}

// SummaryChanged: see SummaryGone.
func SummaryChanged(summaryID string, rev int64) error {
	return kompact.Errorf(kompact.EConflict, "the summary message %q of revision %d was changed since", summaryID, rev).
		WithFixes(undoFix)
}

const undoFix = "Restore the revision instead to get the whole message list back (messages added since are dropped)."

// UndoNote is the note of the revision an undo records.
func UndoNote(rev int64, restored int) string {
	return fmt.Sprintf("undid the compaction of revision %d (%d messages back)", rev, restored)
}
