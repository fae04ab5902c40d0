package storeutil

import (
	"context"
	"time"

	"kompact"
)

// PreviewSize returns the bytes p takes against the limits, or the error
// of a preview larger than lim.MaxBytes on its own.
func PreviewSize(p *kompact.Preview, lim kompact.PreviewLimits) (int64, error) {
	size := int64(len(p.Body))
	if size > lim.MaxBytes {
		return 0, kompact.PreviewTooLargeError(size, lim.MaxBytes)
	}
	return size, nil
}

// PreviewsCrowded reports whether n kept previews of total bytes leave no
// room for one more of size bytes: the one that expires first must go.
func PreviewsCrowded(n int, total, size int64, lim kompact.PreviewLimits) bool {
	return n > 0 && (n >= lim.MaxCount || total+size > lim.MaxBytes)
}

// PreviewIDTaken is the conflict of a preview whose id is kept already.
func PreviewIDTaken(id string) error {
	return kompact.Errorf(kompact.EConflict, "a preview has the id %q already", id)
}

// LivePreview returns p, taken from the store, unless it expired by now.
func LivePreview(p *kompact.Preview, now time.Time) (*kompact.Preview, error) {
	if !now.Before(p.ExpiresAt) {
		return nil, kompact.NoPreviewError(p.SessionID, p.ID)
	}
	return p, nil
}

// PutPreview keeps p, after dropping the expired previews and, while the
// limits would be exceeded, those that expire first. The store keeps other
// writers of previews off for the transaction, so that instances sharing
// a database hold one budget together.
func (c *Core) PutPreview(ctx context.Context, p *kompact.Preview, now time.Time, lim kompact.PreviewLimits) error {
	size, err := PreviewSize(p, lim)
	if err != nil {
		return err
	}
	return c.db.Write(ctx, "keep a preview", func(tx Tx) error {
		ok, err := tx.HoldPreviews(ctx, p.SessionID)
		if err != nil {
			return err
		}
		if !ok {
			return NotFound(p.SessionID)
		}
		if err := sameGeneration(ctx, tx, p); err != nil {
			return err
		}
		if err := makeRoom(ctx, tx, now, size, lim, p.Gateway); err != nil {
			return err
		}
		ok, err = tx.InsertPreview(ctx, p, size)
		if err == nil && !ok {
			err = PreviewIDTaken(p.ID)
		}
		return err
	})
}

// sameGeneration is the conflict of a preview of another session once
// kept under p's session id (p.Generation set and not the session's).
func sameGeneration(ctx context.Context, tx Tx, p *kompact.Preview) error {
	if p.Generation == 0 {
		return nil
	}
	row, err := loadSession(ctx, tx, p.SessionID)
	if err == nil && row.Generation != p.Generation {
		err = Recreated(p.SessionID)
	}
	return err
}

// makeRoom drops the previews expired at now, then those of the same
// budget (the gateway's precomputes, or people's previews: each has the
// limits to itself) that expire first until one more of size bytes fits.
func makeRoom(ctx context.Context, tx Tx, now time.Time, size int64, lim kompact.PreviewLimits, gateway bool) error {
	n, total, err := tx.PreviewTotals(ctx, now, gateway)
	if err != nil {
		return err
	}
	for PreviewsCrowded(n, total, size, lim) {
		sz, err := tx.DropFirstPreview(ctx, gateway)
		if err != nil {
			return err
		}
		n, total = n-1, total-sz
	}
	return nil
}

// TakePreview removes and returns a preview that has not expired.
func (c *Core) TakePreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	return c.onePreview(ctx, c.db.Write, "take a preview", Tx.TakePreview, sessionID, id, now)
}

// GetPreview returns a preview that has not expired, leaving it kept.
func (c *Core) GetPreview(ctx context.Context, sessionID, id string, now time.Time) (*kompact.Preview, error) {
	return c.onePreview(ctx, c.db.Read, "read a preview", Tx.GetPreview, sessionID, id, now)
}

// onePreview runs get (TakePreview or GetPreview) in a transaction of run
// (Write or Read) and returns the preview it finds, if it has not expired,
// with its session's generation (a preview goes with its session).
func (c *Core) onePreview(ctx context.Context, run func(context.Context, string, func(Tx) error) error, what string,
	get func(Tx, context.Context, string, string) (*kompact.Preview, error), sessionID, id string, now time.Time) (*kompact.Preview, error) {
	var p *kompact.Preview
	err := run(ctx, what, func(tx Tx) error {
		var err error
		p, err = get(tx, ctx, sessionID, id)
		if noRow(err) {
			return missingPreview(ctx, tx, sessionID, id)
		}
		if err != nil {
			return err
		}
		row, err := loadSession(ctx, tx, sessionID)
		if err == nil {
			p.Generation = row.Generation
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return LivePreview(p, now)
}

// missingPreview is the ENotFound of a preview the store does not keep:
// one it evicted to make room says so (kompact.EvictedPreviewError).
func missingPreview(ctx context.Context, tx Tx, sessionID, id string) error {
	evicted, err := tx.PreviewEvicted(ctx, sessionID, id)
	if err != nil {
		return err
	}
	if evicted {
		return kompact.EvictedPreviewError(sessionID, id)
	}
	return kompact.NoPreviewError(sessionID, id)
}

// ListPreviews describes the session's previews that have not expired at
// now, the newest first.
func (c *Core) ListPreviews(ctx context.Context, sessionID string, now time.Time) ([]kompact.PreviewInfo, error) {
	var out []kompact.PreviewInfo
	err := c.db.Read(ctx, "list previews", func(tx Tx) error {
		if _, err := loadSession(ctx, tx, sessionID); err != nil {
			return err
		}
		var err error
		out, err = tx.ListPreviews(ctx, sessionID, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CountPreviews counts the previews that have not expired at now, by
// session.
func (c *Core) CountPreviews(ctx context.Context, now time.Time) (map[string]int, error) {
	var out map[string]int
	err := c.db.Read(ctx, "count previews", func(tx Tx) error {
		var err error
		out, err = tx.CountPreviews(ctx, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
