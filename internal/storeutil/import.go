package storeutil

import (
	"context"
	"strconv"
	"strings"
	"time"

	"kompact"
	"kompact/internal/title"
)

// ImportSession stores a new session as CreateSession does, its messages
// given in batches by next (a batch without messages ends them), in one
// transaction: an error from next, or in any batch, leaves no session. Only
// a batch at a time is held, whatever the session's length. head's messages
// are not read. head, the batches and their ids are checked, and ids given,
// as CreateSession checks a session and gives ids; in the one case a streamed pass cannot give the same ids (a message
// without an id, then a later one whose given id m_N is at or above the
// ids already handed out), the session is read back and written again
// whole, in the same transaction.
func (c *Core) ImportSession(ctx context.Context, head *kompact.Session, next func() ([]kompact.Message, error)) (*kompact.SessionInfo, error) {
	if err := kompact.ValidateSession(headOnly(head)); err != nil {
		return nil, err
	}
	pins, err := newPinSet(head.Pinned)
	if err != nil {
		return nil, err
	}
	var row *SessionRow
	err = c.db.Write(ctx, "import session", func(tx Tx) error {
		now := c.now(time.Time{})
		row = &SessionRow{ID: head.ID, Agent: head.Agent, Model: head.CompactionModel, Version: 1, Created: now, Updated: now,
			NextMsg: 1, NextRev: 1, Rewritten: 1}
		if err := insertSession(ctx, tx, row); err != nil {
			return err
		}
		im := &importer{c: c, tx: tx, row: row, pins: pins,
			check: kompact.MessageCheck{Rules: kompact.AllMessageRules, CopyIDs: true}}
		for {
			batch, err := next()
			if err != nil {
				return err
			}
			if len(batch) == 0 {
				return im.finish(ctx)
			}
			if err := im.add(ctx, batch); err != nil {
				return err
			}
			if im.redo {
				return im.whole(ctx, next)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	out := row.Info()
	return &out, nil
}

// importer is an import under way: the messages stored so far.
type importer struct {
	c   *Core
	tx  Tx
	row *SessionRow
	// check applies the message rules to the batches in turn: a given id
	// is checked against those of earlier batches too.
	check kompact.MessageCheck
	// assigned lists the indexes of the messages given an id; first is the
	// number of the first id handed out.
	assigned []int
	first    int64
	chars    int
	redo     bool
	// batch is the batch read when redo was found (not stored).
	batch []kompact.Message
	// pins resolves the document's pinned refs as the messages go by.
	pins *pinSet
}

// add checks and stores a batch.
func (im *importer) add(ctx context.Context, batch []kompact.Message) error {
	base := int(im.row.N)
	if err := im.c.fits(im.row.ID, im.row.N, im.row.N+int64(len(batch))); err != nil {
		return err
	}
	if err := im.check.Check(batch); err != nil {
		return err
	}
	msgs := canonical(batch)
	given := givenIDs(msgs)
	for id := range given {
		if n, ok := counterID(id); ok && len(im.assigned) > 0 && n >= im.first {
			im.redo, im.batch = true, msgs
		}
	}
	if im.redo {
		return nil
	}
	AssignIDs(msgs, given, &im.row.NextMsg)
	for i := range msgs {
		if batch[i].ID == "" {
			if len(im.assigned) == 0 {
				im.first, _ = counterID(msgs[i].ID)
			}
			im.assigned = append(im.assigned, base+i)
		}
	}
	if err := im.tx.InsertMessages(ctx, im.row.ID, im.row.N, 0, msgs, nil); err != nil {
		return err
	}
	im.pins.see(msgs, im.row.N)
	im.row.N += int64(len(msgs))
	for i := range msgs {
		im.chars += msgs[i].TextLen()
	}
	if im.row.Title == "" {
		im.row.Title = title.DefaultTitle(msgs)
	}
	return nil
}

// counterID returns N of an id m_N as AssignIDs reads it.
func counterID(id string) (int64, bool) {
	if !strings.HasPrefix(id, "m_") {
		return 0, false
	}
	n, err := strconv.ParseInt(id[2:], 10, 64)
	return n, err == nil
}

// finish records the session's count, counter, title and tokens.
func (im *importer) finish(ctx context.Context) error {
	var err error
	if im.row.Pinned, err = im.pins.column(); err != nil {
		return err
	}
	if err := im.tx.SaveSession(ctx, im.row); err != nil {
		return err
	}
	// As if the messages were appended in one call: pending is their
	// estimate (kimi-cli's append_message).
	return im.tx.SetTokens(ctx, im.row.ID, 0, int64(im.chars/4), false)
}

// whole writes the session again from its start, all its messages in
// memory, as CreateSession would: the stored ones (without the ids they
// were given), the batch that found the need, and the rest.
func (im *importer) whole(ctx context.Context, next func() ([]kompact.Message, error)) error {
	row := im.row
	msgs, err := im.c.messages(ctx, im.tx, row.ID, 0, row.N)
	if err != nil {
		return err
	}
	for _, i := range im.assigned {
		msgs[i].ID = ""
	}
	msgs = append(msgs, im.batch...)
	for {
		batch, err := next()
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			break
		}
		msgs = append(msgs, batch...)
		if err := im.c.fits(row.ID, 0, int64(len(msgs))); err != nil {
			return err
		}
	}
	msgs, nextMsg, err := NewSession(&kompact.Session{Messages: msgs})
	if err != nil {
		return err
	}
	if row.Pinned, err = pinnedColumn(im.pins.refs, msgs); err != nil {
		return err
	}
	if _, err := im.tx.DeleteSession(ctx, row.ID); err != nil {
		return err
	}
	row.N, row.NextMsg, row.Title = int64(len(msgs)), nextMsg, title.DefaultTitle(msgs)
	if err := insertSession(ctx, im.tx, row); err != nil {
		return err
	}
	if err := im.tx.InsertMessages(ctx, row.ID, 0, 0, msgs, nil); err != nil {
		return err
	}
	return im.tx.SetTokens(ctx, row.ID, 0, int64(kompact.EstimateTokens(msgs)), false)
}

// headOnly is head without its messages (an import's come in batches), or
// nil.
func headOnly(head *kompact.Session) *kompact.Session {
	if head == nil {
		return nil
	}
	h := *head
	h.Messages = nil
	return &h
}
