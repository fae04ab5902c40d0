// Package storeutil is what kompact's stores (sqlite/, postgres/) share.
// Core holds every kompact.Store method's algorithm, written once over Tx:
// the statements each store supplies in its own SQL (tx.go lists them),
// so a store file holds only its SQL. Under Core lie the pure rules: the
// canonical form a stored message takes, how message and session ids are
// given (what a session and its messages must be is kompact's rule,
// kompact.ValidateSession, which the stores apply), the session row, what
// a compaction commit, an undo and a preview decide, the token account,
// and the migration runner over the embedded migration files.
package storeutil

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"kompact"
)

// Canonical checks the form of msgs (kompact.RuleForm, naming them field
// in errors) and returns them in the form the store keeps (see canonical),
// for the caller to read only: msgs itself when they all have that form
// already, so that a compaction's base (the whole session) is not copied.
func Canonical(msgs []kompact.Message, field string) ([]kompact.Message, error) {
	c := kompact.MessageCheck{Field: field, Rules: kompact.RuleForm}
	if err := c.Check(msgs); err != nil {
		return nil, err
	}
	var f canonicalForm
	out := msgs
	for i := range msgs {
		m, changed := f.of(msgs[i])
		if !changed {
			continue
		}
		if &out[0] == &msgs[0] {
			out = slices.Clone(msgs)
		}
		out[i] = m
	}
	return out, nil
}

// checked applies every rule a stored message meets (kompact.MessageCheck
// with kompact.AllMessageRules) to msgs, named field in errors, and
// returns them in stored form with the ids they give.
func checked(msgs []kompact.Message, field string) ([]kompact.Message, map[string]bool, error) {
	c := kompact.MessageCheck{Field: field, Rules: kompact.AllMessageRules}
	if err := c.Check(msgs); err != nil {
		return nil, nil, err
	}
	out := canonical(msgs)
	return out, givenIDs(out), nil
}

// canonical returns copies of msgs, whose form is checked
// (kompact.RuleForm), in the form the store keeps: one whose JSON form
// decodes back to the same bytes (canonicalForm). The copies share their
// parts with msgs unless those change.
func canonical(msgs []kompact.Message) []kompact.Message {
	out := make([]kompact.Message, len(msgs))
	var f canonicalForm
	for i := range msgs {
		out[i], _ = f.of(msgs[i])
	}
	return out
}

// canonicalForm puts messages in the form the store keeps: it compacts
// data parts and tool-call extras (as decoding would) and drops extras
// that are null.
type canonicalForm struct{ scratch bytes.Buffer }

// of returns m in stored form, and whether that differs from m; m's parts
// and tool calls are copied before any of them changes.
func (f *canonicalForm) of(m kompact.Message) (kompact.Message, bool) {
	partsCopied := false
	for j := range m.Content {
		p := &m.Content[j]
		if p.Type != kompact.PartData || len(p.Data) == 0 {
			continue
		}
		if data, changed := f.compact(p.Data); changed {
			if !partsCopied {
				m.Content = append([]kompact.Part(nil), m.Content...)
				partsCopied = true
			}
			m.Content[j].Data = data
		}
	}
	callsCopied := false
	for j := range m.ToolCalls {
		extras := m.ToolCalls[j].Extras
		if len(extras) == 0 {
			continue
		}
		c, changed := f.compact(extras)
		if string(c) == "null" { // decodes as no extras
			c, changed = nil, true
		}
		if changed {
			if !callsCopied {
				m.ToolCalls = append([]kompact.ToolCall{}, m.ToolCalls...)
				callsCopied = true
			}
			m.ToolCalls[j].Extras = c
		}
	}
	return m, partsCopied || callsCopied
}

// compact returns raw, valid JSON, without insignificant white space, and
// whether it had any.
func (f *canonicalForm) compact(raw []byte) ([]byte, bool) {
	f.scratch.Reset()
	if json.Compact(&f.scratch, raw) != nil || bytes.Equal(f.scratch.Bytes(), raw) {
		return raw, false // checked: valid JSON
	}
	return bytes.Clone(f.scratch.Bytes()), true
}

// givenIDs returns the set of the ids msgs give.
func givenIDs(msgs []kompact.Message) map[string]bool {
	ids := make(map[string]bool, len(msgs))
	for i := range msgs {
		if msgs[i].ID != "" {
			ids[msgs[i].ID] = true
		}
	}
	return ids
}

// AssignIDs gives the messages without an id the next free id m_N, counting
// from *next. A given id of that form moves *next past it, so the counter
// never hands out an id a client chose, even one compacted away since.
func AssignIDs(msgs []kompact.Message, taken map[string]bool, next *int64) {
	for i := range msgs {
		// Only "m_" and digits is parsed: a failed ParseInt allocates its
		// error, for every message of an import whose ids are its own.
		digits, ok := strings.CutPrefix(msgs[i].ID, "m_")
		if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
			continue
		}
		if n, err := strconv.ParseInt(digits, 10, 64); err == nil && n >= *next {
			*next = n + 1
		}
	}
	for i := range msgs {
		if msgs[i].ID != "" {
			continue
		}
		for {
			id := "m_" + strconv.FormatInt(*next, 10)
			*next++
			if !taken[id] {
				msgs[i].ID = id
				taken[id] = true
				break
			}
		}
	}
}

