package memstore

// This file is storeutil.Tx over the state: each statement of the SQL
// stores, as a map operation.

import (
	"cmp"
	"context"
	"database/sql"
	"maps"
	"slices"
	"time"

	"kompact"
	"kompact/internal/storeutil"
)

// tx is one transaction over a state: the committed one (a read) or a
// write's copy.
type tx struct{ st *state }

var _ storeutil.Tx = tx{}

// noRow is a statement's error when it finds no row where it wants one.
var noRow = sql.ErrNoRows

func (t tx) session(id string) (*session, error) {
	ss := t.st.sessions[id]
	if ss == nil {
		return nil, noRow
	}
	return ss, nil
}

func (t tx) LoadSession(_ context.Context, id string) (*storeutil.SessionRow, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, err
	}
	r := ss.row
	r.Gateway = ss.gateway != nil
	r.SideCall = r.Gateway && ss.gateway.rec.SideCall
	return &r, nil
}

func (t tx) InsertSession(_ context.Context, row *storeutil.SessionRow) (bool, error) {
	if t.st.sessions[row.ID] != nil {
		return false, nil
	}
	r := *row
	r.Gateway, r.SideCall = false, false
	t.st.sessions[row.ID] = &session{row: r, tokens: storeutil.TokenRow{Pending: storeutil.UnknownPending}, revs: map[int64]*revision{}}
	return true, nil
}

func (t tx) SaveSession(_ context.Context, row *storeutil.SessionRow) error {
	ss := t.st.sessions[row.ID]
	if ss == nil {
		return nil
	}
	r := &ss.row
	r.Model, r.Version, r.Updated, r.FirstPos, r.N = row.Model, row.Version, row.Updated, row.FirstPos, row.N
	r.NextMsg, r.NextRev, r.Rewritten, r.Title, r.Instructions, r.Pinned = row.NextMsg, row.NextRev, row.Rewritten, row.Title, row.Instructions, row.Pinned
	return nil
}

func (t tx) DeleteSession(_ context.Context, id string) (int64, error) {
	if t.st.sessions[id] == nil {
		return 0, nil
	}
	delete(t.st.sessions, id)
	maps.DeleteFunc(t.st.bodies, func(_ int64, b body) bool { return b.session == id })
	maps.DeleteFunc(t.st.previews, func(_ string, p preview) bool { return p.p.SessionID == id })
	maps.DeleteFunc(t.st.evicted, func(_ string, e evicted) bool { return e.session == id })
	return 1, nil
}

func (t tx) ListSessions(_ context.Context, f kompact.SessionFilter) ([]storeutil.SessionRow, error) {
	out := make([]storeutil.SessionRow, 0, len(t.st.sessions))
	for _, ss := range t.st.sessions {
		r := ss.row
		r.Gateway = ss.gateway != nil
		r.SideCall = r.Gateway && ss.gateway.rec.SideCall
		if r.SideCall && !f.SideCalls {
			continue
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b storeutil.SessionRow) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, nil
}

func refs(rows []*msgRow) []storeutil.Ref {
	out := make([]storeutil.Ref, len(rows))
	for i, m := range rows {
		out[i] = storeutil.Ref{ID: m.id, BodyID: m.body}
	}
	return out
}

func posRefs(rows []*msgRow) []storeutil.PosRef {
	out := make([]storeutil.PosRef, len(rows))
	for i, m := range rows {
		out[i] = storeutil.PosRef{Ref: storeutil.Ref{ID: m.id, BodyID: m.body}, Pos: m.pos}
	}
	return out
}

func (t tx) ReadRefs(_ context.Context, id string, from, to int64) ([]storeutil.Ref, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, nil
	}
	return refs(ss.live(from, to)), nil
}

func (t tx) EachBody(_ context.Context, id string, from, to int64, fn func([]byte) error) error {
	ss, err := t.session(id)
	if err != nil {
		return nil
	}
	for _, m := range ss.live(from, to) {
		if err := fn(t.st.bodies[m.body].data); err != nil {
			return err
		}
	}
	return nil
}

// OwnedBodies is false: a body handed on is the stored one.
func (t tx) OwnedBodies() bool { return false }

func (t tx) EachBodyOf(_ context.Context, bodyIDs []int64, fn func(int, []byte) error) error {
	for i, b := range bodyIDs {
		bd, ok := t.st.bodies[b]
		if !ok {
			return noRow
		}
		if err := fn(i, bd.data); err != nil {
			return err
		}
	}
	return nil
}

