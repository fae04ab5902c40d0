package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

// recordRevision inserts revision row.NextRev (its list is the rows alive
// just before it) and prunes the revisions beyond the newest keep.
func recordRevision(ctx context.Context, tx pgx.Tx, row *sessionRow, kind, note string, now time.Time, version int64, keep int) (*kompact.RevisionInfo, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO revisions (session_id, rev, kind, note, created_at, version, n_messages) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		row.ID, row.NextRev, kind, note, now, version, row.N); err != nil {
		return nil, err
	}
	if keep > 0 && row.NextRev > int64(keep) {
		if err := pruneRevisions(ctx, tx, row.ID, row.NextRev-int64(keep)); err != nil {
			return nil, err
		}
	}
	return &kompact.RevisionInfo{Rev: row.NextRev, Kind: kind, Note: note, CreatedAt: now, Version: version, Messages: int(row.N)}, nil
}

// pruneRevisions deletes the session's revisions up to upTo, the rows only
// they hold, and the bodies nothing else refers to.
func pruneRevisions(ctx context.Context, tx pgx.Tx, id string, upTo int64) error {
	if _, err := tx.Exec(ctx, `DELETE FROM revisions WHERE session_id = $1 AND rev <= $2`, id, upTo); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `WITH gone AS (
			DELETE FROM messages WHERE session_id = $1 AND dead IS NOT NULL AND dead <= $2 RETURNING body_id)
		DELETE FROM bodies b WHERE b.id IN (SELECT DISTINCT body_id FROM gone)
			AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.body_id = b.id AND NOT (m.session_id = $1 AND m.dead IS NOT NULL AND m.dead <= $2))`,
		id, upTo)
	return err
}

