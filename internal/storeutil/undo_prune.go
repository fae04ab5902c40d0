package storeutil

import (
	"bytes"
	"context"
	"fmt"

	"kompact"
)

// A prune revision (kompact.RevisionPrune) replaced the first rows of the
// session row for row: each message again, with the same id, the cleared
// tool results with a new body (their marker) and the others with the body
// they had (KeptBodies). Undoing it puts the old bodies back in the
// cleared results' places, wherever they are now, and keeps every other
// message as it is.

// prunedRows returns, for each message prune revision rev cleared, its id,
// the body it had before and the body the prune gave it.
func prunedRows(ctx context.Context, tx Tx, id string, rev int64) (ids []string, before, after []int64, err error) {
	removed, err := tx.RemovedBy(ctx, id, rev)
	if err != nil || len(removed) == 0 {
		return nil, nil, nil, err
	}
	added, err := tx.AddedBy(ctx, id, rev, removed[len(removed)-1].Pos+1)
	if err != nil || len(added) != len(removed) {
		return nil, nil, nil, err
	}
	for i := range removed {
		if removed[i].ID != added[i].ID {
			return nil, nil, nil, nil
		}
		if removed[i].BodyID != added[i].BodyID {
			ids = append(ids, removed[i].ID)
			before = append(before, removed[i].BodyID)
			after = append(after, added[i].BodyID)
		}
	}
	return ids, before, after, nil
}

// undoPrune undoes prune revision rev of the session (see UndoCompaction):
// each message it cleared gets its old body back, in the place it has now,
// and the live messages up to the last of them are written again, as an
// undo of a compaction writes them. A cleared message no longer in the
// session, or changed since, is EConflict.
func (c *Core) undoPrune(ctx context.Context, tx Tx, row *SessionRow, rev int64) (*kompact.RevisionInfo, error) {
	id := row.ID
	ids, before, after, err := prunedRows(ctx, tx, id, rev)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, kompact.Errorf(kompact.EInvalid, "revision %d is a prune whose rows do not say what it cleared; it cannot be undone", rev).
			WithFixes("Restore the revision instead (it replaces the whole message list).")
	}
	back := make(map[string]int64, len(ids))
	last := int64(-1)
	for i, msgID := range ids {
		pos, err := livePruned(ctx, tx, id, rev, msgID, after[i])
		if err != nil {
			return nil, err
		}
		back[msgID], last = before[i], max(last, pos)
	}
	refs, err := tx.ReadRefs(ctx, id, row.FirstPos, last+1)
	if err != nil {
		return nil, err
	}
	for i := range refs {
		if b, ok := back[refs[i].ID]; ok {
			refs[i].BodyID = b
		}
	}
	msgs, bodyIDs, err := RestoredRows(refs)
	if err != nil {
		return nil, err
	}
	if err := tx.RetireMessages(ctx, id, row.NextRev, row.FirstPos, last+1); err != nil {
		return nil, err
	}
	if err := tx.InsertMessages(ctx, id, row.FirstPos, row.NextRev, msgs, bodyIDs); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("undid the prune of revision %d (%s back)", rev, kompact.CountOf(len(ids), "tool output"))
	info, err := c.rewritten(ctx, tx, row, kompact.RevisionUndo, note, nil, row.FirstPos, row.N)
	if err != nil {
		return nil, err
	}
	pending, err := listEstimate(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return info, tx.SetTokens(ctx, id, 0, pending, false)
}

// livePruned returns the position of message msgID, which prune revision
// rev cleared into the body pruned: EConflict when it is no longer in the
// session or was changed since.
func livePruned(ctx context.Context, tx Tx, id string, rev int64, msgID string, pruned int64) (int64, error) {
	pos, bodyID, err := tx.LiveMessage(ctx, id, msgID)
	if noRow(err) {
		return 0, kompact.Errorf(kompact.EConflict, "the tool result %q that revision %d cleared is no longer in the session", msgID, rev).
			WithFixes(undoFix)
	}
	if err != nil {
		return 0, err
	}
	same, err := sameBody(ctx, tx, bodyID, pruned)
	if err == nil && !same {
		err = kompact.Errorf(kompact.EConflict, "the tool result %q that revision %d cleared was changed since", msgID, rev).WithFixes(undoFix)
	}
	return pos, err
}

// sameBody reports whether the stored bodies a and b hold the same JSON.
func sameBody(ctx context.Context, tx Tx, a, b int64) (bool, error) {
	if a == b {
		return true, nil
	}
	var bodies [2][]byte
	err := tx.EachBodyOf(ctx, []int64{a, b}, func(i int, body []byte) error {
		bodies[i] = bytes.Clone(body)
		return nil
	})
	return err == nil && bytes.Equal(bodies[0], bodies[1]), err
}
