package storetest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"kompact"
	"kompact/kimi"
)

// previewAt returns a preview of session with a body of size bytes that
// expires at exp.
func previewAt(id, session string, version int64, size int, exp time.Time) *kompact.Preview {
	body := bytes.Repeat([]byte{'x'}, size)
	copy(body, id)
	return &kompact.Preview{ID: id, SessionID: session, Version: version, Body: body, ExpiresAt: exp}
}

func putPreview(t *testing.T, st kompact.PreviewStore, p *kompact.Preview, now time.Time, lim kompact.PreviewLimits) {
	t.Helper()
	if err := st.PutPreview(t.Context(), p, now, lim); err != nil {
		t.Fatalf("PutPreview %s: %v", p.ID, err)
	}
}

// kept reports which of ids the store still has for session, taking (and
// so removing) those it has.
func kept(t *testing.T, st kompact.PreviewStore, session string, now time.Time, ids ...string) string {
	t.Helper()
	var out []string
	for _, id := range ids {
		p, err := st.TakePreview(t.Context(), session, id, now)
		if err != nil {
			wantCode(t, err, kompact.ENotFound, "TakePreview "+id)
			continue
		}
		out = append(out, p.ID)
	}
	return fmt.Sprint(out)
}

// testPreviews: previews round-trip with their version and body, are taken
// once, expire, and are dropped first-expiring-first past the count and
// byte limits; deleting their session deletes them.
func testPreviews(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "pv", Messages: conversation()})
	other := create(t, st, &kompact.Session{ID: "pv-other", Messages: conversation()})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	lim := kompact.PreviewLimits{MaxCount: 10, MaxBytes: 1000}

	p := previewAt("pv_1", s.ID, s.Version, 100, now.Add(30*time.Minute))
	p.Body[99] = 0xff // not UTF-8: the body is bytes
	putPreview(t, st, p, now, lim)
	wantCode(t, st.PutPreview(ctx, previewAt("pv_1", s.ID, 1, 10, now.Add(time.Hour)), now, lim), kompact.EConflict, "PutPreview with a taken id")
	wantCode(t, st.PutPreview(ctx, previewAt("pv_x", "nobody", 1, 10, now.Add(time.Hour)), now, lim), kompact.ENotFound, "PutPreview of an unknown session")
	wantCode(t, st.PutPreview(ctx, previewAt("pv_big", s.ID, 1, 1001, now.Add(time.Hour)), now, lim), kompact.ETooLarge, "PutPreview over the whole budget")
	_, err := st.TakePreview(ctx, other.ID, "pv_1", now)
	wantCode(t, err, kompact.ENotFound, "TakePreview through another session")
	got, err := st.TakePreview(ctx, s.ID, "pv_1", now.Add(29*time.Minute))
	if err != nil {
		t.Fatalf("TakePreview: %v", err)
	}
	if got.ID != p.ID || got.SessionID != s.ID || got.Version != p.Version || !bytes.Equal(got.Body, p.Body) || !got.ExpiresAt.Equal(p.ExpiresAt) {
		t.Fatalf("TakePreview = %s %s v%d %d bytes, expires %v; want %s %s v%d %d bytes, expires %v",
			got.ID, got.SessionID, got.Version, len(got.Body), got.ExpiresAt, p.ID, p.SessionID, p.Version, len(p.Body), p.ExpiresAt)
	}
	_, err = st.TakePreview(ctx, s.ID, "pv_1", now)
	wantCode(t, err, kompact.ENotFound, "TakePreview of a preview taken already")

	// Expiry: a preview is gone at its expiry time.
	putPreview(t, st, previewAt("pv_2", s.ID, 1, 10, now.Add(time.Minute)), now, lim)
	_, err = st.TakePreview(ctx, s.ID, "pv_2", now.Add(time.Minute))
	wantCode(t, err, kompact.ENotFound, "TakePreview at its expiry")
	// ... and a put drops the expired ones.
	putPreview(t, st, previewAt("pv_3", s.ID, 1, 10, now.Add(time.Minute)), now, lim)
	putPreview(t, st, previewAt("pv_4", s.ID, 1, 10, now.Add(time.Hour)), now.Add(2*time.Minute), lim)
	if got := kept(t, st, s.ID, now, "pv_3", "pv_4"); got != "[pv_4]" {
		t.Fatalf("after a put past pv_3's expiry, the store has %s, want [pv_4]", got)
	}

	// The count limit drops the preview that expires first.
	few := kompact.PreviewLimits{MaxCount: 2, MaxBytes: 1000}
	putPreview(t, st, previewAt("pv_5", s.ID, 1, 10, now.Add(3*time.Minute)), now, few)
	putPreview(t, st, previewAt("pv_6", other.ID, 1, 10, now.Add(2*time.Minute)), now, few)
	putPreview(t, st, previewAt("pv_7", s.ID, 1, 10, now.Add(4*time.Minute)), now, few)
	if got := kept(t, st, s.ID, now, "pv_5", "pv_7") + kept(t, st, other.ID, now, "pv_6"); got != "[pv_5 pv_7][]" {
		t.Fatalf("with room for 2 previews, the store has %s, want [pv_5 pv_7][]", got)
	}

	// The byte budget counts whole bodies, all sessions together.
	putPreview(t, st, previewAt("pv_8", s.ID, 1, 400, now.Add(3*time.Minute)), now, lim)
	putPreview(t, st, previewAt("pv_9", other.ID, 1, 400, now.Add(4*time.Minute)), now, lim)
	putPreview(t, st, previewAt("pv_10", s.ID, 1, 200, now.Add(5*time.Minute)), now, lim) // 1000: fits
	putPreview(t, st, previewAt("pv_11", s.ID, 1, 1, now.Add(6*time.Minute)), now, lim)   // 1001: pv_8 goes
	if got := kept(t, st, s.ID, now, "pv_8", "pv_10", "pv_11") + kept(t, st, other.ID, now, "pv_9"); got != "[pv_10 pv_11][pv_9]" {
		t.Fatalf("with a 1000-byte budget, the store has %s, want [pv_10 pv_11][pv_9]", got)
	}

	// Deleting a session deletes its previews.
	putPreview(t, st, previewAt("pv_12", s.ID, 1, 10, now.Add(time.Hour)), now, lim)
	if err := st.DeleteSession(ctx, s.ID); err != nil {
		t.Fatalf("DeleteSession: %v", err)
	}
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: s.ID, Messages: conversation()}); err != nil {
		t.Fatalf("CreateSession again: %v", err)
	}
	if got := kept(t, st, s.ID, now, "pv_12"); got != "[]" {
		t.Fatalf("a deleted session's preview is still there: %s", got)
	}
	if err := st.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

