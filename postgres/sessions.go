package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"kompact"
	"kompact/internal/storeutil"
)

type sessionRow = storeutil.SessionRow

const sessionCols = `id, agent, compaction_model, version, created_at, updated_at, first_pos, n_messages, next_msg, next_rev, rewritten_version, title`

func scanSession(sc pgx.Row) (*sessionRow, error) {
	var r sessionRow
	if err := sc.Scan(&r.ID, &r.Agent, &r.Model, &r.Version, &r.Created, &r.Updated, &r.FirstPos, &r.N, &r.NextMsg, &r.NextRev, &r.Rewritten, &r.Title); err != nil {
		return nil, err
	}
	r.Created, r.Updated = r.Created.UTC(), r.Updated.UTC()
	return &r, nil
}

// loadSession reads the session's row; with lock, it also locks the row
// until the transaction ends, which serialises writes to the session
// across processes.
func loadSession(ctx context.Context, tx pgx.Tx, id string, lock bool) (*sessionRow, error) {
	q := `SELECT ` + sessionCols + ` FROM sessions WHERE id = $1`
	if lock {
		q += ` FOR UPDATE`
	}
	r, err := scanSession(tx.QueryRow(ctx, q, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound(id)
	}
	return r, err
}

// CreateSession stores a new session with version 1 (see sqlite.Store).
func (s *Store) CreateSession(ctx context.Context, in *kompact.Session) (*kompact.SessionInfo, error) {
	msgs, next, err := storeutil.NewSession(in)
	if err != nil {
		return nil, err
	}
	var out kompact.SessionInfo
	err = s.write(ctx, "create session", func(tx pgx.Tx) error {
		now := s.now(time.Time{})
		id := in.ID
		for tries := 0; ; tries++ {
			if in.ID == "" {
				id = storeutil.NewSessionID()
			}
			tag, err := tx.Exec(ctx, `INSERT INTO sessions (`+sessionCols+`) VALUES ($1, $2, $3, 1, $4, $4, 0, $5, $6, 1, 1, $7) ON CONFLICT (id) DO NOTHING`,
				id, in.Agent, in.CompactionModel, now, len(msgs), next, kompact.DefaultTitle(msgs))
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 1 {
				break
			}
			if in.ID != "" {
				return kompact.Errorf(kompact.EConflict, "a session with the id %q exists already", id).
					WithFixes("Choose another id, or leave it empty to have one assigned.")
			}
			if tries == 10 {
				return fmt.Errorf("no free session id after %d tries", tries)
			}
		}
		if err := insertMessages(ctx, tx, id, 0, 0, msgs, nil); err != nil {
			return err
		}
		// As if the messages were appended in one call: pending is their
		// estimate (kimi-cli's append_message).
		if err := setAccount(ctx, tx, id, 0, int64(kompact.EstimateTokens(msgs)), false); err != nil {
			return err
		}
		row := &sessionRow{ID: id, Agent: in.Agent, Model: in.CompactionModel, Version: 1, Created: now, Updated: now,
			N: int64(len(msgs)), Title: kompact.DefaultTitle(msgs)}
		out = row.Info()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// GetSession returns the session with all its messages.
func (s *Store) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	var row *sessionRow
	var bodies [][]byte
	var acct account
	err := s.read(ctx, "get session", func(tx pgx.Tx) error {
		var err error
		if row, err = loadSession(ctx, tx, id, false); err != nil {
			return err
		}
		if acct, err = readAccount(ctx, tx, id); err != nil {
			return err
		}
		bodies, err = readBodies(ctx, tx, id, row.FirstPos)
		return err
	})
	if err != nil {
		return nil, err
	}
	if int64(len(bodies)) != row.N {
		return nil, kompact.Errorf(kompact.EInternal, "postgres store: session %q should have %d messages and has %d", id, row.N, len(bodies))
	}
	msgs, err := decodeBodies(bodies, id)
	if err != nil {
		return nil, err
	}
	out := row.Stored(msgs)
	out.Tokens, out.Breaker = storeutil.Account(acct.count, acct.pending, acct.failures, msgs)
	return out, nil
}

// ListSessions describes every session, the most recently updated first.
func (s *Store) ListSessions(ctx context.Context) ([]kompact.SessionInfo, error) {
	out := []kompact.SessionInfo{}
	err := s.read(ctx, "list sessions", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+sessionCols+` FROM sessions ORDER BY updated_at DESC, id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanSession(rows)
			if err != nil {
				return err
			}
			out = append(out, r.Info())
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteSession deletes the session, its messages and its revisions.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	return s.write(ctx, "delete session", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM sessions WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return notFound(id)
		}
		return nil
	})
}

// AppendMessages adds msgs at the end of the session (see sqlite.Store).
func (s *Store) AppendMessages(ctx context.Context, id string, in []kompact.Message) (*kompact.Appended, error) {
	msgs, given, err := storeutil.NewAppend(in)
	if err != nil {
		return nil, err
	}
	var out *kompact.Appended
	err = s.write(ctx, "append messages", func(tx pgx.Tx) error {
		row, err := loadSession(ctx, tx, id, true)
		if err != nil {
			return err
		}
		storeutil.AssignIDs(msgs, given, &row.NextMsg)
		if err := checkFree(ctx, tx, id, msgs, row.FirstPos, "messages"); err != nil {
			return err
		}
		if err := insertMessages(ctx, tx, id, row.FirstPos+row.N, row.NextRev-1, msgs, nil); err != nil {
			return err
		}
		row.N += int64(len(msgs))
		row.Version++
		row.Updated = s.now(row.Updated)
		if row.Title == "" {
			row.Title = kompact.DefaultTitle(msgs)
		}
		if _, err := tx.Exec(ctx, `UPDATE sessions SET n_messages = $1, next_msg = $2, version = $3, updated_at = $4, title = $5 WHERE id = $6`,
			row.N, row.NextMsg, row.Version, row.Updated, row.Title, id); err != nil {
			return err
		}
		out = &kompact.Appended{Version: row.Version, UpdatedAt: row.Updated, Messages: msgs}
		return addPending(ctx, tx, id, msgs, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SetCompactionModel sets the session's compaction model, or clears it.
func (s *Store) SetCompactionModel(ctx context.Context, id string, model string) (*kompact.SessionInfo, error) {
	var out kompact.SessionInfo
	err := s.write(ctx, "set compaction model", func(tx pgx.Tx) error {
		row, err := loadSession(ctx, tx, id, true)
		if err != nil {
			return err
		}
		row.Model = model
		row.Version++
		row.Updated = s.now(row.Updated)
		if _, err := tx.Exec(ctx, `UPDATE sessions SET compaction_model = $1, version = $2, updated_at = $3 WHERE id = $4`,
			model, row.Version, row.Updated, id); err != nil {
			return err
		}
		out = row.Info()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// SetTitle renames the session, or gives it its default title again with
// "" (see sqlite.Store). The version does not change.
func (s *Store) SetTitle(ctx context.Context, id string, title string) (*kompact.SessionInfo, error) {
	title, err := kompact.CleanTitle(title)
	if err != nil {
		return nil, err
	}
	var out kompact.SessionInfo
	err = s.write(ctx, "set title", func(tx pgx.Tx) error {
		row, err := loadSession(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if title == "" {
			bodies, err := readBodies(ctx, tx, id, row.FirstPos)
			if err != nil {
				return err
			}
			msgs, err := decodeBodies(bodies, id)
			if err != nil {
				return err
			}
			title = kompact.DefaultTitle(msgs)
		}
		row.Title = title
		if _, err := tx.Exec(ctx, `UPDATE sessions SET title = $1 WHERE id = $2`, title, id); err != nil {
			return err
		}
		out = row.Info()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