func (t tx) InsertMessages(_ context.Context, id string, pos, born int64, msgs []kompact.Message, reuse []int64) error {
	ss, err := t.session(id)
	if err != nil {
		return err
	}
	for i := range msgs {
		b := int64(0)
		if reuse != nil {
			b = reuse[i]
		}
		if b == 0 {
			t.st.lastBody++
			b = t.st.lastBody
			t.st.bodies[b] = body{session: id, data: msgs[i].AppendJSON(nil), textLen: int64(msgs[i].TextLen())}
		}
		ss.msgs = append(ss.msgs, msgRow{id: msgs[i].ID, pos: pos + int64(i), born: born, body: b})
	}
	return nil
}

func (t tx) TakenID(_ context.Context, id string, msgs []kompact.Message, minPos int64) (int, error) {
	ss, err := t.session(id)
	if err != nil {
		return -1, nil
	}
	taken := map[string]bool{}
	for _, m := range ss.msgs {
		if m.dead == 0 && m.pos >= minPos {
			taken[m.id] = true
		}
	}
	for i := range msgs {
		if taken[msgs[i].ID] {
			return i, nil
		}
	}
	return -1, nil
}

func (t tx) RetireMessages(_ context.Context, id string, rev, from, before int64) error {
	ss, err := t.session(id)
	if err != nil {
		return nil
	}
	for i := range ss.msgs {
		if m := &ss.msgs[i]; m.dead == 0 && m.pos >= from && m.pos < before {
			m.dead = rev
		}
	}
	return nil
}

func (t tx) InsertRevision(_ context.Context, id string, info *kompact.RevisionInfo, fid any) error {
	ss, err := t.session(id)
	if err != nil {
		return err
	}
	r := &revision{info: *info}
	r.info.Fidelity = nil
	if s, ok := fid.(string); ok {
		r.fid = s
	}
	ss.revs[info.Rev] = r
	return nil
}

func (t tx) PruneRevisions(_ context.Context, id string, upTo int64) error {
	ss, err := t.session(id)
	if err != nil {
		return nil
	}
	var candidates []int64
	ss.msgs = slices.DeleteFunc(ss.msgs, func(m msgRow) bool {
		if m.dead != 0 && m.dead <= upTo {
			candidates = append(candidates, m.body)
			return true
		}
		return false
	})
	maps.DeleteFunc(ss.revs, func(rev int64, _ *revision) bool { return rev <= upTo })
	used := map[int64]bool{}
	for _, m := range ss.msgs {
		used[m.body] = true
	}
	for _, b := range candidates {
		if !used[b] {
			delete(t.st.bodies, b)
		}
	}
	return nil
}

// revisionInfo is the stored revision as a statement reads it.
func revisionInfo(r *revision) (kompact.RevisionInfo, error) {
	info := r.info
	if s, ok := r.fid.(string); ok {
		if err := storeutil.ScanFidelity(&info, &s); err != nil {
			return info, err
		}
	}
	return info, nil
}

func (t tx) ListRevisions(_ context.Context, id string) ([]kompact.RevisionInfo, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, nil
	}
	out := make([]kompact.RevisionInfo, 0, len(ss.revs))
	for _, r := range ss.revs {
		info, err := revisionInfo(r)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b kompact.RevisionInfo) int { return cmp.Compare(b.Rev, a.Rev) })
	return out, nil
}

func (t tx) LoadRevision(_ context.Context, id string, rev int64) (*kompact.RevisionInfo, bool, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, false, err
	}
	r := ss.revs[rev]
	if r == nil {
		return nil, false, noRow
	}
	info, err := revisionInfo(r)
	return &info, false, err
}

func (t tx) RevisionRefs(_ context.Context, id string, rev int64) ([]storeutil.Ref, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, nil
	}
	return refs(ss.inRevision(rev)), nil
}

func (t tx) EachRevisionBody(_ context.Context, id string, rev int64, _ bool, fn func(int64, []byte) error) error {
	ss, err := t.session(id)
	if err != nil {
		return nil
	}
	for _, m := range ss.inRevision(rev) {
		if err := fn(m.body, t.st.bodies[m.body].data); err != nil {
			return err
		}
	}
	return nil
}

func (t tx) RemovedBy(_ context.Context, id string, rev int64) ([]storeutil.PosRef, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, nil
	}
	return posRefs(ss.rows(func(m *msgRow) bool { return m.dead == rev })), nil
}

func (t tx) AddedBy(_ context.Context, id string, rev, before int64) ([]storeutil.PosRef, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, nil
	}
	return posRefs(ss.rows(func(m *msgRow) bool { return m.born == rev && m.pos < before })), nil
}