// CommitCompaction applies c (see kompact.Rebase and sqlite.Store's
// CommitCompaction, which this follows step for step).
func (s *Store) CommitCompaction(ctx context.Context, id string, c kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	p, err := storeutil.PlanCommit(c)
	if err != nil {
		return nil, nil, err
	}
	var row *sessionRow
	var info *kompact.RevisionInfo
	err = s.write(ctx, "commit compaction", func(tx pgx.Tx) error {
		if row, err = loadSession(ctx, tx, id, true); err != nil {
			return err
		}
		if err := p.TooShort(row.N); err != nil {
			return err
		}
		refs, tail, fast, err := readCommitRange(ctx, tx, row, p)
		if err != nil {
			return err
		}
		if info, err = s.rewriteForCommit(ctx, tx, row, p, refs); err != nil {
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
// after it.
func readCommitRange(ctx context.Context, tx pgx.Tx, row *sessionRow, p *storeutil.CommitPlan) (refs []ref, tail []kompact.Message, fast bool, err error) {
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
// rows, inserts the replacement just before the kept tail, records the
// revision and updates the session row (and row).
func (s *Store) rewriteForCommit(ctx context.Context, tx pgx.Tx, row *sessionRow, p *storeutil.CommitPlan, refs []ref) (*kompact.RevisionInfo, error) {
	id, repl := row.ID, p.Repl
	end := row.FirstPos + int64(p.Commit.End)
	storeutil.AssignIDs(repl, p.Given, &row.NextMsg)
	if err := checkFree(ctx, tx, id, repl, end, "replacement"); err != nil {
		return nil, err
	}
	now := s.now(row.Updated)
	version := row.Version + 1
	rev := row.NextRev
	if _, err := tx.Exec(ctx, `UPDATE messages SET dead = $1 WHERE session_id = $2 AND dead IS NULL AND pos < $3`, rev, id, end); err != nil {
		return nil, err
	}
	first := end - int64(len(repl))
	if err := insertMessages(ctx, tx, id, first, rev, repl, storeutil.KeptBodies(repl, p.Base, refs)); err != nil {
		return nil, err
	}
	info, err := recordRevision(ctx, tx, row, p.Kind, p.Commit.Note, now, version, s.keep)
	if err != nil {
		return nil, err
	}
	row.N = row.N - int64(p.Commit.End) + int64(len(repl))
	if _, err := tx.Exec(ctx, `UPDATE sessions SET first_pos = $1, n_messages = $2, next_msg = $3, next_rev = $4, version = $5, updated_at = $6, rewritten_version = $5 WHERE id = $7`,
		first, row.N, row.NextMsg, row.NextRev+1, version, now, id); err != nil {
		return nil, err
	}
	row.Version, row.Updated = version, now
	return info, nil
}

// ref is a message's place in a session: its id and stored body.
type ref = storeutil.Ref

func readRefs(ctx context.Context, tx pgx.Tx, id string, from, to int64) ([]ref, error) {
	rows, err := tx.Query(ctx, `SELECT id, body_id FROM messages WHERE session_id = $1 AND dead IS NULL AND pos >= $2 AND pos < $3 ORDER BY pos`, id, from, to)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ref, error) {
		var x ref
		err := r.Scan(&x.ID, &x.BodyID)
		return x, err
	})
}

// compareBase fails with EConflict unless the stored bodies of refs are the
// JSON forms of base.
func compareBase(ctx context.Context, tx pgx.Tx, refs []ref, base []kompact.Message) error {
	if len(refs) != len(base) {
		return fmt.Errorf("%d stored messages in a range of %d", len(refs), len(base))
	}
	ids := make([]int64, len(refs))
	for i := range refs {
		ids[i] = refs[i].BodyID
	}
	rows, err := tx.Query(ctx, `SELECT b.body FROM unnest($1::bigint[]) WITH ORDINALITY AS r(id, n) JOIN bodies b ON b.id = r.id ORDER BY r.n`, ids)
	if err != nil {
		return err
	}
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return err
	}
	var buf []byte
	for i := range refs {
		buf = base[i].AppendJSON(buf[:0])
		if i >= len(bodies) || !bytes.Equal(buf, bodies[i]) {
			return kompact.Errorf(kompact.EConflict, "message %s changed while the compaction ran", strconv.Quote(refs[i].ID)).
				WithFixes("Reload the session and compact again; nothing was written.")
		}
	}
	return nil
}

const revisionCols = `rev, kind, note, created_at, version, n_messages`

func scanRevisionInfo(sc pgx.Row) (*kompact.RevisionInfo, error) {
	var info kompact.RevisionInfo
	if err := sc.Scan(&info.Rev, &info.Kind, &info.Note, &info.CreatedAt, &info.Version, &info.Messages); err != nil {
		return nil, err
	}
	info.CreatedAt = info.CreatedAt.UTC()
	return &info, nil
}

// ListRevisions describes the session's revisions, the newest first.
func (s *Store) ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	out := []kompact.RevisionInfo{}
	err := s.read(ctx, "list revisions", func(tx pgx.Tx) error {
		if _, err := loadSession(ctx, tx, id, false); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT `+revisionCols+` FROM revisions WHERE session_id = $1 ORDER BY rev DESC`, id)
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

// revisionRows reads revision rev's description and the ids, body ids and
// bodies of its messages, undecoded.
func revisionRows(ctx context.Context, tx pgx.Tx, id string, rev int64) (*kompact.RevisionInfo, []ref, [][]byte, error) {
	info, err := scanRevisionInfo(tx.QueryRow(ctx, `SELECT `+revisionCols+` FROM revisions WHERE session_id = $1 AND rev = $2`, id, rev))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, nil, kompact.Errorf(kompact.ENotFound, "session %q has no revision %d", id, rev).
			WithFixes("List the session's revisions to see which exist.")
	}
	if err != nil {
		return nil, nil, nil, err
	}
	rows, err := tx.Query(ctx, `SELECT m.id, m.body_id, b.body FROM messages m JOIN bodies b ON b.id = m.body_id
		WHERE m.session_id = $1 AND m.born < $2 AND (m.dead IS NULL OR m.dead >= $2) ORDER BY m.pos`, id, rev)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	refs := make([]ref, 0, info.Messages)
	bodies := make([][]byte, 0, info.Messages)
	for rows.Next() {
		var r ref
		var body []byte
		if err := rows.Scan(&r.ID, &r.BodyID, &body); err != nil {
			return nil, nil, nil, err
		}
		refs = append(refs, r)
		bodies = append(bodies, body)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	if len(refs) != info.Messages {
		return nil, nil, nil, kompact.Errorf(kompact.EInternal, "postgres store: revision %d of session %q should hold %d messages and holds %d", rev, id, info.Messages, len(refs))
	}
	return info, refs, bodies, nil
}

// GetRevision returns revision rev of the session with its messages.
func (s *Store) GetRevision(ctx context.Context, id string, rev int64) (*kompact.Revision, error) {
	var info *kompact.RevisionInfo
	var bodies [][]byte
	err := s.read(ctx, "get revision", func(tx pgx.Tx) error {
		if _, err := loadSession(ctx, tx, id, false); err != nil {
			return err
		}
		var err error
		info, _, bodies, err = revisionRows(ctx, tx, id, rev)
		return err
	})
	if err != nil {
		return nil, err
	}
	msgs, err := decodeBodies(bodies, id)
	if err != nil {
		return nil, err
	}
	return &kompact.Revision{RevisionInfo: *info, Before: msgs}, nil
}

// RestoreRevision puts back the messages revision rev holds and records a
// restore revision (see sqlite.Store's RestoreRevision).
func (s *Store) RestoreRevision(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	var row *sessionRow
	var info *kompact.RevisionInfo
	err := s.write(ctx, "restore revision", func(tx pgx.Tx) error {
		var err error
		if row, err = loadSession(ctx, tx, id, true); err != nil {
			return err
		}
		old, refs, _, err := revisionRows(ctx, tx, id, rev)
		if err != nil {
			return err
		}
		now := s.now(row.Updated)
		version := row.Version + 1
		r := row.NextRev
		if _, err := tx.Exec(ctx, `UPDATE messages SET dead = $1 WHERE session_id = $2 AND dead IS NULL`, r, id); err != nil {
			return err
		}
		ids := make([]string, len(refs))
		bodyIDs := make([]int64, len(refs))
		for i := range refs {
			ids[i], bodyIDs[i] = refs[i].ID, refs[i].BodyID
		}
		if _, err := tx.Exec(ctx, `INSERT INTO messages (session_id, pos, born, id, body_id)
			SELECT $1, n - 1, $2, i, b FROM unnest($3::text[], $4::bigint[]) WITH ORDINALITY AS t(i, b, n)`, id, r, ids, bodyIDs); err != nil {
			return err
		}
		if info, err = recordRevision(ctx, tx, row, kompact.RevisionRestore, fmt.Sprintf("restored revision %d (%s)", rev, old.Kind), now, version, s.keep); err != nil {
			return err
		}
		row.N = int64(len(refs))
		if _, err := tx.Exec(ctx, `UPDATE sessions SET first_pos = 0, n_messages = $1, next_rev = $2, version = $3, updated_at = $4, rewritten_version = $3 WHERE id = $5`,
			row.N, row.NextRev+1, version, now, id); err != nil {
			return err
		}
		// The restored list's token estimate is left to the next read (as
		// an undo does): no body is decoded.
		if err := setAccount(ctx, tx, id, 0, storeutil.UnknownPending, false); err != nil {
			return err
		}
		row.FirstPos, row.Version, row.Updated = 0, version, now
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	out := row.Info()
	return &out, info, nil
}
