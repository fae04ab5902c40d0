package storeutil

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"kompact"
)

// Ref is a stored message's place in a session: its id and the id of its
// stored body.
type Ref struct {
	ID     string
	BodyID int64
}

// CommitPlan is a compaction commit checked and put in stored form before
// any store is read: the replacement (ids claimed, not yet assigned), the
// replaced base, and the revision kind to record.
type CommitPlan struct {
	Commit kompact.Commit
	Repl   []kompact.Message
	Base   []kompact.Message // c.Base[:c.End] in stored form
	Given  map[string]bool   // the ids Repl claims
	Kind   string
}

// PlanCommit checks c's end and the replacement (every rule a stored
// message meets) and the replaced base (its form), puts both in stored
// form (so that a base equal in JSON value but written differently still
// matches) and claims the replacement's ids.
func PlanCommit(c kompact.Commit) (*CommitPlan, error) {
	if c.End < 0 || c.End > len(c.Base) {
		_, err := Rebase(nil, c) // reports the bad end
		return nil, err
	}
	repl, given, err := checked(c.Replacement, "replacement")
	if err != nil {
		return nil, err
	}
	base, err := Canonical(c.Base[:c.End], "base")
	if err != nil {
		return nil, err
	}
	kind := c.Kind
	if kind == "" {
		kind = kompact.RevisionCompaction
	}
	return &CommitPlan{Commit: c, Repl: repl, Base: base, Given: given, Kind: kind}, nil
}

// TooShort is the conflict of a session that now holds fewer than the
// messages the commit replaces, or nil.
func (p *CommitPlan) TooShort(n int64) error {
	if n < int64(p.Commit.End) {
		return kompact.Errorf(kompact.EConflict, "the session has %s now, fewer than the %d this compaction replaces", kompact.CountOf(int(n), "message"), p.Commit.End).
			WithFixes("Reload the session and compact again.")
	}
	return nil
}

// SameSession is the conflict of a commit that read another session kept
// under row's id before (its generation is set and not row's), or nil.
func (p *CommitPlan) SameSession(row *SessionRow) error {
	if g := p.Commit.Generation; g != 0 && g != row.Generation {
		return Recreated(row.ID)
	}
	return nil
}

// Fast reports whether the commit may skip comparing the replaced bodies:
// its version and generation are set, the session (row) is the one it
// read and only grew since, and the replaced range holds the base's ids.
func (p *CommitPlan) Fast(row *SessionRow, refs []Ref) bool {
	c := p.Commit
	return c.Version > 0 && c.Generation != 0 && c.Generation == row.Generation && c.Version <= row.Version && row.Rewritten <= c.Version &&
		row.N >= int64(len(c.Base)) && SameIDs(refs, p.Base)
}

// Account returns the token count and pending estimate the session holds
// after the commit, given the stored messages after the base's (fast) or
// after c.End (compared).
func (p *CommitPlan) Account(tail []kompact.Message, fast bool) (count, pending int64) {
	c := p.Commit
	return CommitAccount(c, AppendedAfter(tail, fast, len(c.Base)-c.End))
}

// SameIDs reports whether refs hold msgs' ids, in order.
func SameIDs(refs []Ref, msgs []kompact.Message) bool {
	if len(refs) != len(msgs) {
		return false
	}
	for i := range refs {
		if refs[i].ID != msgs[i].ID {
			return false
		}
	}
	return true
}

// KeptBodies returns, for each replacement message, the body id of the
// replaced message it repeats unchanged (same id, same JSON), or 0: a kept
// message (the system prompt) is not stored again at every compaction.
// base is what refs hold (compared, or promised by the commit's version).
func KeptBodies(repl, base []kompact.Message, refs []Ref) []int64 {
	at := make(map[string]int, len(repl))
	for i := range repl {
		at[repl[i].ID] = -1
	}
	for i := range base {
		if _, ok := at[base[i].ID]; ok {
			at[base[i].ID] = i
		}
	}
	out := make([]int64, len(repl))
	var a, b []byte
	for j := range repl {
		i := at[repl[j].ID]
		if i < 0 {
			continue
		}
		a, b = repl[j].AppendJSON(a[:0]), base[i].AppendJSON(b[:0])
		if bytes.Equal(a, b) {
			out[j] = refs[i].BodyID
		}
	}
	return out
}

