package storeutil

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"kompact"
)

// Revisions: what a rewrite records, and restoring a revision.

// rewritten records revision row.NextRev of kind, with its note and a
// compaction's fidelity report (its list is the rows alive just before
// it: the ones the rewrite removed got dead = its number), prunes the
// revisions beyond the newest keep, and saves row as a session of n
// messages from position first, at a new version. A session grown past
// its limit is refused (fits).
func (c *Core) rewritten(ctx context.Context, tx Tx, row *SessionRow, kind, note string, fid *kompact.Fidelity, first, n int64) (*kompact.RevisionInfo, error) {
	if err := c.fits(row.ID, row.N, n); err != nil {
		return nil, err
	}
	now := c.now(row.Updated)
	info := &kompact.RevisionInfo{Rev: row.NextRev, Kind: kind, Note: note, CreatedAt: now, Version: row.Version + 1, Messages: int(row.N), Fidelity: fid}
	fidelity, err := fidelityColumn(info)
	if err != nil {
		return nil, err
	}
	if err := tx.InsertRevision(ctx, row.ID, info, fidelity); err != nil {
		return nil, err
	}
	if keep := int64(c.keep); keep > 0 && row.NextRev > keep {
		if err := tx.PruneRevisions(ctx, row.ID, row.NextRev-keep); err != nil {
			return nil, err
		}
	}
	row.FirstPos, row.N, row.NextRev = first, n, row.NextRev+1
	row.Version, row.Updated, row.Rewritten = info.Version, now, info.Version
	return info, tx.SaveSession(ctx, row)
}

