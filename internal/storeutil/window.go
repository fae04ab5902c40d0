package storeutil

import (
	"context"

	"kompact"
)

// StreamWindow reads the window w of the session in one read transaction:
// the session's row, the position of w.Around (messages_live_by_id), then
// the window's bodies by an index range of positions, each passed on as it
// is read. An error of head or body comes back as it is.
func (c *Core) StreamWindow(ctx context.Context, id string, w kompact.MessageWindow, head func(*kompact.WindowHead) error, body func([]byte) error) error {
	var stop error // head's or body's
	err := c.db.Read(ctx, "read a window of a session", func(tx Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		h := &kompact.WindowHead{Session: row.Stored(nil), Total: row.N, Offset: w.Offset}
		if w.Around != "" {
			pos, _, err := tx.LiveMessage(ctx, id, w.Around)
			if noRow(err) {
				return NoMessageError(id, w.Around)
			}
			if err != nil {
				return err
			}
			h.Offset = WindowStart(pos-row.FirstPos, row.N, w.Limit)
		}
		from := row.FirstPos + min(h.Offset, row.N)
		to := min(from+int64(w.Limit), row.FirstPos+row.N)
		if stop = head(h); stop != nil {
			return stop
		}
		var n int64
		err = tx.EachBody(ctx, id, from, to, func(b []byte) error {
			n++
			stop = body(b)
			return stop
		})
		if err == nil && n != to-from {
			err = c.miscount(id, to-from, n)
		}
		return err
	})
	if stop != nil {
		return stop
	}
	return err
}