// CommitCompaction applies c to the session's current messages (see
// Rebase), all in one transaction: it records a revision holding
// the messages as they were, replaces the first c.End of them with
// c.Replacement (whose messages without an id get one), and bumps the
// version. A conflict changes nothing.
//
// A commit that read another session once kept under id
// (kompact.Commit.Generation) is a conflict. When c.Version and
// c.Generation are set and the session was not rewritten since, only
// appends happened: the commit reads the ids and body ids of the replaced
// range and the messages appended since, and compares nothing else. A kept
// message whose JSON is unchanged keeps its stored body.
//
// It returns what changed: the session's description after the commit and
// the revision recorded.
func (c *Core) CommitCompaction(ctx context.Context, id string, cm kompact.Commit) (*kompact.SessionInfo, *kompact.RevisionInfo, error) {
	p, err := PlanCommit(cm)
	if err != nil {
		return nil, nil, err
	}
	var row *SessionRow
	var info *kompact.RevisionInfo
	err = c.db.Write(ctx, "commit compaction", func(tx Tx) error {
		if row, err = loadSession(ctx, tx, id); err != nil {
			return err
		}
		if err := p.SameSession(row); err != nil {
			return err
		}
		if err := p.TooShort(row.N); err != nil {
			return err
		}
		// tail: the stored messages after the base's (fast) or after
		// c.End (compared).
		refs, tail, fast, err := c.readCommitRange(ctx, tx, row, p)
		if err != nil {
			return err
		}
		if info, err = c.rewriteForCommit(ctx, tx, row, p, refs); err != nil {
			return err
		}
		if err := reframe(ctx, tx, id, info.Rev, encodeKimi(cm.Kimi)); err != nil {
			return err
		}
		count, pending := p.Account(tail, fast)
		return tx.SetTokens(ctx, id, count, pending, true)
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
func (c *Core) readCommitRange(ctx context.Context, tx Tx, row *SessionRow, p *CommitPlan) (refs []Ref, tail []kompact.Message, fast bool, err error) {
	end := row.FirstPos + int64(p.Commit.End)
	if refs, err = tx.ReadRefs(ctx, row.ID, row.FirstPos, end); err != nil {
		return nil, nil, false, err
	}
	fast = p.Fast(row, refs)
	from := end
	if fast {
		from = row.FirstPos + int64(len(p.Commit.Base))
	} else if err := compareBase(ctx, tx, refs, p.Base); err != nil {
		return nil, nil, false, err
	}
	tail, err = c.messages(ctx, tx, row.ID, from, -1)
	return refs, tail, fast, err
}

// rewriteForCommit assigns the replacement's ids, retires the replaced
// rows, inserts the replacement just before the kept tail (in the
// positions the compacted messages leave), records the revision and
// updates the session row (and row).
func (c *Core) rewriteForCommit(ctx context.Context, tx Tx, row *SessionRow, p *CommitPlan, refs []Ref) (*kompact.RevisionInfo, error) {
	id, repl := row.ID, p.Repl
	end := row.FirstPos + int64(p.Commit.End)
	AssignIDs(repl, p.Given, &row.NextMsg)
	if err := checkFree(ctx, tx, id, repl, end, "replacement"); err != nil {
		return nil, err
	}
	if err := tx.RetireMessages(ctx, id, row.NextRev, row.FirstPos, end); err != nil {
		return nil, err
	}
	first := end - int64(len(repl))
	if err := tx.InsertMessages(ctx, id, first, row.NextRev, repl, KeptBodies(repl, p.Base, refs)); err != nil {
		return nil, err
	}
	return c.rewritten(ctx, tx, row, p.Kind, p.Commit.Note, p.Commit.Fidelity, first, row.N-int64(p.Commit.End)+int64(len(repl)))
}

// compareBase fails with EConflict, as Rebase does, unless the
// stored bodies of refs are the JSON forms of base.
func compareBase(ctx context.Context, tx Tx, refs []Ref, base []kompact.Message) error {
	if len(refs) != len(base) {
		return fmt.Errorf("%d stored messages in a range of %d", len(refs), len(base))
	}
	ids := make([]int64, len(refs))
	for i := range refs {
		ids[i] = refs[i].BodyID
	}
	var buf []byte
	n := 0
	changed := func(i int) error {
		return kompact.Errorf(kompact.EConflict, "message %s changed while the compaction ran", strconv.Quote(refs[i].ID)).
			WithFixes("Reload the session and compact again; nothing was written.")
	}
	err := tx.EachBodyOf(ctx, ids, func(i int, body []byte) error {
		n++
		if buf = base[i].AppendJSON(buf[:0]); !bytes.Equal(buf, body) {
			return changed(i)
		}
		return nil
	})
	if err == nil && n < len(refs) {
		err = changed(n)
	}
	return err
}