func (t tx) LiveMessage(_ context.Context, id, msgID string) (pos, bodyID int64, err error) {
	ss, err := t.session(id)
	if err != nil {
		return 0, 0, err
	}
	for _, m := range ss.msgs {
		if m.dead == 0 && m.id == msgID {
			return m.pos, m.body, nil
		}
	}
	return 0, 0, noRow
}

func (t tx) LiveTextLen(_ context.Context, id string) (int64, bool, error) {
	ss, err := t.session(id)
	if err != nil {
		return 0, true, nil
	}
	var n int64
	for _, m := range ss.msgs {
		if m.dead == 0 {
			n += t.st.bodies[m.body].textLen
		}
	}
	return n, true, nil
}

func (t tx) Tokens(_ context.Context, id string) (storeutil.TokenRow, error) {
	ss, err := t.session(id)
	if err != nil {
		return storeutil.TokenRow{}, err
	}
	return ss.tokens, nil
}

func (t tx) SetTokens(_ context.Context, id string, count, pending int64, closeBreaker bool) error {
	if ss := t.st.sessions[id]; ss != nil {
		ss.tokens.Count, ss.tokens.Pending = count, pending
		if closeBreaker {
			ss.tokens.Failures = 0
		}
	}
	return nil
}

func (t tx) AddPending(_ context.Context, id string, n int) (storeutil.TokenRow, string, error) {
	ss, err := t.session(id)
	if err != nil {
		return storeutil.TokenRow{}, "", err
	}
	if ss.tokens.Pending >= 0 {
		ss.tokens.Pending += int64(n)
	}
	return ss.tokens, ss.row.Agent, nil
}

func (t tx) SetTokenCount(_ context.Context, id string, n int) (int64, error) {
	ss := t.st.sessions[id]
	if ss == nil {
		return 0, nil
	}
	ss.tokens.Count, ss.tokens.Pending = int64(n), 0
	return 1, nil
}

func (t tx) AddAutoFailure(_ context.Context, id string, log []byte) (int64, error) {
	ss, err := t.session(id)
	if err != nil {
		return 0, err
	}
	ss.tokens.Failures++
	ss.failureLog = slices.Clone(log)
	return ss.tokens.Failures, nil
}

func (t tx) AutoFailureLog(_ context.Context, id string) ([]byte, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, err
	}
	if ss.failureLog == nil {
		return []byte("[]"), nil
	}
	return ss.failureLog, nil
}

func (t tx) HoldPreviews(_ context.Context, sessionID string) (bool, error) {
	return t.st.sessions[sessionID] != nil, nil
}

func (t tx) PreviewTotals(_ context.Context, now time.Time, gateway bool) (int, int64, error) {
	maps.DeleteFunc(t.st.previews, func(_ string, p preview) bool { return !p.p.ExpiresAt.After(now) })
	maps.DeleteFunc(t.st.evicted, func(_ string, e evicted) bool { return !e.expires.After(now) })
	n, total := 0, int64(0)
	for _, p := range t.st.previews {
		if p.p.Gateway == gateway {
			n, total = n+1, total+p.size
		}
	}
	return n, total, nil
}

func (t tx) DropFirstPreview(_ context.Context, gateway bool) (int64, error) {
	var first *preview
	for _, p := range t.st.previews {
		if p.p.Gateway != gateway {
			continue
		}
		if first == nil || p.p.ExpiresAt.Before(first.p.ExpiresAt) || (p.p.ExpiresAt.Equal(first.p.ExpiresAt) && p.p.ID < first.p.ID) {
			first = &p
		}
	}
	if first == nil {
		return 0, noRow
	}
	delete(t.st.previews, first.p.ID)
	if _, ok := t.st.evicted[first.p.ID]; !ok {
		t.st.evicted[first.p.ID] = evicted{session: first.p.SessionID, expires: first.p.ExpiresAt}
	}
	return first.size, nil
}

func (t tx) PreviewEvicted(_ context.Context, sessionID, id string) (bool, error) {
	e, ok := t.st.evicted[id]
	return ok && e.session == sessionID, nil
}

func (t tx) InsertPreview(_ context.Context, p *kompact.Preview, size int64) (bool, error) {
	if _, ok := t.st.previews[p.ID]; ok {
		return false, nil
	}
	t.st.previews[p.ID] = preview{p: kompact.Preview{ID: p.ID, SessionID: p.SessionID, Version: p.Version, ExpiresAt: p.ExpiresAt,
		Body: slices.Clone(p.Body), Counts: p.Counts, Gateway: p.Gateway}, size: size}
	return true, nil
}