// ListRevisions describes the session's revisions, the newest first.
func (c *Core) ListRevisions(ctx context.Context, id string) ([]kompact.RevisionInfo, error) {
	var out []kompact.RevisionInfo
	err := c.db.Read(ctx, "list revisions", func(tx Tx) error {
		if _, err := loadSession(ctx, tx, id); err != nil {
			return err
		}
		var err error
		out, err = tx.ListRevisions(ctx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []kompact.RevisionInfo{}
	}
	return out, nil
}

// NoRevision is the error of a revision the session does not have.
func NoRevision(id string, rev int64) error {
	return kompact.Errorf(kompact.ENotFound, "session %q has no revision %d", id, rev).
		WithFixes("List the session's revisions to see which exist.")
}

// loadRevision describes revision rev: ENotFound when there is none.
func loadRevision(ctx context.Context, tx Tx, id string, rev int64) (*kompact.RevisionInfo, bool, error) {
	info, legacy, err := tx.LoadRevision(ctx, id, rev)
	if noRow(err) {
		return nil, false, NoRevision(id, rev)
	}
	return info, legacy, err
}

// revision reads revision rev of the session and decodes its messages. It
// also returns the ids of their stored bodies.
func (c *Core) revision(ctx context.Context, tx Tx, id string, rev int64) (*kompact.Revision, []int64, error) {
	info, legacy, err := loadRevision(ctx, tx, id, rev)
	if err != nil {
		return nil, nil, err
	}
	msgs := make([]kompact.Message, 0, info.Messages)
	bodyIDs := make([]int64, 0, info.Messages)
	decode := bodyDecoder(tx)
	err = tx.EachRevisionBody(ctx, id, rev, legacy, func(bodyID int64, body []byte) error {
		m, err := decode(body, len(msgs))
		if err != nil {
			return Corrupt(c.name, fmt.Sprintf("message %d of revision %d of session %q", len(msgs)+1, rev, id), err)
		}
		msgs = append(msgs, m)
		bodyIDs = append(bodyIDs, bodyID)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if err := c.revisionCount(id, info, len(msgs)); err != nil {
		return nil, nil, err
	}
	return &kompact.Revision{RevisionInfo: *info, Before: msgs}, bodyIDs, nil
}

// revisionCount checks that revision info of session id held the n
// messages read: EInternal when not.
func (c *Core) revisionCount(id string, info *kompact.RevisionInfo, n int) error {
	if n == info.Messages {
		return nil
	}
	return kompact.Errorf(kompact.EInternal, "%s: revision %d of session %q should hold %d messages and holds %d", c.name, info.Rev, id, info.Messages, n)
}

// StreamRevision reads revision rev of the session in one read
// transaction, passing each message's stored body on as it is read: no
// body is decoded, and the revision is never whole in memory.
func (c *Core) StreamRevision(ctx context.Context, id string, rev int64, head func(*kompact.RevisionInfo) error, body func([]byte) error) error {
	var stop error // head's or body's
	err := c.db.Read(ctx, "get revision", func(tx Tx) error {
		if _, err := loadSession(ctx, tx, id); err != nil {
			return err
		}
		info, legacy, err := loadRevision(ctx, tx, id, rev)
		if err != nil {
			return err
		}
		if stop = head(info); stop != nil {
			return stop
		}
		n := 0
		err = tx.EachRevisionBody(ctx, id, rev, legacy, func(_ int64, b []byte) error {
			n++
			stop = body(b)
			return stop
		})
		if err == nil {
			err = c.revisionCount(id, info, n)
		}
		return err
	})
	if stop != nil {
		return stop
	}
	return err
}

// RestoreRevision puts back the messages revision rev holds. It records a
// restore revision holding the messages it replaces, so it can be undone in
// turn. It reads the revision's ids and body ids, not its bodies (but for a
// legacy revision's, which hold the ids): the restored list's estimate
// comes from the text lengths kept with the bodies (listEstimate), so the
// work follows the rows it writes. It returns the session's description
// after the restore.
func (c *Core) RestoreRevision(ctx context.Context, id string, rev int64) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	var row *SessionRow
	var info *kompact.RevisionInfo
	err := c.db.Write(ctx, "restore revision", func(tx Tx) error {
		var err error
		if row, err = loadSession(ctx, tx, id); err != nil {
			return err
		}
		r, msgs, bodyIDs, err := c.revisionRefs(ctx, tx, id, rev)
		if err != nil {
			return err
		}
		if err := tx.RetireMessages(ctx, id, row.NextRev, row.FirstPos, math.MaxInt64); err != nil {
			return err
		}
		if err := tx.InsertMessages(ctx, id, 0, row.NextRev, msgs, bodyIDs); err != nil {
			return err
		}
		// Recorded (and old revisions pruned) once the restored messages
		// refer to their bodies again.
		kimi, err := c.revisionKimi(ctx, tx, id, rev, int64(len(msgs)))
		if err != nil {
			return err
		}
		note := fmt.Sprintf("restored revision %d (%s)", rev, r.Kind)
		if info, err = c.rewritten(ctx, tx, row, kompact.RevisionRestore, note, nil, 0, int64(len(msgs))); err != nil {
			return err
		}
		if err := reframe(ctx, tx, id, info.Rev, kimi); err != nil {
			return err
		}
		pending, err := listEstimate(ctx, tx, id)
		if err != nil {
			return err
		}
		return tx.SetTokens(ctx, id, 0, pending, false)
	})
	if err != nil {
		return nil, nil, err
	}
	out := row.Info()
	return &out, info, nil
}

// revisionRefs returns revision rev's description and the messages it
// holds as references: each message with its id alone, and the ids of
// their bodies. A legacy revision's bodies are decoded for their ids.
func (c *Core) revisionRefs(ctx context.Context, tx Tx, id string, rev int64) (*kompact.RevisionInfo, []kompact.Message, []int64, error) {
	info, legacy, err := loadRevision(ctx, tx, id, rev)
	if err != nil {
		return nil, nil, nil, err
	}
	if legacy {
		r, bodyIDs, err := c.revision(ctx, tx, id, rev)
		if err != nil {
			return nil, nil, nil, err
		}
		return &r.RevisionInfo, r.Before, bodyIDs, nil
	}
	refs, err := tx.RevisionRefs(ctx, id, rev)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := c.revisionCount(id, info, len(refs)); err != nil {
		return nil, nil, nil, err
	}
	msgs := make([]kompact.Message, len(refs))
	bodyIDs := make([]int64, len(refs))
	for i, r := range refs {
		msgs[i].ID, bodyIDs[i] = r.ID, r.BodyID
	}
	return info, msgs, bodyIDs, nil
}

// fidelityColumn is the stored form of a revision's fidelity report: its
// JSON, or nil (SQL NULL) when it has none.
func fidelityColumn(info *kompact.RevisionInfo) (any, error) {
	if info.Fidelity == nil {
		return nil, nil
	}
	b, err := json.Marshal(info.Fidelity)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// ScanFidelity sets info.Fidelity from its stored form (nil: none).
func ScanFidelity(info *kompact.RevisionInfo, stored *string) error {
	if stored == nil {
		return nil
	}
	var f kompact.Fidelity
	if err := json.Unmarshal([]byte(*stored), &f); err != nil {
		return fmt.Errorf("revision %d: fidelity: %w", info.Rev, err)
	}
	info.Fidelity = &f
	return nil
}
