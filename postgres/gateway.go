// Gateway sessions (migration 0008): the statements of the
// gateway_records table.

package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kompact"
)

var _ kompact.GatewayStore = (*Store)(nil)

const gatewayCols = `session_id, conv_key, chain, seq, state, side_call`

func scanGatewayRecord(sc pgx.Row, r *kompact.GatewayRecord) error {
	return sc.Scan(&r.SessionID, &r.Key, &r.Chain, &r.Seq, &r.State, &r.SideCall)
}

// InsertGatewayRecord leaves ord to its sequence.
func (t stmts) InsertGatewayRecord(ctx context.Context, r *kompact.GatewayRecord) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO gateway_records (session_id, conv_key, seq, state, chain, side_call) VALUES ($1, $2, $3, $4, $5, $6)`,
		r.SessionID, r.Key, r.Seq, r.State, r.Chain, r.SideCall)
	return err
}

func (t stmts) GatewayRecord(ctx context.Context, id string) (*kompact.GatewayRecord, error) {
	var r kompact.GatewayRecord
	if err := scanGatewayRecord(t.tx.QueryRow(ctx, `SELECT `+gatewayCols+` FROM gateway_records WHERE session_id = $1`, id), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// findGatewayQuery reads a key's records, newest first, through
// gateway_records_by_key; findChainsQuery those of some chains through
// gateway_records_by_chain (migration 0011).
const (
	findGatewayQuery = `SELECT ` + gatewayCols + ` FROM gateway_records WHERE conv_key = $1 ORDER BY ord DESC LIMIT $2`
	findChainsQuery  = `SELECT ` + gatewayCols + ` FROM gateway_records WHERE conv_key = $1 AND chain = ANY($3) ORDER BY ord DESC LIMIT $2`
)

func (t stmts) FindGatewayRecords(ctx context.Context, key string, chains []string, limit int) ([]kompact.GatewayRecord, error) {
	query, args := findGatewayQuery, []any{key, limit}
	if chains != nil {
		query, args = findChainsQuery, append(args, chains)
	}
	rows, err := t.tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (g kompact.GatewayRecord, err error) { return g, scanGatewayRecord(r, &g) })
}

func (t stmts) SwapGatewayRecord(ctx context.Context, id string, seq int64, chain string, state []byte, sideCall bool) (bool, error) {
	n, err := affected(t.tx.Exec(ctx, `UPDATE gateway_records SET seq = seq + 1, chain = $1, state = $2, side_call = $3 WHERE session_id = $4 AND seq = $5`, chain, state, sideCall, id, seq))
	return n == 1, err
}
