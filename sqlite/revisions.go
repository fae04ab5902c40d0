// Revisions: compaction commits, restores, and the revisions they record.

package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// recordRevision inserts revision row.NextRev, whose message list is the
// session's current one: the rows the change is about to remove get dead =
// row.NextRev, so the list stays readable (see migrations/0002). It then
// prunes the revisions beyond the newest keep (0 keeps them all). version
// is the session's version after the change.
func recordRevision(ctx context.Context, tx *sql.Tx, row *sessionRow, kind, note string, now time.Time, version int64, keep int) (*kompact.RevisionInfo, error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO revisions (session_id, rev, kind, note, created_at, version, n_messages, full) VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
		row.ID, row.NextRev, kind, note, formatTime(now), version, row.N); err != nil {
		return nil, err
	}
	if keep > 0 && row.NextRev > int64(keep) {
		if err := pruneRevisions(ctx, tx, row.ID, row.NextRev-int64(keep)); err != nil {
			return nil, err
		}
	}
	return &kompact.RevisionInfo{
		Rev:       row.NextRev,
		Kind:      kind,
		Note:      note,
		CreatedAt: now,
		Version:   version,
		Messages:  int(row.N),
	}, nil
}

// pruneRevisions deletes the session's revisions up to and including
// upTo, the message rows only they hold (removed by revision upTo or
// earlier), and the bodies nothing else refers to. The work follows what
// those revisions replaced, not the session's length.
func pruneRevisions(ctx context.Context, tx *sql.Tx, id string, upTo int64) error {
	var candidates []int64
	collect := func(q string) error {
		rows, err := tx.QueryContext(ctx, q, id, upTo)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var b int64
			if err := rows.Scan(&b); err != nil {
				return err
			}
			candidates = append(candidates, b)
		}
		return rows.Err()
	}
	if err := collect(`SELECT DISTINCT body_id FROM messages WHERE session_id = ? AND dead IS NOT NULL AND dead <= ?`); err != nil {
		return err
	}
	if err := collect(`SELECT DISTINCT body_id FROM revision_messages WHERE session_id = ? AND rev <= ?`); err != nil {
		return err
	}
	for _, q := range []string{
		`DELETE FROM messages WHERE session_id = ? AND dead IS NOT NULL AND dead <= ?`,
		`DELETE FROM revisions WHERE session_id = ? AND rev <= ?`, // and their revision_messages
	} {
		if _, err := tx.ExecContext(ctx, q, id, upTo); err != nil {
			return err
		}
	}
	del, err := tx.PrepareContext(ctx, `DELETE FROM bodies WHERE id = ?1
		AND NOT EXISTS (SELECT 1 FROM messages WHERE body_id = ?1)
		AND NOT EXISTS (SELECT 1 FROM revision_messages WHERE body_id = ?1)`)
	if err != nil {
		return err
	}
	defer del.Close()
	for _, b := range candidates {
		if _, err := del.ExecContext(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// CommitCompaction applies c to the session's current messages (see
// kompact.Rebase), all in one transaction: it records a revision holding
// the messages as they were, replaces the first c.End of them with
// c.Replacement (whose messages without an id get one), and bumps the
// version. A conflict changes nothing.
//
// When c.Version is set and the session was not rewritten since, only
// appends happened: the commit reads the ids and body ids of the replaced
// range and the messages appended since, and compares nothing else. A kept
// message whose JSON is unchanged keeps its stored body.
func (s *Store) CommitCompaction(ctx context.Context, id string, c kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	p, err := storeutil.PlanCommit(c)
	if err != nil {
		return nil, nil, err
	}
	var row *sessionRow
	var info *kompact.RevisionInfo
	var tail []kompact.Message // the stored messages after the base's (fast) or after c.End (compared)
	err = s.write(ctx, "commit compaction", func(tx *sql.Tx) error {
		if row, err = loadSession(ctx, tx, id); err != nil {
			return err
		}
		if err := p.TooShort(row.N); err != nil {
			return err
		}
		var refs []ref
		var fast bool
		if refs, tail, fast, err = readCommitRange(ctx, tx, row, p); err != nil {
			return err
		}
		info, err = s.rewriteForCommit(ctx, tx, row, p, refs)
		if err != nil {
			return err
		}
		count, pending := p.Account(tail, fast)
		return setAccount(ctx, tx, id, count, pending, true)
	})
	if err != nil {
		return nil, nil, err
	}
	out := row.Info()
	return &out, info, nil
}

// readCommitRange reads the refs of the range p replaces, checks it (by
// ids when fast, else by comparing bodies) and decodes the stored messages
// after it: after the base's when fast, after c.End otherwise.
func readCommitRange(ctx context.Context, tx *sql.Tx, row *sessionRow, p *storeutil.CommitPlan) (refs []ref, tail []kompact.Message, fast bool, err error) {
	end := row.FirstPos + int64(p.Commit.End)
	if refs, err = readRefs(ctx, tx, row.ID, row.FirstPos, end); err != nil {
		return nil, nil, false, err
	}
	fast = p.Fast(row.Version, row.Rewritten, row.N, refs)
	from := end
	if fast {
		from = row.FirstPos + int64(len(p.Commit.Base))
	} else if err := compareBase(ctx, tx, refs, p.Base); err != nil {
		return nil, nil, false, err
	}
	later, err := readBodies(ctx, tx, row.ID, from)
	if err != nil {
		return nil, nil, false, err
	}
	tail, err = decodeBodies(later, row.ID)
	return refs, tail, fast, err
}

// rewriteForCommit assigns the replacement's ids, retires the replaced
// rows, inserts the replacement just before the kept tail (in the
// positions the compacted messages leave), records the revision and
// updates the session row (and row).
func (s *Store) rewriteForCommit(ctx context.Context, tx *sql.Tx, row *sessionRow, p *storeutil.CommitPlan, refs []ref) (*kompact.RevisionInfo, error) {
	id, repl := row.ID, p.Repl
	end := row.FirstPos + int64(p.Commit.End)
	storeutil.AssignIDs(repl, p.Given, &row.NextMsg)
	if err := checkFree(ctx, tx, id, repl, end, "replacement"); err != nil {
		return nil, err
	}
	now := s.now(row.Updated)
	version := row.Version + 1
	rev := row.NextRev
	if _, err := tx.ExecContext(ctx, `UPDATE messages SET dead = ? WHERE session_id = ? AND dead IS NULL AND pos < ?`, rev, id, end); err != nil {
		return nil, err
	}
	first := end - int64(len(repl))
	if err := insertMessagesReusing(ctx, tx, id, first, rev, repl, storeutil.KeptBodies(repl, p.Base, refs)); err != nil {
		return nil, err
	}
	info, err := recordRevision(ctx, tx, row, p.Kind, p.Commit.Note, now, version, s.keep)
	if err != nil {
		return nil, err
	}
	row.N = row.N - int64(p.Commit.End) + int64(len(repl))
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET first_pos = ?, n_messages = ?, next_msg = ?, next_rev = ?, version = ?, updated_at = ?, rewritten_version = ? WHERE id = ?`,
		first, row.N, row.NextMsg, row.NextRev+1, version, formatTime(now), version, id); err != nil {
		return nil, err
	}
	row.Version, row.Updated = version, now
	return info, nil
}

// ref is a message's place in a session: its id and stored body.
type ref = storeutil.Ref

// readRefs returns the ids and body ids of the session's messages at
// positions [from, to), in order.
func readRefs(ctx context.Context, tx *sql.Tx, id string, from, to int64) ([]ref, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, body_id FROM messages WHERE session_id = ? AND dead IS NULL AND pos >= ? AND pos < ? ORDER BY pos`, id, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]ref, 0, to-from)
	for rows.Next() {
		var r ref
		if err := rows.Scan(&r.ID, &r.BodyID); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// compareBase fails with EConflict, as kompact.Rebase does, unless the
// stored bodies of refs are the JSON forms of base.
func compareBase(ctx context.Context, tx *sql.Tx, refs []ref, base []kompact.Message) error {
	if len(refs) != len(base) {
		return fmt.Errorf("%d stored messages in a range of %d", len(refs), len(base))
	}
	stmt, err := tx.PrepareContext(ctx, `SELECT body FROM bodies WHERE id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	var buf []byte
	for i := range refs {
		var body []byte
		if err := stmt.QueryRowContext(ctx, refs[i].BodyID).Scan(&body); err != nil {
			return err
		}
		buf = base[i].AppendJSON(buf[:0])
		if !bytes.Equal(buf, body) {
			ref := strconv.Quote(refs[i].ID)
			return kompact.Errorf(kompact.EConflict, "message %s changed while the compaction ran", ref).
				WithFixes("Reload the session and compact again; nothing was written.")
		}
	}
	return nil
}

// ListRevisions describes the session's revisions, the newest first.
func (s *Store) ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	out := []kompact.RevisionInfo{}
	err := s.read(ctx, "list revisions", func(tx *sql.Tx) error {
		if _, err := loadSession(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT rev, kind, note, created_at, version, n_messages FROM revisions WHERE session_id = ? ORDER BY rev DESC`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			info, err := scanRevisionInfo(rows)
			if err != nil {
				return err
			}
			out = append(out, *info)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func scanRevisionInfo(sc scanner, more ...any) (*kompact.RevisionInfo, error) {
	var info kompact.RevisionInfo
	var created string
	if err := sc.Scan(append([]any{&info.Rev, &info.Kind, &info.Note, &created, &info.Version, &info.Messages}, more...)...); err != nil {
		return nil, err
	}
	t, err := parseTime(created)
	if err != nil {
		return nil, fmt.Errorf("revision %d: %w", info.Rev, err)
	}
	info.CreatedAt = t
	return &info, nil
}

// loadRevision reads revision rev of the session and decodes its messages.
// It also returns the ids of their stored bodies.
func loadRevision(ctx context.Context, tx *sql.Tx, id string, rev int64) (*kompact.Revision, []int64, error) {
	var full bool
	info, err := scanRevisionInfo(tx.QueryRowContext(ctx,
		`SELECT rev, kind, note, created_at, version, n_messages, full FROM revisions WHERE session_id = ? AND rev = ?`, id, rev), &full)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, kompact.Errorf(kompact.ENotFound, "session %q has no revision %d", id, rev).
			WithFixes("List the session's revisions to see which exist.")
	}
	if err != nil {
		return nil, nil, err
	}
	// A revision's list is the rows alive just before it (see
	// migrations/0002), or, for one recorded before that, its own copy.
	q := `SELECT m.body_id, b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = ?1 AND m.born < ?2 AND (m.dead IS NULL OR m.dead >= ?2) ORDER BY m.pos`
	if full {
		q = `SELECT r.body_id, b.body FROM revision_messages r JOIN bodies b ON b.id = r.body_id
		WHERE r.session_id = ?1 AND r.rev = ?2 ORDER BY r.pos`
	}
	rows, err := tx.QueryContext(ctx, q, id, rev)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	msgs := make([]kompact.Message, 0, info.Messages)
	bodyIDs := make([]int64, 0, info.Messages)
	for rows.Next() {
		var bodyID int64
		var body sql.RawBytes
		if err := rows.Scan(&bodyID, &body); err != nil {
			return nil, nil, err
		}
		m, err := kompact.DecodeStoredMessage(body, len(msgs))
		if err != nil {
			return nil, nil, corrupt(fmt.Sprintf("message %d of revision %d of session %q", len(msgs)+1, rev, id), err)
		}
		msgs = append(msgs, m)
		bodyIDs = append(bodyIDs, bodyID)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if len(msgs) != info.Messages {
		return nil, nil, kompact.Errorf(kompact.EInternal, "sqlite store: revision %d of session %q should hold %d messages and holds %d", rev, id, info.Messages, len(msgs))
	}
	return &kompact.Revision{RevisionInfo: *info, Before: msgs}, bodyIDs, nil
}

// GetRevision returns revision rev of the session with the messages it
// holds.
func (s *Store) GetRevision(ctx context.Context, id string, rev int64) (*kompact.Revision, error) {
	var out *kompact.Revision
	err := s.read(ctx, "get revision", func(tx *sql.Tx) error {
		if _, err := loadSession(ctx, tx, id); err != nil {
			return err
		}
		r, _, err := loadRevision(ctx, tx, id, rev)
		out = r
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RestoreRevision puts back the messages revision rev holds. It records a
// restore revision holding the messages it replaces, so it can be undone in
// turn. It reads the revision's ids and body ids, not its bodies: the
// restored list's token estimate is left to the next read (as an undo
// does), so the work follows the rows it writes.
func (s *Store) RestoreRevision(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	var out kompact.SessionInfo
	var info *kompact.RevisionInfo
	err := s.write(ctx, "restore revision", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		old, msgs, bodyIDs, err := revisionRefs(ctx, tx, id, rev)
		if err != nil {
			return err
		}
		now := s.now(row.Updated)
		version := row.Version + 1
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET dead = ? WHERE session_id = ? AND dead IS NULL`, row.NextRev, id); err != nil {
			return err
		}
		if err := insertRefs(ctx, tx, id, row.NextRev, msgs, bodyIDs); err != nil {
			return err
		}
		// Recorded (and old revisions pruned) once the restored messages
		// refer to their bodies again.
		info, err = recordRevision(ctx, tx, row, kompact.RevisionRestore, fmt.Sprintf("restored revision %d (%s)", rev, old.Kind), now, version, s.keep)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET first_pos = 0, n_messages = ?, next_rev = ?, version = ?, updated_at = ?, rewritten_version = ? WHERE id = ?`,
			len(msgs), row.NextRev+1, version, formatTime(now), version, id); err != nil {
			return err
		}
		if err := setAccount(ctx, tx, id, 0, storeutil.UnknownPending, false); err != nil {
			return err
		}
		row.FirstPos, row.N, row.Version, row.Updated = 0, int64(len(msgs)), version, now
		out = row.Info()
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &out, info, nil
}

// revisionRefs returns revision rev's description and the messages it
// holds as references: each message with its id alone, and its body id. A
// revision recorded before row lifetimes (full) keeps no ids of its own:
// its bodies are read for them.
func revisionRefs(ctx context.Context, tx *sql.Tx, id string, rev int64) (*kompact.RevisionInfo, []kompact.Message, []int64, error) {
	var full bool
	err := tx.QueryRowContext(ctx, `SELECT full FROM revisions WHERE session_id = ? AND rev = ?`, id, rev).Scan(&full)
	if err != nil || full {
		r, bodyIDs, err := loadRevision(ctx, tx, id, rev) // words a missing revision too
		if err != nil {
			return nil, nil, nil, err
		}
		return &r.RevisionInfo, r.Before, bodyIDs, nil
	}
	info, err := scanRevisionInfo(tx.QueryRowContext(ctx,
		`SELECT rev, kind, note, created_at, version, n_messages, full FROM revisions WHERE session_id = ? AND rev = ?`, id, rev), &full)
	if err != nil {
		return nil, nil, nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, body_id FROM messages
		WHERE session_id = ?1 AND born < ?2 AND (dead IS NULL OR dead >= ?2) ORDER BY pos`, id, rev)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	msgs := make([]kompact.Message, 0, info.Messages)
	bodyIDs := make([]int64, 0, info.Messages)
	for rows.Next() {
		var m kompact.Message
		var bodyID int64
		if err := rows.Scan(&m.ID, &bodyID); err != nil {
			return nil, nil, nil, err
		}
		msgs = append(msgs, m)
		bodyIDs = append(bodyIDs, bodyID)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	if len(msgs) != info.Messages {
		return nil, nil, nil, kompact.Errorf(kompact.EInternal, "sqlite store: revision %d of session %q should hold %d messages and holds %d", rev, id, info.Messages, len(msgs))
	}
	return info, msgs, bodyIDs, nil
}
