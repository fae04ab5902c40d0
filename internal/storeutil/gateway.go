package storeutil

import (
	"context"

	"kompact"
)

// Gateway sessions (kompact.GatewayStore, migration 0008): a session the
// compaction gateway created has a record beside its row, with the
// conversation key that finds it, a sequence number that every swap bumps
// and the gateway's state, which the store keeps as opaque bytes. The
// record goes with its session.

// GatewayTx is what a store supplies for the gateway's records: part of
// Tx.
type GatewayTx interface {
	// InsertGatewayRecord adds r (its key, chain, seq, state and side
	// call mark), the
	// record of a session just created; among the records of its key it
	// is the one created last.
	InsertGatewayRecord(ctx context.Context, r *kompact.GatewayRecord) error
	// GatewayRecord reads the record of session id.
	GatewayRecord(ctx context.Context, id string) (*kompact.GatewayRecord, error)
	// FindGatewayRecords reads at most limit records of key, the one
	// created last first, through the index on the key; only those whose
	// chain is one of chains, unless chains is nil.
	FindGatewayRecords(ctx context.Context, key string, chains []string, limit int) ([]kompact.GatewayRecord, error)
	// SwapGatewayRecord sets the chain, state and side call mark of
	// session id's record, and its seq to seq+1, when its seq is seq; it
	// reports whether it was.
	SwapGatewayRecord(ctx context.Context, id string, seq int64, chain string, state []byte, sideCall bool) (bool, error)
}

// DefaultGatewayRecords is how many records FindGatewayRecords returns at
// most when it is given no limit (0 or less).
const DefaultGatewayRecords = 16

// CreateGatewaySession creates the session in as CreateSession does, with
// its gateway record r (key, chain, state and side call mark; Seq 1), in
// one write.
func (c *Core) CreateGatewaySession(ctx context.Context, in *kompact.Session, r kompact.GatewayRecord) (*kompact.SessionInfo, error) {
	return c.create(ctx, in, "create gateway session", func(tx Tx, row *SessionRow) error {
		row.Gateway, row.SideCall = true, r.SideCall
		return tx.InsertGatewayRecord(ctx, &kompact.GatewayRecord{SessionID: row.ID, Key: r.Key, Chain: r.Chain, Seq: 1, State: stateBytes(r.State), SideCall: r.SideCall})
	})
}

// stateBytes is state as a store keeps it: never nil (the column is NOT
// NULL).
func stateBytes(state []byte) []byte {
	if state == nil {
		return []byte{}
	}
	return state
}

