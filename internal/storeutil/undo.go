package storeutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

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
// wrote again, the first rows added), the first new row it added (its
// anchor: kimi's summary; the first of a kimi-code compaction's own messages
// before its summary) and the rows it added after that one: kimi's pinned
// messages (written again); a kimi-code compaction's summary, the pinned
// ones and its continuation note (kompact.Span's Leading and Trailing). An
// undo puts the restored rows in place of the anchor and the rows after it.
// pinned counts the rows after the anchor that repeat a removed message. ok
// is false when the rows are not those of a compaction: nothing removed, or
// no new row.
func SplitCompaction(removed, added []PosRef) (restored []Ref, anchor Ref, after []Ref, pinned int, ok bool) {
	if len(removed) == 0 || len(added) == 0 {
		return nil, Ref{}, nil, 0, false
	}
	was := make(map[string]bool, len(removed))
	for _, r := range removed {
		was[r.ID] = true
	}
	at := 0
	for at < len(added) && was[added[at].ID] {
		at++
	}
	if at == len(added) || at >= len(removed) {
		return nil, Ref{}, nil, 0, false
	}
	for _, r := range added[at+1:] {
		after = append(after, r.Ref)
		if was[r.ID] {
			pinned++
		}
	}
	for _, r := range removed[at:] {
		restored = append(restored, r.Ref)
	}
	return restored, added[at].Ref, after, pinned, true
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
	ids := kompact.MessageCheck{Field: "restored messages", Rules: kompact.RuleUniqueIDs}
	if err := ids.Check(msgs); err != nil {
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
	return fmt.Sprintf("undid the compaction of revision %d (%s back)", rev, kompact.CountOf(restored, "message"))
}

// UndoCompaction replaces the summary message compaction revision rev wrote
// by the messages it replaced, keeping every other message (see
// kompact.Store). The revision's rows tell what it did: the rows it removed
// (dead = rev) are the replaced range, and the rows it added (born = rev,
// before the range's end) are the kept messages and, last, the summary.
// The messages before the summary are written again (as a compaction
// does), so the work follows them and the restored range, not the
// session's length.
func (c *Core) UndoCompaction(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	var out kompact.SessionInfo
	var info *kompact.RevisionInfo
	err := c.db.Write(ctx, "undo compaction", func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if info, err = c.undo(ctx, tx, row, rev); err != nil {
			return err
		}
		out = row.Info()
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &out, info, nil
}

// undo writes again the live messages before the summary of compaction
// revision rev and the ones it replaced, in the summary's place, and
// records the undo.
func (c *Core) undo(ctx context.Context, tx Tx, row *SessionRow, rev int64) (*kompact.RevisionInfo, error) {
	id := row.ID
	if info, legacy, err := loadRevision(ctx, tx, id, rev); err != nil || info.Kind == kompact.RevisionPrune && !legacy {
		if err != nil {
			return nil, err
		}
		return c.undoPrune(ctx, tx, row, rev)
	}
	head, restored, kept, pinned, at, err := undoRows(ctx, tx, row, rev)
	if err != nil {
		return nil, err
	}
	// at: the position of the last row the compaction added (kept of them
	// after its anchor, pinned of those written again).
	if err := tx.RetireMessages(ctx, id, row.NextRev, row.FirstPos, at+1); err != nil {
		return nil, err
	}
	msgs, bodyIDs, err := RestoredRows(head)
	if err != nil {
		return nil, err
	}
	if err := checkFree(ctx, tx, id, msgs, at+1, "restored messages"); err != nil {
		return nil, err
	}
	first := at + 1 - int64(len(head))
	if err := tx.InsertMessages(ctx, id, first, row.NextRev, msgs, bodyIDs); err != nil {
		return nil, err
	}
	kimi, err := c.revisionKimi(ctx, tx, id, rev, row.N+int64(restored-1-kept))
	if err != nil {
		return nil, err
	}
	info, err := c.rewritten(ctx, tx, row, kompact.RevisionUndo, UndoNote(rev, restored-pinned), nil, first, row.N+int64(restored-1-kept))
	if err != nil {
		return nil, err
	}
	// The session's kimi-cli context becomes the one the compaction
	// replaced.
	if err := reframe(ctx, tx, id, info.Rev, kimi); err != nil {
		return nil, err
	}
	// Like a restore, an undo leaves no recorded token figure: the whole
	// list is pending.
	pending, err := listEstimate(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return info, tx.SetTokens(ctx, id, 0, pending, false)
}

// undoRows reads what undoing compaction revision rev writes again: the
// live messages before its anchor (its summary, or the first of its own
// messages before it), then the ones it replaced (restored of them), and
// the position at of the last row it added: kept rows after the anchor, of
// which pinned repeat replaced messages.
func undoRows(ctx context.Context, tx Tx, row *SessionRow, rev int64) (head []Ref, restored, kept, pinned int, at int64, err error) {
	back, anchor, after, pinned, err := compactionRows(ctx, tx, row.ID, rev)
	if err != nil {
		return nil, 0, 0, 0, 0, err
	}
	if at, err = liveSummary(ctx, tx, row.ID, rev, anchor); err != nil {
		return nil, 0, 0, 0, 0, err
	}
	if head, err = tx.ReadRefs(ctx, row.ID, row.FirstPos, at); err != nil {
		return nil, 0, 0, 0, 0, err
	}
	if len(after) > 0 {
		live, err := tx.ReadRefs(ctx, row.ID, at+1, at+1+int64(len(after)))
		if err != nil {
			return nil, 0, 0, 0, 0, err
		}
		if !slices.Equal(live, after) {
			return nil, 0, 0, 0, 0, kompact.Errorf(kompact.EConflict, "the messages revision %d wrote after its summary (or its own around it) are no longer as it wrote them", rev).
				WithFixes(undoFix)
		}
		at += int64(len(after))
	}
	return append(head, back...), len(back), len(after), pinned, at, nil
}

// compactionRows reads what compaction revision rev did (SplitCompaction):
// the messages it replaced (without the kept ones it wrote again), its
// anchor row, the rows it added after that one and how many of them are
// pinned messages written again.
func compactionRows(ctx context.Context, tx Tx, id string, rev int64) (restored []Ref, anchor Ref, after []Ref, pinned int, err error) {
	info, legacy, err := loadRevision(ctx, tx, id, rev)
	if err != nil {
		return nil, Ref{}, nil, 0, err
	}
	if !kompact.IsCompaction(info.Kind) || legacy {
		return nil, Ref{}, nil, 0, notUndoable(rev, info.Kind)
	}
	removed, err := tx.RemovedBy(ctx, id, rev)
	if err != nil || len(removed) == 0 {
		return nil, Ref{}, nil, 0, errors.Join(err, notUndoable(rev, info.Kind))
	}
	added, err := tx.AddedBy(ctx, id, rev, removed[len(removed)-1].Pos+1)
	if err != nil {
		return nil, Ref{}, nil, 0, errors.Join(err, notUndoable(rev, info.Kind))
	}
	restored, anchor, after, pinned, ok := SplitCompaction(removed, added)
	if !ok {
		return nil, Ref{}, nil, 0, notUndoable(rev, info.Kind)
	}
	return restored, anchor, after, pinned, nil
}

// notUndoable is the error of a revision that is not a compaction the
// store can undo: another kind, or one whose rows do not tell what it did
// (recorded by an older kompact).
func notUndoable(rev int64, kind string) error {
	if !kompact.IsCompaction(kind) {
		return kompact.Errorf(kompact.EInvalid, "revision %d is a %s, not a compaction; only a compaction or a prune can be undone", rev, kind).
			WithFixes("Restore the revision instead (it replaces the whole message list).")
	}
	return kompact.Errorf(kompact.EInvalid, "revision %d cannot be undone: its rows do not tell its summary apart (an older kompact recorded it)", rev).
		WithFixes("Restore the revision instead (it replaces the whole message list).")
}

// liveSummary returns the position of the summary message in the session:
// EConflict when no message has its id any more, or its content changed.
func liveSummary(ctx context.Context, tx Tx, id string, rev int64, summary Ref) (int64, error) {
	pos, bodyID, err := tx.LiveMessage(ctx, id, summary.ID)
	if noRow(err) {
		return 0, SummaryGone(summary.ID, rev)
	}
	if err != nil || bodyID == summary.BodyID {
		return pos, err
	}
	var bodies [2][]byte
	err = tx.EachBodyOf(ctx, []int64{bodyID, summary.BodyID}, func(i int, body []byte) error {
		bodies[i] = bytes.Clone(body)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if !bytes.Equal(bodies[0], bodies[1]) {
		return 0, SummaryChanged(summary.ID, rev)
	}
	return pos, nil
}
