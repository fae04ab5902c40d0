// Undo of a compaction: its summary goes back to the messages it replaced.

package postgres

import (
	"bytes"
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

// UndoCompaction replaces the summary message compaction revision rev wrote
// by the messages it replaced, keeping every other message (see
// kompact.Store and sqlite.Store.UndoCompaction, which works the same way).
func (s *Store) UndoCompaction(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	var row *sessionRow
	var info *kompact.RevisionInfo
	err := s.write(ctx, "undo compaction", func(tx pgx.Tx) error {
		var err error
		if row, err = loadSession(ctx, tx, id, true); err != nil {
			return err
		}
		head, restored, at, err := undoRows(ctx, tx, row, rev)
		if err != nil {
			return err
		}
		next := row.NextRev
		if _, err := tx.Exec(ctx, `UPDATE messages SET dead = $1 WHERE session_id = $2 AND dead IS NULL AND pos <= $3`, next, id, at); err != nil {
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
		if err := insertMessages(ctx, tx, id, first, next, msgs, bodyIDs); err != nil {
			return err
		}
		now := s.now(row.Updated)
		version := row.Version + 1
		note := storeutil.UndoNote(rev, restored)
		if info, err = recordRevision(ctx, tx, row, kompact.RevisionUndo, note, now, version, s.keep); err != nil {
			return err
		}
		row.N += int64(restored) - 1
		if _, err := tx.Exec(ctx, `UPDATE sessions SET first_pos = $1, n_messages = $2, next_rev = $3, version = $4, updated_at = $5, rewritten_version = $4 WHERE id = $6`,
			first, row.N, next+1, version, now, id); err != nil {
			return err
		}
		// Like a restore, an undo leaves no recorded token figure.
		if err := setAccount(ctx, tx, id, 0, storeutil.UnknownPending, false); err != nil {
			return err
		}
		row.FirstPos, row.Version, row.Updated = first, version, now
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	out := row.Info()
	return &out, info, nil
}

type posRef = storeutil.PosRef

// undoRows reads what undoing compaction revision rev writes again: the
// live messages before its summary, then the ones it replaced (restored
// of them), and the summary's position at.
func undoRows(ctx context.Context, tx pgx.Tx, row *sessionRow, rev int64) (head []ref, restored int, at int64, err error) {
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
func compactionRows(ctx context.Context, tx pgx.Tx, id string, rev int64) (restored []ref, summary ref, err error) {
	var kind string
	err = tx.QueryRow(ctx, `SELECT kind FROM revisions WHERE session_id = $1 AND rev = $2`, id, rev).Scan(&kind)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ref{}, kompact.Errorf(kompact.ENotFound, "session %q has no revision %d", id, rev).
			WithFixes("List the session's revisions to see which exist.")
	}
	if err != nil {
		return nil, ref{}, err
	}
	if !kompact.IsCompaction(kind) {
		return nil, ref{}, notUndoable(rev, kind)
	}
	removed, err := rowsWhere(ctx, tx, `SELECT id, body_id, pos FROM messages WHERE session_id = $1 AND dead = $2 ORDER BY pos`, id, rev)
	if err != nil || len(removed) == 0 {
		return nil, ref{}, errors.Join(err, notUndoable(rev, "empty compaction"))
	}
	end := removed[len(removed)-1].Pos + 1
	added, err := rowsWhere(ctx, tx, `SELECT id, body_id, pos FROM messages WHERE session_id = $1 AND born = $2 AND pos < $3 ORDER BY pos`, id, rev, end)
	if err != nil {
		return nil, ref{}, errors.Join(err, notUndoable(rev, "malformed compaction"))
	}
	restored, summary, ok := storeutil.SplitCompaction(removed, added)
	if !ok {
		return nil, ref{}, notUndoable(rev, "malformed compaction")
	}
	return restored, summary, nil
}

func notUndoable(rev int64, kind string) error {
	return kompact.Errorf(kompact.EInvalid, "revision %d is a %s, not a compaction that can be undone", rev, kind).
		WithFixes("Restore the revision instead (it replaces the whole message list).")
}

func rowsWhere(ctx context.Context, tx pgx.Tx, q string, args ...any) ([]posRef, error) {
	rows, err := tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (posRef, error) {
		var x posRef
		err := r.Scan(&x.ID, &x.BodyID, &x.Pos)
		return x, err
	})
}

// liveSummary returns the position of the summary message in the session:
// EConflict when no message has its id any more, or its content changed.
func liveSummary(ctx context.Context, tx pgx.Tx, id string, rev int64, summary ref) (int64, error) {
	var pos, bodyID int64
	err := tx.QueryRow(ctx, `SELECT pos, body_id FROM messages WHERE session_id = $1 AND dead IS NULL AND id = $2`, id, summary.ID).Scan(&pos, &bodyID)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, storeutil.SummaryGone(summary.ID, rev)
	}
	if err != nil {
		return 0, err
	}
	if bodyID != summary.BodyID {
		var a, b []byte
		if err := tx.QueryRow(ctx, `SELECT (SELECT body FROM bodies WHERE id = $1), (SELECT body FROM bodies WHERE id = $2)`, bodyID, summary.BodyID).Scan(&a, &b); err != nil {
			return 0, err
		}
		if !bytes.Equal(a, b) {
			return 0, storeutil.SummaryChanged(summary.ID, rev)
		}
	}
	return pos, nil
}
