// Package storeutil is what kompact's stores (sqlite/, postgres/) share.
// Core holds every kompact.Store method's algorithm, written once over Tx:
// the statements each store supplies in its own SQL (tx.go lists them),
// so a store file holds only its SQL. Under Core lie the pure rules: the
// canonical form a stored message takes, the rules for message and session
// ids, the session row, what a compaction commit, an undo and a preview
// decide, the token account, and the migration runner over the embedded
// migration files.
package storeutil

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"kompact"
)

// Canonical validates msgs and returns copies in the form the store keeps:
// one whose JSON form decodes back to the same bytes. It compacts data
// parts and tool-call extras (as decoding would) and rejects what would not
// decode. The copies share their parts with msgs unless those change.
func Canonical(msgs []kompact.Message, field string) ([]kompact.Message, error) {
	return canonicalFrom(msgs, field, 0)
}

// canonicalFrom is Canonical for messages that are field[base:]: errors
// count from base.
func canonicalFrom(msgs []kompact.Message, field string, base int) ([]kompact.Message, error) {
	out := make([]kompact.Message, len(msgs))
	var scratch bytes.Buffer
	compact := func(raw []byte) ([]byte, bool, error) {
		scratch.Reset()
		if err := json.Compact(&scratch, raw); err != nil {
			return nil, false, err
		}
		if bytes.Equal(scratch.Bytes(), raw) {
			return raw, false, nil
		}
		return bytes.Clone(scratch.Bytes()), true, nil
	}
	for i := range msgs {
		m := msgs[i]
		if !m.Role.Valid() {
			return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].role: unknown role %q; use one of system, user, assistant, tool", field, base+i, m.Role)
		}
		partsCopied := false
		for j := range m.Content {
			p := &m.Content[j]
			if !p.Type.Valid() {
				return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].content[%d].type: unknown part type %q; use one of text, think, image_url, audio_url, video_url, data", field, base+i, j, p.Type)
			}
			if p.Type != kompact.PartData || len(p.Data) == 0 {
				continue
			}
			data, changed, err := compact(p.Data)
			if err != nil {
				return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].content[%d].data: not valid JSON: %v", field, base+i, j, err)
			}
			if changed {
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
			c, changed, err := compact(extras)
			if err != nil || (string(c) != "null" && c[0] != '{') {
				return nil, kompact.Errorf(kompact.EInvalid, "%s[%d].tool_calls[%d].extras: must be a JSON object", field, base+i, j)
			}
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
		out[i] = m
	}
	return out, nil
}

// ClaimIDs adds the ids msgs carry to taken. An id given twice in msgs is
// EInvalid; one already in taken is EConflict.
func ClaimIDs(msgs []kompact.Message, taken map[string]bool, field string) error {
	seen := make(map[string]int, len(msgs))
	for i := range msgs {
		id := msgs[i].ID
		if id == "" {
			continue
		}
		if j, dup := seen[id]; dup {
			return kompact.Errorf(kompact.EInvalid, "%s[%d].id: %q is already the id of %s[%d]", field, i, id, field, j).
				WithFixes("Give every message a unique id, or none to have one assigned.")
		}
		seen[id] = i
		if taken[id] {
			return kompact.Errorf(kompact.EConflict, "%s[%d].id: the session already has a message with the id %q", field, i, id).
				WithFixes("Use another id, or none to have one assigned.")
		}
	}
	for id := range seen {
		taken[id] = true
	}
	return nil
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

// SessionRow is a row of a store's sessions table.
type SessionRow struct {
	ID, Agent, Model string
	Version          int64
	Created, Updated time.Time
	FirstPos, N      int64 // the position of the first live message, and how many there are
	NextMsg, NextRev int64
	Rewritten        int64 // the version after the latest compaction or restore
	Title            string
}

// Info describes the session.
func (r *SessionRow) Info() kompact.SessionInfo {
	return kompact.SessionInfo{
		ID:              r.ID,
		Agent:           r.Agent,
		CompactionModel: r.Model,
		Title:           r.Title,
		Messages:        int(r.N),
		Version:         r.Version,
		CreatedAt:       r.Created,
		UpdatedAt:       r.Updated,
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
		},
		Version:   r.Version,
		CreatedAt: r.Created,
		UpdatedAt: r.Updated,
	}
}

// NewSession checks in and returns its messages in stored form with their
// ids assigned, and the next message number.
func NewSession(in *kompact.Session) ([]kompact.Message, int64, error) {
	if in == nil {
		return nil, 0, kompact.Errorf(kompact.EInvalid, "no session given")
	}
	msgs, err := Canonical(in.Messages, "messages")
	if err != nil {
		return nil, 0, err
	}
	taken := make(map[string]bool, len(msgs))
	if err := ClaimIDs(msgs, taken, "messages"); err != nil {
		return nil, 0, err
	}
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
	msgs, err := Canonical(in, "messages")
	if err != nil {
		return nil, nil, err
	}
	given := map[string]bool{}
	if err := ClaimIDs(msgs, given, "messages"); err != nil {
		return nil, nil, err
	}
	return msgs, given, nil
}