func (t tx) GetPreview(_ context.Context, sessionID, id string) (*kompact.Preview, error) {
	p, ok := t.st.previews[id]
	if !ok || p.p.SessionID != sessionID {
		return nil, noRow
	}
	out := p.p
	out.Body = slices.Clone(p.p.Body)
	return &out, nil
}

func (t tx) TakePreview(ctx context.Context, sessionID, id string) (*kompact.Preview, error) {
	p, err := t.GetPreview(ctx, sessionID, id)
	if err == nil {
		delete(t.st.previews, id)
	}
	return p, err
}

func (t tx) ListPreviews(_ context.Context, sessionID string, now time.Time) ([]kompact.PreviewInfo, error) {
	var out []kompact.PreviewInfo
	for _, p := range t.st.previews {
		if p.p.SessionID == sessionID && p.p.ExpiresAt.After(now) {
			out = append(out, kompact.PreviewInfo{ID: p.p.ID, SessionID: sessionID, Version: p.p.Version, ExpiresAt: p.p.ExpiresAt, Size: p.size, Counts: p.p.Counts})
		}
	}
	slices.SortFunc(out, func(a, b kompact.PreviewInfo) int {
		if c := b.ExpiresAt.Compare(a.ExpiresAt); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out, nil
}

func (t tx) CountPreviews(_ context.Context, now time.Time) (map[string]int, error) {
	out := map[string]int{}
	for _, p := range t.st.previews {
		if p.p.ExpiresAt.After(now) {
			out[p.p.SessionID]++
		}
	}
	return out, nil
}

func (t tx) Kimi(_ context.Context, id string) ([]byte, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, err
	}
	return ss.kimi, nil
}

func (t tx) SetKimi(_ context.Context, id string, kimi []byte) error {
	if ss := t.st.sessions[id]; ss != nil {
		ss.kimi = slices.Clone(kimi)
	}
	return nil
}

func (t tx) RevisionKimi(_ context.Context, id string, rev int64) ([]byte, error) {
	ss, err := t.session(id)
	if err != nil {
		return nil, err
	}
	r := ss.revs[rev]
	if r == nil {
		return nil, noRow
	}
	return r.kimi, nil
}

func (t tx) SetRevisionKimi(_ context.Context, id string, rev int64, kimi []byte) error {
	if ss := t.st.sessions[id]; ss != nil && ss.revs[rev] != nil {
		ss.revs[rev].kimi = slices.Clone(kimi)
	}
	return nil
}

func (t tx) InsertGatewayRecord(_ context.Context, r *kompact.GatewayRecord) error {
	ss, err := t.session(r.SessionID)
	if err != nil {
		return err
	}
	t.st.lastOrd[r.Key]++
	rec := *r
	rec.State = slices.Clone(r.State)
	ss.gateway = &gatewayRecord{rec: rec, ord: t.st.lastOrd[r.Key]}
	return nil
}

func (t tx) GatewayRecord(_ context.Context, id string) (*kompact.GatewayRecord, error) {
	ss, err := t.session(id)
	if err != nil || ss.gateway == nil {
		return nil, noRow
	}
	rec := ss.gateway.rec
	rec.State = slices.Clone(rec.State)
	return &rec, nil
}

func (t tx) FindGatewayRecords(_ context.Context, key string, chains []string, limit int) ([]kompact.GatewayRecord, error) {
	var found []*gatewayRecord
	for _, ss := range t.st.sessions {
		if g := ss.gateway; g != nil && g.rec.Key == key && (chains == nil || slices.Contains(chains, g.rec.Chain)) {
			found = append(found, g)
		}
	}
	slices.SortFunc(found, func(a, b *gatewayRecord) int { return cmp.Compare(b.ord, a.ord) })
	out := make([]kompact.GatewayRecord, 0, min(len(found), max(limit, 0)))
	for _, g := range found[:min(len(found), max(limit, 0))] {
		rec := g.rec
		rec.State = slices.Clone(rec.State)
		out = append(out, rec)
	}
	return out, nil
}

func (t tx) SwapGatewayRecord(_ context.Context, id string, seq int64, chain string, state []byte, sideCall bool) (bool, error) {
	ss := t.st.sessions[id]
	if ss == nil || ss.gateway == nil || ss.gateway.rec.Seq != seq {
		return false, nil
	}
	g := ss.gateway
	g.rec.Seq, g.rec.Chain, g.rec.State, g.rec.SideCall = seq+1, chain, slices.Clone(state), sideCall
	return true, nil
}
