package storeutil

import (
	"context"
	"encoding/json"

	"kompact"
)

// A kimi-cli session's context (kompact.KimiContext: its file's metadata
// lines) is kept as JSON beside the session row (migration 0006), and each
// revision keeps the context the session had just before it, so that a
// restore puts it back with the messages. A kompact session has none, and
// its writes never touch it.

// KimiTx is what a store supplies for the kimi-cli contexts: part of Tx.
type KimiTx interface {
	// Kimi reads the session's kimi-cli context, nil when it has none.
	Kimi(ctx context.Context, id string) ([]byte, error)
	// SetKimi writes it (nil: none).
	SetKimi(ctx context.Context, id string, kimi []byte) error
	// RevisionKimi reads the context revision rev keeps, nil when none.
	RevisionKimi(ctx context.Context, id string, rev int64) ([]byte, error)
	// SetRevisionKimi writes it.
	SetRevisionKimi(ctx context.Context, id string, rev int64, kimi []byte) error
}

// encodeKimi is the stored form of k, nil for none.
func encodeKimi(k *kompact.KimiContext) []byte {
	if k == nil {
		return nil
	}
	return k.AppendJSON(nil)
}

// decodeKimi reads a stored context.
func (c *Core) decodeKimi(id string, b []byte) (*kompact.KimiContext, error) {
	if b == nil {
		return nil, nil
	}
	k := &kompact.KimiContext{}
	if err := json.Unmarshal(b, k); err != nil {
		return nil, Corrupt(c.name, "the kimi-cli context of session "+id, err)
	}
	return k, nil
}

// readKimi returns the session's kimi-cli context.
func (c *Core) readKimi(ctx context.Context, tx Tx, id string) (*kompact.KimiContext, error) {
	b, err := tx.Kimi(ctx, id)
	if err != nil {
		return nil, err
	}
	return c.decodeKimi(id, b)
}

// reframe gives the session the kimi-cli context next after revision rev,
// which keeps the one it had. A nil next leaves the session's as it is.
func reframe(ctx context.Context, tx Tx, id string, rev int64, next []byte) error {
	if next == nil {
		return nil
	}
	old, err := tx.Kimi(ctx, id)
	if err != nil {
		return err
	}
	if old != nil {
		if err := tx.SetRevisionKimi(ctx, id, rev, old); err != nil {
			return err
		}
	}
	return tx.SetKimi(ctx, id, next)
}

// revisionKimi returns the kimi-cli context revision rev keeps, fitted to
// a list of n messages (kimiWithin), in stored form; nil
// when it keeps none.
func (c *Core) revisionKimi(ctx context.Context, tx Tx, id string, rev int64, n int64) ([]byte, error) {
	b, err := tx.RevisionKimi(ctx, id, rev)
	if err != nil || b == nil {
		return nil, err
	}
	k, err := c.decodeKimi(id, b)
	if err != nil {
		return nil, err
	}
	return encodeKimi(kimiWithin(k, int(n))), nil
}
