// Sessions: creating, reading, listing, deleting, appending, settings.

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// sessionRow is a row of the sessions table.
type sessionRow = storeutil.SessionRow

const sessionCols = `id, agent, compaction_model, version, created_at, updated_at, first_pos, n_messages, next_msg, next_rev, rewritten_version, title`

type scanner interface{ Scan(dest ...any) error }

func scanSession(sc scanner) (*sessionRow, error) {
	var r sessionRow
	var created, updated string
	if err := sc.Scan(&r.ID, &r.Agent, &r.Model, &r.Version, &created, &updated, &r.FirstPos, &r.N, &r.NextMsg, &r.NextRev, &r.Rewritten, &r.Title); err != nil {
		return nil, err
	}
	var err1, err2 error
	r.Created, err1 = parseTime(created)
	r.Updated, err2 = parseTime(updated)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("session %q: %w", r.ID, err)
	}
	return &r, nil
}

func loadSession(ctx context.Context, tx *sql.Tx, id string) (*sessionRow, error) {
	r, err := scanSession(tx.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(id)
	}
	return r, err
}

func sessionExists(ctx context.Context, tx *sql.Tx, id string) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// CreateSession stores a new session with version 1. An empty in.ID gets a
// new id ("s_" and 12 random characters); messages without an id get one
// ("m_" and a number), unique within the session. A taken session id is
// EConflict, a message id given twice EInvalid. in is not modified.
func (s *Store) CreateSession(ctx context.Context, in *kompact.Session) (*kompact.SessionInfo, error) {
	msgs, next, err := storeutil.NewSession(in)
	if err != nil {
		return nil, err
	}
	var out kompact.SessionInfo
	err = s.write(ctx, "create session", func(tx *sql.Tx) error {
		id := in.ID
		if id == "" {
			for tries := 0; ; tries++ {
				id = storeutil.NewSessionID()
				exists, err := sessionExists(ctx, tx, id)
				if err != nil {
					return err
				}
				if !exists {
					break
				}
				if tries == 10 {
					return fmt.Errorf("no free session id after %d tries", tries)
				}
			}
		} else if exists, err := sessionExists(ctx, tx, id); err != nil {
			return err
		} else if exists {
			return kompact.Errorf(kompact.EConflict, "a session with the id %q exists already", id).
				WithFixes("Choose another id, or leave it empty to have one assigned.")
		}
		now := s.now(time.Time{})
		ts := formatTime(now)
		row := &sessionRow{ID: id, Agent: in.Agent, Model: in.CompactionModel, Version: 1, Created: now, Updated: now,
			N: int64(len(msgs)), Title: kompact.DefaultTitle(msgs)}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (`+sessionCols+`) VALUES (?, ?, ?, 1, ?, ?, 0, ?, ?, 1, 1, ?)`,
			id, in.Agent, in.CompactionModel, ts, ts, len(msgs), next, row.Title); err != nil {
			return err
		}
		if err := insertMessages(ctx, tx, id, 0, 0, msgs); err != nil {
			return err
		}
		// As if the messages were appended in one call: pending is their
		// estimate (kimi-cli's append_message).
		if err := setAccount(ctx, tx, id, 0, int64(kompact.EstimateTokens(msgs)), false); err != nil {
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

// GetSession returns the session with all its messages.
func (s *Store) GetSession(ctx context.Context, id string) (*kompact.StoredSession, error) {
	var out *kompact.StoredSession
	err := s.read(ctx, "get session", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if out, err = storedSession(ctx, tx, row); err != nil {
			return err
		}
		return readAccount(ctx, tx, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListSessions describes every session, the most recently updated first.
func (s *Store) ListSessions(ctx context.Context) ([]kompact.SessionInfo, error) {
	out := []kompact.SessionInfo{}
	err := s.read(ctx, "list sessions", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions ORDER BY updated_at DESC, id`)
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
	return s.write(ctx, "delete session", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return notFound(id)
		}
		return nil
	})
}

// AppendMessages adds msgs at the end of the session and returns the new
// version and the appended messages. Messages without an id get one. An id
// given twice in msgs is EInvalid, one the session already has EConflict,
// and an empty msgs EInvalid. It reads no stored message: the ids are
// checked by the index on (session_id, id).
func (s *Store) AppendMessages(ctx context.Context, id string, in []kompact.Message) (*kompact.Appended, error) {
	msgs, given, err := storeutil.NewAppend(in)
	if err != nil {
		return nil, err
	}
	var out *kompact.Appended
	err = s.write(ctx, "append messages", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		storeutil.AssignIDs(msgs, given, &row.NextMsg)
		if err := checkFree(ctx, tx, id, msgs, row.FirstPos, "messages"); err != nil {
			return err
		}
		if err := insertMessages(ctx, tx, id, row.FirstPos+row.N, row.NextRev-1, msgs); err != nil {
			return err
		}
		row.N += int64(len(msgs))
		row.Version++
		row.Updated = s.now(row.Updated)
		if row.Title == "" {
			row.Title = kompact.DefaultTitle(msgs)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET n_messages = ?, next_msg = ?, version = ?, updated_at = ?, title = ? WHERE id = ?`,
			row.N, row.NextMsg, row.Version, formatTime(row.Updated), row.Title, id); err != nil {
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

// SetCompactionModel sets the session's compaction model, or clears it with
// "". It is a write: the version goes up.
func (s *Store) SetCompactionModel(ctx context.Context, id string, model string) (*kompact.SessionInfo, error) {
	var out kompact.SessionInfo
	err := s.write(ctx, "set compaction model", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		row.Model = model
		row.Version++
		row.Updated = s.now(row.Updated)
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET compaction_model = ?, version = ?, updated_at = ? WHERE id = ?`,
			model, row.Version, formatTime(row.Updated), id); err != nil {
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

// storedSession reads row's messages and returns the whole stored session.
func storedSession(ctx context.Context, tx *sql.Tx, row *sessionRow) (*kompact.StoredSession, error) {
	msgs, err := readMessages(ctx, tx, row)
	if err != nil {
		return nil, err
	}
	return row.Stored(msgs), nil
}

// SetTitle renames the session, or gives it its default title again with
// "" (which reads its messages). The version does not change.
func (s *Store) SetTitle(ctx context.Context, id string, title string) (*kompact.SessionInfo, error) {
	title, err := kompact.CleanTitle(title)
	if err != nil {
		return nil, err
	}
	var out kompact.SessionInfo
	err = s.write(ctx, "set title", func(tx *sql.Tx) error {
		row, err := loadSession(ctx, tx, id)
		if err != nil {
			return err
		}
		if title == "" {
			msgs, err := readMessages(ctx, tx, row)
			if err != nil {
				return err
			}
			title = kompact.DefaultTitle(msgs)
		}
		row.Title = title
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE id = ?`, title, id); err != nil {
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
