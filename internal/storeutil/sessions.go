package storeutil

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"time"

	"kompact"
	"kompact/internal/title"
)

// Sessions: creating, reading, listing, deleting, appending, settings.

// CreateSession stores a new session with version 1, checked by
// kompact.ValidateSession (EInvalid). An empty in.ID gets a new id ("s_"
// and 12 random characters); messages without an id get one ("m_" and a
// number), unique within the session. A taken session id is EConflict. in
// is not modified. It
// returns the new session's description.
func (c *Core) CreateSession(ctx context.Context, in *kompact.Session) (*kompact.SessionInfo, error) {
	return c.create(ctx, in, "create session", nil)
}

// create is CreateSession, doing what; with also, when not nil, run in the
// same write once the session is stored.
func (c *Core) create(ctx context.Context, in *kompact.Session, what string, also func(Tx, *SessionRow) error) (*kompact.SessionInfo, error) {
	msgs, next, err := NewSession(in)
	if err != nil {
		return nil, err
	}
	if err := c.fits(in.ID, 0, int64(len(msgs))); err != nil {
		return nil, err
	}
	pinned, err := pinnedColumn(in.Pinned, msgs)
	if err != nil {
		return nil, err
	}
	var row *SessionRow
	err = c.db.Write(ctx, what, func(tx Tx) error {
		now := c.now(time.Time{})
		row = &SessionRow{ID: in.ID, Agent: in.Agent, Model: in.CompactionModel, Version: 1, Created: now, Updated: now,
			N: int64(len(msgs)), NextMsg: next, NextRev: 1, Rewritten: 1, Title: title.DefaultTitle(msgs), Pinned: pinned}
		if err := insertSession(ctx, tx, row); err != nil {
			return err
		}
		if err := tx.InsertMessages(ctx, row.ID, 0, 0, msgs, nil); err != nil {
			return err
		}
		if err := reframe(ctx, tx, row.ID, 0, encodeKimi(in.Kimi)); err != nil {
			return err
		}
		if err := createdTokens(ctx, tx, row.ID, in.Kimi, msgs); err != nil {
			return err
		}
		if also != nil {
			return also(tx, row)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := row.Info()
	return &out, nil
}

// createdTokens records the token figures of a new session of msgs.
func createdTokens(ctx context.Context, tx Tx, id string, kimi *kompact.KimiContext, msgs []kompact.Message) error {
	// A kimi-cli file's figures are restored as kimi-cli restores them.
	if count, pending, ok := kimiRestoredTokens(kimi, msgs); ok {
		return tx.SetTokens(ctx, id, int64(count), int64(pending), false)
	}
	// As if the messages were appended in one call: pending is their
	// estimate (kimi-cli's append_message).
	return tx.SetTokens(ctx, id, 0, int64(kompact.EstimateTokens(msgs)), false)
}

// insertSession adds row; without an id, under a new one.
func insertSession(ctx context.Context, tx Tx, row *SessionRow) error {
	chosen := row.ID != ""
	if row.Generation == 0 {
		row.Generation = NewGeneration()
	}
	for tries := 0; ; tries++ {
		if !chosen {
			row.ID = NewSessionID()
		}
		ok, err := tx.InsertSession(ctx, row)
		if err != nil || ok {
			return err
		}
		if chosen {
			return kompact.Errorf(kompact.EConflict, "a session with the id %q exists already", row.ID).
				WithFixes("Choose another id, or leave it empty to have one assigned.")
		}
		if tries == 10 {
			return fmt.Errorf("no free session id after %d tries", tries)
		}
	}
}

// GetSession returns the session with all its messages.
func (c *Core) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	var out *kompact.StoredSession
	err := c.db.Read(ctx, "get session", func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if out, err = c.session(ctx, tx, row); err != nil {
			return err
		}
		if out.Kimi, err = c.readKimi(ctx, tx, id); err != nil {
			return err
		}
		t, err := tx.Tokens(ctx, id)
		out.Tokens, out.Breaker = Account(t.Count, t.Pending, t.Failures, out.Messages)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetSessionHead reads the session without its messages; when its token
// figure needs them (pending unknown), it reads them with GetSession and
// leaves them out.
func (c *Core) GetSessionHead(ctx context.Context, id string) (*kompact.StoredSession, error) {
	var out *kompact.StoredSession
	whole := false
	err := c.db.Read(ctx, "get session head", func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		out = row.Stored(nil)
		if out.Kimi, err = c.readKimi(ctx, tx, id); err != nil {
			return err
		}
		t, err := tx.Tokens(ctx, id)
		if whole = t.Pending <= UnknownPending; !whole {
			out.Tokens, out.Breaker = Account(t.Count, t.Pending, t.Failures, nil)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if whole {
		if out, err = c.GetSession(ctx, id); err != nil {
			return nil, err
		}
		out.Messages = nil
	}
	return out, nil
}

// StreamSession reads the session in one read transaction, passing each
// stored body on as it is read. An error of head or body comes back as it
// is, whatever the store's wrapping of its own errors.
func (c *Core) StreamSession(ctx context.Context, id string, head func(*kompact.StoredSession) error, body func([]byte) error) error {
	var stop error // head's or body's
	err := c.db.Read(ctx, "read a session", func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		st := row.Stored(nil)
		if st.Kimi, err = c.readKimi(ctx, tx, id); err != nil {
			return err
		}
		if stop = head(st); stop != nil {
			return stop
		}
		var n int64
		err = tx.EachBody(ctx, id, row.FirstPos, math.MaxInt64, func(b []byte) error {
			n++
			stop = body(b)
			return stop
		})
		if err == nil && n != row.N {
			err = c.miscount(id, row.N, n)
		}
		return err
	})
	if stop != nil {
		return stop
	}
	return err
}

// ListSessions describes the sessions f lets through, the most recently
// updated first.
func (c *Core) ListSessions(ctx context.Context, f kompact.SessionFilter) ([]kompact.SessionInfo, error) {
	var rows []SessionRow
	err := c.db.Read(ctx, "list sessions", func(tx Tx) (err error) {
		rows, err = tx.ListSessions(ctx, f)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]kompact.SessionInfo, len(rows))
	for i := range rows {
		out[i] = rows[i].Info()
	}
	return out, nil
}

// DeleteSession deletes the session, its messages and its revisions.
func (c *Core) DeleteSession(ctx context.Context, id string) error {
	return c.db.Write(ctx, "delete session", func(tx Tx) error {
		return one(id)(tx.DeleteSession(ctx, id))
	})
}

// one returns a check that a statement changed the session's row: none is
// ENotFound.
func one(id string) func(int64, error) error {
	return func(n int64, err error) error {
		if err == nil && n == 0 {
			return NotFound(id)
		}
		return err
	}
}

// AppendMessages adds msgs at the end of the session and returns the new
// version and the appended messages. Messages without an id get one. An id
// given twice in msgs is EInvalid, one the session already has EConflict,
// an empty msgs EInvalid, and a session that would exceed its limit
// ETooLarge (kompact.SessionLimiter). It reads no stored message: the ids
// are checked by the index on (session_id, id).
func (c *Core) AppendMessages(ctx context.Context, id string, in []kompact.Message) (*kompact.Appended, error) {
	msgs, given, err := NewAppend(in)
	if err != nil {
		return nil, err
	}
	var out *kompact.Appended
	err = c.db.Write(ctx, "append messages", func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		out, err = c.appendTo(ctx, tx, row, msgs, given, true)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// appendTo appends msgs (NewAppend's, with the ids given claims) to the
// session of row, loaded in tx, and returns what AppendMessages answers.
// With replay, a retry of an append that committed is answered as it was
// (see replayed); without, its ids are taken: EConflict.
func (c *Core) appendTo(ctx context.Context, tx Tx, row *SessionRow, msgs []kompact.Message, given map[string]bool, replay bool) (*kompact.Appended, error) {
	id := row.ID
	if err := c.fits(id, row.N, row.N+int64(len(msgs))); err != nil {
		return nil, err
	}
	AssignIDs(msgs, given, &row.NextMsg)
	if err := checkFree(ctx, tx, id, msgs, row.FirstPos, "messages"); err != nil {
		if !replay {
			return nil, err
		}
		// A retry of an append that committed (its answer lost) is
		// answered as the append was, and stores nothing.
		if out, rerr := c.replayed(ctx, tx, row, msgs, len(given) == len(msgs)); out != nil || rerr != nil {
			return out, rerr
		}
		return nil, err
	}
	if err := tx.InsertMessages(ctx, id, row.FirstPos+row.N, row.NextRev-1, msgs, nil); err != nil {
		return nil, err
	}
	row.N += int64(len(msgs))
	row.Version++
	row.Updated = c.now(row.Updated)
	if row.Title == "" {
		row.Title = title.DefaultTitle(msgs)
	}
	if err := tx.SaveSession(ctx, row); err != nil {
		return nil, err
	}
	out := &kompact.Appended{Version: row.Version, UpdatedAt: row.Updated, Messages: msgs, Rewritten: row.Rewritten, Generation: row.Generation}
	t, agent, err := tx.AddPending(ctx, id, kompact.EstimateTokens(msgs))
	out.Agent = agent
	out.Tokens, out.Breaker = AppendedAccount(t.Count, t.Pending, t.Failures)
	return out, err
}

// replayed returns what an append of msgs answered when the session's
// last messages are msgs already, with the same ids and the same content:
// the append is a retry of one that committed. It returns nil when msgs
// are not such a retry (allIDs says whether every one of them has an id
// of its own: without one a message cannot be recognised).
func (c *Core) replayed(ctx context.Context, tx Tx, row *SessionRow, msgs []kompact.Message, allIDs bool) (*kompact.Appended, error) {
	n := int64(len(msgs))
	if !allIDs || n > row.N {
		return nil, nil
	}
	tail, err := c.messages(ctx, tx, row.ID, row.FirstPos+row.N-n, n)
	if err != nil {
		return nil, err
	}
	for i := range msgs {
		if tail[i].ID != msgs[i].ID || !bytes.Equal(tail[i].AppendJSON(nil), msgs[i].AppendJSON(nil)) {
			return nil, nil
		}
	}
	t, err := tx.Tokens(ctx, row.ID)
	if err != nil {
		return nil, err
	}
	out := &kompact.Appended{Version: row.Version, UpdatedAt: row.Updated, Messages: tail, Agent: row.Agent, Rewritten: row.Rewritten, Generation: row.Generation}
	out.Tokens, out.Breaker = AppendedAccount(t.Count, t.Pending, t.Failures)
	return out, nil
}

// UpdateSettings checks the whole change (kompact.SessionSettings.Check)
// and makes it in one write: the compaction model, the standing
// instructions and the pinned messages (the version goes up with each:
// they change what a compaction sends or keeps), the title, and the token
// figure (as SetTokenCount records it).
func (c *Core) UpdateSettings(ctx context.Context, id string, set kompact.SessionSettings) (*kompact.SessionInfo, error) {
	set, err := set.Check()
	if err != nil {
		return nil, err
	}
	return c.setInfo(ctx, id, "update settings", func(tx Tx, row *SessionRow) error {
		if at := set.At; at != nil && (row.Generation != at.Generation || row.Version != at.Version) {
			return kompact.Errorf(kompact.EConflict, "session %q changed: it is at version %d, not %d, or is another session under its id", id, row.Version, at.Version).
				WithFixes("Read the session again and repeat the change if it still applies.")
		}
		if set.CompactionModel != nil {
			row.Model = *set.CompactionModel
		}
		if set.Instructions != nil {
			row.Instructions = *set.Instructions
		}
		if set.Pinned != nil {
			pinned, err := livePinned(ctx, tx, id, *set.Pinned)
			if err != nil {
				return err
			}
			row.Pinned = pinned
		}
		if set.CompactionModel != nil || set.Instructions != nil || set.Pinned != nil {
			row.Version++
			row.Updated = c.now(row.Updated)
		}
		if set.Title != nil {
			row.Title = *set.Title
		}
		if set.Title != nil && row.Title == "" {
			msgs, err := c.messages(ctx, tx, id, row.FirstPos, row.N)
			if err != nil {
				return err
			}
			row.Title = title.DefaultTitle(msgs)
		}
		if set.TokenCount != nil {
			return one(id)(tx.SetTokenCount(ctx, id, *set.TokenCount))
		}
		return nil
	})
}

// setInfo changes the session's row with change and saves it.
func (c *Core) setInfo(ctx context.Context, id, what string, change func(Tx, *SessionRow) error) (*kompact.SessionInfo, error) {
	var out kompact.SessionInfo
	err := c.db.Write(ctx, what, func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := change(tx, row); err != nil {
			return err
		}
		out = row.Info()
		return tx.SaveSession(ctx, row)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