// testStreamSession: StreamSession gives the session's description, then
// each message's stored form, exactly Message.AppendJSON of what
// GetSession returns, in order; an unknown session is ENotFound before
// head is called; an error from body ends the read and comes back.
func testStreamSession(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "st", Agent: "kimi", Messages: append(conversation(), richMessages()...)})
	appendMsgs(t, st, "st", []kompact.Message{msg(kompact.RoleUser, "", "more")})
	s1 := get(t, st, "st")
	commit(t, st, "st", compaction(t, s1, kimi.Options{MaxPreserved: 2}, "S"))
	want := get(t, st, "st")
	var head *kompact.StoredSession
	var bodies []string
	err := st.StreamSession(ctx, "st", func(h *kompact.StoredSession) error {
		head = h
		return nil
	}, func(b []byte) error {
		bodies = append(bodies, string(b))
		return nil
	})
	if err != nil {
		t.Fatalf("StreamSession: %v", err)
	}
	if head == nil || head.ID != want.ID || head.Agent != want.Agent || head.Version != want.Version || head.Generation != want.Generation ||
		!head.CreatedAt.Equal(want.CreatedAt) || !head.UpdatedAt.Equal(want.UpdatedAt) || head.Messages != nil {
		t.Fatalf("head %+v, want %+v without messages", head, want)
	}
	if len(bodies) != len(want.Messages) {
		t.Fatalf("%d bodies, want %d", len(bodies), len(want.Messages))
	}
	for i := range want.Messages {
		if j := jsonOf(&want.Messages[i]); bodies[i] != j {
			t.Fatalf("body %d is\n%s\nwant\n%s", i, bodies[i], j)
		}
	}
	called := false
	err = st.StreamSession(ctx, "nobody", func(*kompact.StoredSession) error { called = true; return nil }, func([]byte) error { return nil })
	wantCode(t, err, kompact.ENotFound, "StreamSession of an unknown session")
	if called {
		t.Fatal("head was called for an unknown session")
	}
	stop := kompact.Errorf(kompact.EConflict, "stop here")
	n := 0
	err = st.StreamSession(ctx, "st", func(*kompact.StoredSession) error { return nil }, func([]byte) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("StreamSession with a failing body: %v after %d bodies, want the body's error after 1", err, n)
	}
}

