// Gateway sessions (migration 0008): the statements of the
// gateway_records table.

package sqlite

import (
	"context"
	"encoding/json"

	"kompact"
)

var _ kompact.GatewayStore = (*Store)(nil)

const gatewayCols = `session_id, conv_key, chain, seq, state, side_call`

func scanGatewayRecord(sc scanner, r *kompact.GatewayRecord) error {
	return sc.Scan(&r.SessionID, &r.Key, &r.Chain, &r.Seq, &r.State, &r.SideCall)
}

// InsertGatewayRecord numbers the record one past the largest of its key:
// the writer is single, so no other write takes the number meanwhile.
func (t stmts) InsertGatewayRecord(ctx context.Context, r *kompact.GatewayRecord) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO gateway_records (session_id, conv_key, ord, seq, state, chain, side_call)
		VALUES (?1, ?2, coalesce((SELECT max(ord) FROM gateway_records WHERE conv_key = ?2), 0) + 1, ?3, ?4, ?5, ?6)`,
		r.SessionID, r.Key, r.Seq, r.State, r.Chain, r.SideCall)
	return err
}

func (t stmts) GatewayRecord(ctx context.Context, id string) (*kompact.GatewayRecord, error) {
	var r kompact.GatewayRecord
	if err := scanGatewayRecord(t.tx.QueryRowContext(ctx, `SELECT `+gatewayCols+` FROM gateway_records WHERE session_id = ?`, id), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// findGatewayQuery reads a key's records, newest first, through
// gateway_records_by_key; findChainsQuery those of some chains through
// gateway_records_by_chain (migration 0011), chains a JSON array.
const (
	findGatewayQuery = `SELECT ` + gatewayCols + ` FROM gateway_records WHERE conv_key = ? ORDER BY ord DESC LIMIT ?`
	findChainsQuery  = `SELECT ` + gatewayCols + ` FROM gateway_records INDEXED BY gateway_records_by_chain
		WHERE conv_key = ? AND chain IN (SELECT value FROM json_each(?)) ORDER BY ord DESC LIMIT ?`
)

func (t stmts) FindGatewayRecords(ctx context.Context, key string, chains []string, limit int) ([]kompact.GatewayRecord, error) {
	if chains == nil {
		rows, err := t.tx.QueryContext(ctx, findGatewayQuery, key, limit)
		return collect(rows, err, 0, scanGatewayRecord)
	}
	list, err := json.Marshal(chains)
	if err != nil {
		return nil, err
	}
	rows, err := t.tx.QueryContext(ctx, findChainsQuery, key, string(list), limit)
	return collect(rows, err, 0, scanGatewayRecord)
}

func (t stmts) SwapGatewayRecord(ctx context.Context, id string, seq int64, chain string, state []byte, sideCall bool) (bool, error) {
	n, err := affected(t.tx.ExecContext(ctx, `UPDATE gateway_records SET seq = seq + 1, chain = ?, state = ?, side_call = ? WHERE session_id = ? AND seq = ?`, chain, state, sideCall, id, seq))
	return n == 1, err
}