const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567" // base32, lower case

// NewSessionID returns "s_" and 12 random base32 characters (60 bits).
func NewSessionID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (see crypto/rand.Read)
	for i := range b {
		b[i] = idAlphabet[b[i]&31]
	}
	return "s_" + string(b[:])
}

// NewGeneration returns a new session generation
// (kompact.StoredSession.Generation): a random number above 0 (63 bits),
// so that two sessions kept under one id, one after the other, or by two
// instances over one database, have different ones.
func NewGeneration() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (see crypto/rand.Read)
	return int64(binary.BigEndian.Uint64(b[:])>>1) | 1
}

// Recreated is the conflict of a write that read session id in an
// earlier generation: the session was deleted and created again since.
func Recreated(id string) error {
	return kompact.Errorf(kompact.EConflict, "session %q was deleted and created again since the compaction read it", id).
		WithFixes("Reload the session and compact again; nothing was written.")
}

// SessionRow is a row of a store's sessions table.
type SessionRow struct {
	ID, Agent, Model string
	Version          int64
	Created, Updated time.Time
	FirstPos, N      int64 // the position of the first live message, and how many there are
	NextMsg, NextRev int64
	Rewritten        int64 // the version after the latest compaction, restore or undo
	Title            string
	Generation       int64  // tells the session from others once under its id (written once)
	Instructions     string // the session's standing compaction instructions
	Pinned           string // the session's pinned message ids, a JSON list ('' none)
	Gateway          bool   // the session has a gateway record (read, never written)
	SideCall         bool   // that record marks a side call (read, never written)
}

// SessionCols are the sessions table's columns a SessionRow holds, in the
// order of its fields (Gateway aside), in both stores' SQL.
const SessionCols = `id, agent, compaction_model, version, created_at, updated_at, first_pos, n_messages, next_msg, next_rev, rewritten_version, title, generation, instructions, pinned`

// SessionSelect is what a read of a session's row selects: its columns,
// whether it has a gateway record and whether that record marks a side
// call (a primary-key lookup each).
const SessionSelect = SessionCols + `, EXISTS (SELECT 1 FROM gateway_records g WHERE g.session_id = sessions.id), ` + SideCallOf

// SideCallOf is an SQL condition, in both stores' SQL, that holds when
// the session of a sessions row has a gateway record that marks a side
// call (migration 0017).
const SideCallOf = `EXISTS (SELECT 1 FROM gateway_records g WHERE g.session_id = sessions.id AND g.side_call)`

// Info describes the session.
func (r *SessionRow) Info() kompact.SessionInfo {
	return kompact.SessionInfo{
		ID:              r.ID,
		Agent:           r.Agent,
		CompactionModel: r.Model,
		Title:           r.Title,
		Instructions:    r.Instructions,
		Pinned:          DecodePinned(r.Pinned),
		Messages:        int(r.N),
		Version:         r.Version,
		CreatedAt:       r.Created,
		UpdatedAt:       r.Updated,
		Gateway:         r.Gateway,
		SideCall:        r.SideCall,
	}
}

// Stored returns the session with msgs as its messages.
func (r *SessionRow) Stored(msgs []kompact.Message) *kompact.StoredSession {
	return &kompact.StoredSession{
		Session: kompact.Session{
			ID:              r.ID,
			Agent:           r.Agent,
			CompactionModel: r.Model,
			Messages:        msgs,
			Pinned:          DecodePinned(r.Pinned),
		},
		Version:      r.Version,
		CreatedAt:    r.Created,
		UpdatedAt:    r.Updated,
		Rewritten:    r.Rewritten,
		Gateway:      r.Gateway,
		Generation:   r.Generation,
		Instructions: r.Instructions,
	}
}

// NewSession checks in (kompact.ValidateSession) and returns its messages
// in stored form with their ids assigned, and the next message number.
func NewSession(in *kompact.Session) ([]kompact.Message, int64, error) {
	if err := kompact.ValidateSession(in); err != nil {
		return nil, 0, err
	}
	msgs := canonical(in.Messages)
	taken := givenIDs(msgs)
	next := int64(1)
	AssignIDs(msgs, taken, &next)
	return msgs, next, nil
}

// NewAppend checks messages to append and returns them in stored form with
// the ids they claim (AssignIDs gives the others theirs once the session's
// counter is read).
func NewAppend(in []kompact.Message) ([]kompact.Message, map[string]bool, error) {
	if len(in) == 0 {
		return nil, nil, kompact.Errorf(kompact.EInvalid, "no messages to append").
			WithFixes("Send at least one message.")
	}
	return checked(in, "messages")
}
