// Undo of a compaction: its summary goes back to the messages it replaced.

package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"kompact"
	"kompact/internal/storeutil"
)

// UndoCompaction replaces the summary message compaction revision rev wrote
// by the messages it replaced, keeping every other message (see
// kompact.Store). The revision's rows tell what it did: the rows it removed
// (dead = rev) are the replaced range, and the rows it added (born = rev,
// before the range's end) are the kept messages and, last, the summary.
// The messages before the summary are written again (as a compaction
// does), so the work follows them and the restored range, not the
// session's length.
func (s *Store) UndoCompaction(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	var out kompact.SessionInfo
	var info *kompact.RevisionInfo
	err := s.write(ctx, "undo compaction", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		head, restored, at, err := undoRows(ctx, tx, row, rev)
		if err != nil {
			return err
		}
		next := row.NextRev
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET dead = ? WHERE session_id = ? AND dead IS NULL AND pos <= ?`, next, id, at); err != nil {
			return err
		}
		msgs, bodyIDs, err := storeutil.RestoredRows(head)
		if err != nil {
			return err
		}
		if err := checkFree(ctx, tx, id, msgs, at+1, "restored messages"); err != nil {
			return err
		}
		first := at + 1 - int64(len(head))
		if err := insertMessagesReusing(ctx, tx, id, first, next, msgs, bodyIDs); err != nil {
			return err
		}
		now := s.now(row.Updated)
		version := row.Version + 1
		note := storeutil.UndoNote(rev, restored)
		if info, err = recordRevision(ctx, tx, row, kompact.RevisionUndo, note, now, version, s.keep); err != nil {
			return err
		}
		row.N += int64(restored) - 1
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET first_pos = ?, n_messages = ?, next_rev = ?, version = ?, updated_at = ?, rewritten_version = ? WHERE id = ?`,
			first, row.N, next+1, version, formatTime(now), version, id); err != nil {
			return err
		}
		// Like a restore, an undo leaves no recorded token figure.
		if err := setAccount(ctx, tx, id, 0, storeutil.UnknownPending, false); err != nil {
			return err
		}
		row.FirstPos, row.Version, row.Updated = first, version, now
		out = row.Info()
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &out, info, nil
}

// undoRows reads what undoing compaction revision rev writes again: the
// live messages before its summary, then the ones it replaced (restored
// of them), and the summary's position at.
func undoRows(ctx context.Context, tx *sql.Tx, row *sessionRow, rev int64) (head []ref, restored int, at int64, err error) {
	back, summary, err := compactionRows(ctx, tx, row.ID, rev)
	if err != nil {
		return nil, 0, 0, err
	}
	if at, err = liveSummary(ctx, tx, row.ID, rev, summary); err != nil {
		return nil, 0, 0, err
	}
	if head, err = readRefs(ctx, tx, row.ID, row.FirstPos, at); err != nil {
		return nil, 0, 0, err
	}
	return append(head, back...), len(back), at, nil
}

// compactionRows reads what compaction revision rev did: the messages it
// replaced (without the kept ones it wrote again) and its summary row.
func compactionRows(ctx context.Context, tx *sql.Tx, id string, rev int64) (restored []ref, summary ref, err error) {
	var kind string
	var full bool
	err = tx.QueryRowContext(ctx, `SELECT kind, full FROM revisions WHERE session_id = ? AND rev = ?`, id, rev).Scan(&kind, &full)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ref{}, kompact.Errorf(kompact.ENotFound, "session %q has no revision %d", id, rev).
			WithFixes("List the session's revisions to see which exist.")
	}
	if err != nil {
		return nil, ref{}, err
	}
	if !kompact.IsCompaction(kind) || full {
		return nil, ref{}, notUndoable(rev, kind, full)
	}
	removed, err := rowsWhere(ctx, tx, `SELECT id, body_id, pos FROM messages WHERE session_id = ? AND dead = ? ORDER BY pos`, id, rev)
	if err != nil || len(removed) == 0 {
		return nil, ref{}, errors.Join(err, notUndoable(rev, kind, true))
	}
	end := removed[len(removed)-1].Pos + 1
	added, err := rowsWhere(ctx, tx, `SELECT id, body_id, pos FROM messages WHERE session_id = ? AND born = ? AND pos < ? ORDER BY pos`, id, rev, end)
	if err != nil {
		return nil, ref{}, errors.Join(err, notUndoable(rev, kind, true))
	}
	restored, summary, ok := storeutil.SplitCompaction(removed, added)
	if !ok {
		return nil, ref{}, notUndoable(rev, kind, true)
	}
	return restored, summary, nil
}

// notUndoable is the error of a revision that is not a compaction this
// store can undo.
func notUndoable(rev int64, kind string, old bool) error {
	if !kompact.IsCompaction(kind) {
		return kompact.Errorf(kompact.EInvalid, "revision %d is a %s, not a compaction; only a compaction can be undone", rev, kind).
			WithFixes("Restore the revision instead (it replaces the whole message list).")
	}
	return kompact.Errorf(kompact.EInvalid, "revision %d was recorded by an older kompact and cannot be undone", rev).
		WithFixes("Restore the revision instead (it replaces the whole message list).")
}

type posRef = storeutil.PosRef

func rowsWhere(ctx context.Context, tx *sql.Tx, q string, args ...any) ([]posRef, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []posRef
	for rows.Next() {
		var r posRef
		if err := rows.Scan(&r.ID, &r.BodyID, &r.Pos); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// liveSummary returns the position of the summary message in the session:
// EConflict when no message has its id any more, or its content changed.
func liveSummary(ctx context.Context, tx *sql.Tx, id string, rev int64, summary ref) (int64, error) {
	var pos, bodyID int64
	err := tx.QueryRowContext(ctx, `SELECT pos, body_id FROM messages WHERE session_id = ? AND dead IS NULL AND id = ?`, id, summary.ID).Scan(&pos, &bodyID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, storeutil.SummaryGone(summary.ID, rev)
	}
	if err != nil {
		return 0, err
	}
	if bodyID != summary.BodyID {
		var a, b []byte
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT body FROM bodies WHERE id = ?), (SELECT body FROM bodies WHERE id = ?)`, bodyID, summary.BodyID).Scan(&a, &b); err != nil {
			return 0, err
		}
		if string(a) != string(b) {
			return 0, storeutil.SummaryChanged(summary.ID, rev)
		}
	}
	return pos, nil
}
