package storeutil

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"kompact"
	"kompact/sessionjson"
)

// Core is the part of a kompact.Store both stores share: every method's
// algorithm, written once over the store's DB. A store embeds it and adds
// Ping and Close; Core itself is each role of a Store (SessionStore,
// RevisionStore, PreviewStore, TokenStore) and a GatewayStore.
type Core struct {
	db   DB
	name string // "sqlite store": the start of internal errors
	keep int    // revisions kept per session; 0 keeps them all
	// maxMsgs bounds the messages of a session (kompact.SessionLimiter).
	maxMsgs int64

	mu   sync.Mutex
	last time.Time     // the latest time handed out: times only grow
	tick time.Duration // the database's time precision
}

var (
	_ kompact.SessionStore  = (*Core)(nil)
	_ kompact.RevisionStore = (*Core)(nil)
	_ kompact.PreviewStore  = (*Core)(nil)
	_ kompact.TokenStore    = (*Core)(nil)
	_ kompact.GatewayStore  = (*Core)(nil)
)

// NewCore returns the Core of the store called name over db, keeping the
// newest keep revisions of a session (0 keeps them all) and handing out
// times of precision tick.
func NewCore(db DB, name string, keep int, tick time.Duration) *Core {
	return &Core{db: db, name: name, keep: max(keep, 0), tick: tick, maxMsgs: kompact.DefaultMaxSessionMessages}
}

// LimitSessionMessages bounds the messages of a session to n (n <= 0:
// kompact.DefaultMaxSessionMessages), as kompact.SessionLimiter says. Call
// it before the store is used.
func (c *Core) LimitSessionMessages(n int) {
	if n <= 0 {
		n = kompact.DefaultMaxSessionMessages
	}
	c.maxMsgs = int64(n)
}

// fits refuses a write that would grow session id from before to n
// messages, past the limit.
func (c *Core) fits(id string, before, n int64) error {
	if n > c.maxMsgs && n > before {
		return kompact.SessionTooLargeError(id, n, c.maxMsgs)
	}
	return nil
}

// now returns the current UTC time, truncated to the database's precision,
// later than every time handed out before and than after (the session's
// last update, read in the transaction, so times grow across processes
// too).
func (c *Core) now(after time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := time.Now().UTC().Truncate(c.tick)
	if !t.After(c.last) {
		t = c.last.Add(c.tick)
	}
	if !t.After(after) {
		t = after.Add(c.tick)
	}
	c.last = t
	return t
}

// NotFound is the error of a session id no session has.
func NotFound(id string) error {
	return kompact.Errorf(kompact.ENotFound, "no session has the id %q", id).
		WithFixes("Check the session id; listing the sessions shows the ones that exist.")
}

// noRow reports whether err is a statement's "no row".
func noRow(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// loadSession reads the session's row: ENotFound when there is none.
func loadSession(ctx context.Context, tx Tx, id string) (*SessionRow, error) {
	row, err := tx.LoadSession(ctx, id)
	if noRow(err) {
		return nil, NotFound(id)
	}
	return row, err
}

// Corrupt is the error of stored data that no longer decodes.
func Corrupt(store, what string, err error) error {
	return kompact.Errorf(kompact.EInternal, "%s: %s is corrupt: %w", store, what, err).
		WithFixes("Restore the database from a backup; the stored JSON no longer decodes.")
}

// messages reads and decodes the session's live messages from position
// from on; want, when 0 or more, is how many there must be.
func (c *Core) messages(ctx context.Context, tx Tx, id string, from, want int64) ([]kompact.Message, error) {
	msgs := make([]kompact.Message, 0, max(want, 0))
	decode := bodyDecoder(tx)
	err := tx.EachBody(ctx, id, from, math.MaxInt64, func(body []byte) error {
		m, err := decode(body, len(msgs))
		if err != nil {
			return Corrupt(c.name, fmt.Sprintf("message %d of session %q", len(msgs)+1, id), err)
		}
		msgs = append(msgs, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if want >= 0 && int64(len(msgs)) != want {
		return nil, c.miscount(id, want, int64(len(msgs)))
	}
	return msgs, nil
}

// bodyDecoder returns the decoder of the bodies tx hands out: when each
// is a buffer of its own (Tx.OwnedBodies), the one that makes it the
// message's memory, decoding escaped strings in place; else the one that
// copies what it keeps out of the driver's reused buffer.
func bodyDecoder(tx Tx) func(body []byte, index int) (kompact.Message, error) {
	if tx.OwnedBodies() {
		return sessionjson.DecodeOwnedMessage
	}
	return sessionjson.DecodeStoredMessage
}

func (c *Core) miscount(id string, want, got int64) error {
	return kompact.Errorf(kompact.EInternal, "%s: session %q should have %d messages and has %d", c.name, id, want, got)
}

// session reads the whole stored session of row.
func (c *Core) session(ctx context.Context, tx Tx, row *SessionRow) (*kompact.StoredSession, error) {
	msgs, err := c.messages(ctx, tx, row.ID, row.FirstPos, row.N)
	if err != nil {
		return nil, err
	}
	return row.Stored(msgs), nil
}

// checkFree fails with EConflict when the session already has, at a
// position from minPos on, a message with the id of one of msgs.
func checkFree(ctx context.Context, tx Tx, id string, msgs []kompact.Message, minPos int64, field string) error {
	i, err := tx.TakenID(ctx, id, msgs, minPos)
	if err != nil || i < 0 {
		return err
	}
	return kompact.Errorf(kompact.EConflict, "%s[%d].id: the session already has a message with the id %q", field, i, msgs[i].ID).
		WithFixes("Use another id, or none to have one assigned.")
}

// Wrap returns err as it is when it is nil or a *kompact.Error, else as
// the EInternal error of the store called name doing what. text, when not
// nil, gives the cause's text (to keep what must not show out of it);
// without it the cause stays wrapped.
func Wrap(name, what string, err error, text func(error) string) error {
	var ke *kompact.Error
	switch {
	case err == nil || errors.As(err, &ke):
		return err
	case text != nil:
		return kompact.Errorf(kompact.EInternal, "%s: %s: %s", name, what, text(err))
	}
	return kompact.Errorf(kompact.EInternal, "%s: %s: %w", name, what, err)
}

// Unavailable returns the EUnavailable error of the store called name
// doing what when the database is out of order for now: reason says how
// in a few words ("the disk is full"), for clients; the cause stays
// wrapped, for the log, its text given by text when not nil.
func Unavailable(name, what, reason string, err error, text func(error) string) error {
	cause := err
	if text != nil {
		cause = errors.New(text(err))
	}
	e := kompact.Errorf(kompact.EUnavailable, "the sessions' database is unavailable for now: %s", reason).
		WithFixes("Retry in a few seconds (see the Retry-After header); if it persists, the server's operator must look at the database (its log names the cause).")
	e.Err = fmt.Errorf("%s: %s: %w", name, what, cause)
	return e
}
