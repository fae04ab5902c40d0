package memstore

import (
	"maps"
	"slices"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// state is everything the store holds: the tables of the SQL stores, as
// maps.
type state struct {
	sessions map[string]*session
	bodies   map[int64]body
	lastBody int64
	previews map[string]preview // by id
	evicted  map[string]evicted // by id
	lastOrd  map[string]int64   // the last gateway record's ord, by key
}

// session is a session's row and all it holds.
type session struct {
	row    storeutil.SessionRow
	kimi   []byte
	tokens storeutil.TokenRow
	// failureLog is the automatic compaction failure log (JSON); nil is [].
	failureLog []byte
	msgs       []msgRow // every row, live and retired, in the order inserted
	revs       map[int64]*revision
	gateway    *gatewayRecord
}

// msgRow is a message row: live while dead is 0, else retired by
// revision dead.
type msgRow struct {
	id                    string
	pos, born, dead, body int64
}

// body is a stored message body and the length of its text.
type body struct {
	session string
	data    []byte
	textLen int64
}

type revision struct {
	info kompact.RevisionInfo
	fid  any
	kimi []byte
}

type preview struct {
	p    kompact.Preview
	size int64
}

type evicted struct {
	session string
	expires time.Time
}

type gatewayRecord struct {
	rec kompact.GatewayRecord
	ord int64
}

func newState() *state {
	return &state{sessions: map[string]*session{}, bodies: map[int64]body{}, previews: map[string]preview{},
		evicted: map[string]evicted{}, lastOrd: map[string]int64{}}
}

// clone copies the state for a write: maps and rows are copied; byte
// slices, never changed in place, are shared.
func (s *state) clone() *state {
	c := &state{bodies: maps.Clone(s.bodies), lastBody: s.lastBody, previews: maps.Clone(s.previews),
		evicted: maps.Clone(s.evicted), lastOrd: maps.Clone(s.lastOrd), sessions: make(map[string]*session, len(s.sessions))}
	for id, ss := range s.sessions {
		n := *ss
		n.msgs = slices.Clone(ss.msgs)
		n.revs = make(map[int64]*revision, len(ss.revs))
		for k, r := range ss.revs {
			rc := *r
			n.revs[k] = &rc
		}
		if ss.gateway != nil {
			g := *ss.gateway
			n.gateway = &g
		}
		c.sessions[id] = &n
	}
	return c
}

// rows returns the session's rows that keep, sorted by position.
func (ss *session) rows(keep func(*msgRow) bool) []*msgRow {
	var out []*msgRow
	for i := range ss.msgs {
		if keep(&ss.msgs[i]) {
			out = append(out, &ss.msgs[i])
		}
	}
	slices.SortStableFunc(out, func(a, b *msgRow) int { return int(min(max(a.pos-b.pos, -1), 1)) })
	return out
}

// live returns the session's live rows at positions [from, to).
func (ss *session) live(from, to int64) []*msgRow {
	return ss.rows(func(m *msgRow) bool { return m.dead == 0 && m.pos >= from && m.pos < to })
}

// inRevision returns the rows revision rev holds: born before it and live
// until it.
func (ss *session) inRevision(rev int64) []*msgRow {
	return ss.rows(func(m *msgRow) bool { return m.born < rev && (m.dead == 0 || m.dead >= rev) })
}