// GetGatewayRecord returns the record of session id: ENotFound when there
// is no such session or it is not a gateway session.
func (c *Core) GetGatewayRecord(ctx context.Context, id string) (*kompact.GatewayRecord, error) {
	var out *kompact.GatewayRecord
	err := c.db.Read(ctx, "get gateway record", func(tx Tx) (err error) {
		out, err = gatewayRecord(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// gatewayRecord reads the record of session id, telling a missing session
// from one that is not the gateway's when there is none.
func gatewayRecord(ctx context.Context, tx Tx, id string) (*kompact.GatewayRecord, error) {
	r, err := tx.GatewayRecord(ctx, id)
	if !noRow(err) {
		return r, err
	}
	if _, err := loadSession(ctx, tx, id); err != nil {
		return nil, err
	}
	return nil, kompact.Errorf(kompact.ENotFound, "session %q is not a gateway session: it has no gateway record", id).
		WithFixes("Check the session id; only a session the gateway created has a record.")
}

// FindGatewayRecords returns the records of key whose chain is one of
// chains (all of them when chains is nil), the one created last first, at
// most limit of them (DefaultGatewayRecords when limit <= 0). More than
// kompact.MaxGatewayChains chains are EInvalid.
func (c *Core) FindGatewayRecords(ctx context.Context, key string, chains []string, limit int) ([]kompact.GatewayRecord, error) {
	if limit <= 0 {
		limit = DefaultGatewayRecords
	}
	if len(chains) > kompact.MaxGatewayChains {
		return nil, kompact.Errorf(kompact.EInvalid, "%d chains to find gateway records by; at most %d", len(chains), kompact.MaxGatewayChains).
			WithFixes("Find the records a batch of chains at a time.")
	}
	if chains != nil && len(chains) == 0 {
		return []kompact.GatewayRecord{}, nil
	}
	var out []kompact.GatewayRecord
	err := c.db.Read(ctx, "find gateway records", func(tx Tx) (err error) {
		out, err = tx.FindGatewayRecords(ctx, key, chains, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []kompact.GatewayRecord{}
	}
	return out, nil
}

// SwapGatewayRecord replaces the state of session id's record when its seq
// is still seq and the session's Rewritten is u.Rewritten (unless that is
// 0; else EConflict, and nothing changes), and appends msgs to
// the session in the same write, as AppendMessages does (the same checks,
// ids, version, token figures and answer; the record is no longer a side
// call), except that a message whose id
// the session has is EConflict even when the session ends with msgs: a
// swap is not retried once it committed (its seq moved on). The ids of
// u.Pin (each one of msgs') join the session's pinned list in the same
// write, as many as kompact.MaxPinned leaves room for (addPins). Without
// msgs the session's row does not change.
func (c *Core) SwapGatewayRecord(ctx context.Context, id string, seq int64, u kompact.GatewayUpdate, in []kompact.Message) (*kompact.GatewayRecord, *kompact.Appended, error) {
	var msgs []kompact.Message
	var given map[string]bool
	if len(in) > 0 {
		var err error
		if msgs, given, err = NewAppend(in); err != nil {
			return nil, nil, err
		}
	}
	if err := checkAppendPins(u.Pin, msgs); err != nil {
		return nil, nil, err
	}
	var rec *kompact.GatewayRecord
	var out *kompact.Appended
	err := c.db.Write(ctx, "swap gateway record", func(tx Tx) error {
		// Loading the row keeps other writers to the session off, so the
		// seq read next stays until the commit.
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if rec, err = gatewayRecord(ctx, tx, id); err != nil {
			return err
		}
		if rec.Seq != seq {
			return staleSeq(id, seq, rec.Seq)
		}
		if u.Rewritten != 0 && row.Rewritten != u.Rewritten {
			return kompact.Errorf(kompact.EConflict, "session %q was rewritten (a compaction, restore or undo) at version %d, after %d", id, row.Rewritten, u.Rewritten).
				WithFixes("Read the session again and derive the record's state from its messages before the swap.")
		}
		if len(msgs) > 0 {
			row.Pinned = addPins(row.Pinned, u.Pin) // saved with the append
			if out, err = c.appendTo(ctx, tx, row, msgs, given, false); err != nil {
				return err
			}
		}
		state, sideCall := stateBytes(u.State), rec.SideCall && len(msgs) == 0
		swapped, err := tx.SwapGatewayRecord(ctx, id, seq, u.Chain, state, sideCall)
		if err == nil && !swapped {
			return staleSeq(id, seq, -1)
		}
		rec.Seq, rec.Chain, rec.State, rec.SideCall = seq+1, u.Chain, state, sideCall
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return rec, out, nil
}

// staleSeq is the EConflict of a swap whose seq is not the record's (now,
// or -1 when unknown).
func staleSeq(id string, seq, now int64) error {
	e := kompact.Errorf(kompact.EConflict, "the gateway record of session %q changed: its seq is no longer %d", id, seq)
	if now >= 0 {
		e = kompact.Errorf(kompact.EConflict, "the gateway record of session %q is at seq %d, not %d: another request changed it", id, now, seq)
	}
	return e.WithFixes("Read the record again (GetGatewayRecord) and retry the swap with its seq.")
}