// testPreviewBudgets (issue 29): the gateway's precomputes
// (Preview.Gateway) and people's previews each have the limits to
// themselves, so that however many precomputes the gateway keeps, a
// person's preview stays; a preview evicted to make room says so when it
// is asked for, until it would have expired, where one that never existed
// says it may never have; a precompute taken keeps its mark.
func testPreviewBudgets(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "pb", Messages: conversation()})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	few := kompact.PreviewLimits{MaxCount: 2, MaxBytes: 1000}
	gateway := func(p *kompact.Preview) *kompact.Preview { p.Gateway = true; return p }

	putPreview(t, st, previewAt("pv_person", s.ID, 1, 10, now.Add(time.Minute)), now, few)
	for i := range 5 {
		putPreview(t, st, gateway(previewAt(fmt.Sprintf("pv_gw%d", i), s.ID, 1, 10, now.Add(time.Duration(2+i)*time.Minute))), now, few)
	}
	if p, err := st.GetPreview(ctx, s.ID, "pv_person", now); err != nil || p.Gateway {
		t.Fatalf("after 5 precomputes with room for 2, a person's preview: %v (gateway %v), want it kept as a person's", err, p != nil && p.Gateway)
	}
	p, err := st.TakePreview(ctx, s.ID, "pv_gw4", now)
	if err != nil || !p.Gateway {
		t.Fatalf("the newest precompute: %v, want it kept with its gateway mark", err)
	}

	_, err = st.TakePreview(ctx, s.ID, "pv_gw0", now)
	wantCode(t, err, kompact.ENotFound, "a precompute evicted to make room")
	if e := kompact.AsError(err); !strings.Contains(e.Message, "evicted") {
		t.Fatalf("an evicted preview's error says %q; want it to say it was evicted", e.Message)
	}
	_, err = st.TakePreview(ctx, s.ID, "pv_never", now)
	wantCode(t, err, kompact.ENotFound, "a preview that never existed")
	if e := kompact.AsError(err); strings.Contains(e.Message, "evicted") {
		t.Fatalf("a preview that never existed says %q", e.Message)
	}

	// People's previews past their budget evict people's, not precomputes.
	putPreview(t, st, previewAt("pv_p2", s.ID, 1, 10, now.Add(10*time.Minute)), now, few)
	putPreview(t, st, previewAt("pv_p3", s.ID, 1, 10, now.Add(11*time.Minute)), now, few)
	if got := kept(t, st, s.ID, now, "pv_person", "pv_p2", "pv_p3", "pv_gw3"); got != "[pv_p2 pv_p3 pv_gw3]" {
		t.Fatalf("after 3 people's previews with room for 2, the store has %s, want [pv_p2 pv_p3 pv_gw3]", got)
	}
	_, err = st.GetPreview(ctx, s.ID, "pv_person", now)
	if e := kompact.AsError(err); e == nil || !strings.Contains(e.Message, "evicted") {
		t.Fatalf("a person's evicted preview: %v, want it said evicted", err)
	}

	// Past the expiry it would have had, an evicted preview is forgotten.
	later := now.Add(time.Hour)
	putPreview(t, st, previewAt("pv_late", s.ID, 1, 10, later.Add(time.Hour)), later, few)
	_, err = st.GetPreview(ctx, s.ID, "pv_person", later)
	if e := kompact.AsError(err); e == nil || strings.Contains(e.Message, "evicted") {
		t.Fatalf("an evicted preview past its expiry: %v, want the plain not-found", err)
	}
}
