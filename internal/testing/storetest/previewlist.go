package storetest

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"kompact"
)

// listed returns the ids ListPreviews gives for session at now, in order.
func listed(t *testing.T, st kompact.PreviewStore, session string, now time.Time) string {
	t.Helper()
	list, err := st.ListPreviews(t.Context(), session, now)
	if err != nil {
		t.Fatalf("ListPreviews %s: %v", session, err)
	}
	ids := make([]string, len(list))
	for i, p := range list {
		ids[i] = p.ID
	}
	return fmt.Sprint(ids)
}

// counted returns CountPreviews at now as text.
func counted(t *testing.T, st kompact.PreviewStore, now time.Time) string {
	t.Helper()
	n, err := st.CountPreviews(t.Context(), now)
	if err != nil {
		t.Fatalf("CountPreviews: %v", err)
	}
	return fmt.Sprint(n)
}

// testPreviewList: ListPreviews describes a session's unexpired previews,
// the newest first, without other sessions' ones; GetPreview reads one
// without taking it; CountPreviews counts them by session; taking a
// preview or deleting its session removes it from all three.
func testPreviewList(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	s := create(t, st, &kompact.Session{ID: "pl", Messages: conversation()})
	other := create(t, st, &kompact.Session{ID: "pl-other", Messages: conversation()})
	create(t, st, &kompact.Session{ID: "pl-none", Messages: conversation()})
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	lim := kompact.PreviewLimits{MaxCount: 10, MaxBytes: 1000}

	if got := listed(t, st, s.ID, now); got != "[]" {
		t.Fatalf("a session without previews lists %s", got)
	}
	_, err := st.ListPreviews(ctx, "nobody", now)
	wantCode(t, err, kompact.ENotFound, "ListPreviews of an unknown session")
	putPreview(t, st, previewAt("pl_1", s.ID, 3, 100, now.Add(10*time.Minute)), now, lim)
	pl2 := previewAt("pl_2", s.ID, 4, 50, now.Add(20*time.Minute))
	pl2.Counts = previewCounts
	putPreview(t, st, pl2, now, lim)
	putPreview(t, st, previewAt("pl_3", s.ID, 4, 10, now.Add(time.Minute)), now, lim)
	putPreview(t, st, previewAt("pl_4", other.ID, 1, 10, now.Add(30*time.Minute)), now, lim)

	list, err := st.ListPreviews(ctx, s.ID, now)
	if err != nil {
		t.Fatalf("ListPreviews: %v", err)
	}
	if len(list) != 3 {
		t.Fatalf("ListPreviews = %+v, want pl_2, pl_1, pl_3", list)
	}
	first := list[0]
	if first.ID != "pl_2" || first.SessionID != s.ID || first.Version != 4 || first.Size != 50 || !first.ExpiresAt.Equal(now.Add(20*time.Minute)) {
		t.Fatalf("ListPreviews[0] = %+v, want pl_2 of %s at version 4, 50 bytes, expiring %v", first, s.ID, now.Add(20*time.Minute))
	}
	checkPreviewCounts(t, st, list, now)
	if got := listed(t, st, s.ID, now); got != "[pl_2 pl_1 pl_3]" {
		t.Fatalf("ListPreviews = %s, want the newest first: [pl_2 pl_1 pl_3]", got)
	}
	// An expired preview is not listed, nor counted, nor read.
	later := now.Add(time.Minute)
	if got := listed(t, st, s.ID, later); got != "[pl_2 pl_1]" {
		t.Fatalf("at pl_3's expiry, ListPreviews = %s, want [pl_2 pl_1]", got)
	}
	if got := counted(t, st, later); got != "map[pl:2 pl-other:1]" {
		t.Fatalf("CountPreviews = %s, want map[pl:2 pl-other:1]", got)
	}
	_, err = st.GetPreview(ctx, s.ID, "pl_3", later)
	wantCode(t, err, kompact.ENotFound, "GetPreview at its expiry")

	checkGetPreview(t, st, s.ID, other.ID, later, previewAt("pl_1", s.ID, 3, 100, now.Add(10*time.Minute)))

	// Taking a preview removes it from the list.
	if p, err := st.TakePreview(ctx, s.ID, "pl_2", later); err != nil || p.Counts != previewCounts {
		t.Fatalf("TakePreview: %+v, %v; want counts %+v", p, err, previewCounts)
	}
	if got := listed(t, st, s.ID, later); got != "[pl_1]" {
		t.Fatalf("after taking pl_2, ListPreviews = %s, want [pl_1]", got)
	}
	_, err = st.GetPreview(ctx, s.ID, "pl_2", later)
	wantCode(t, err, kompact.ENotFound, "GetPreview of a taken preview")

	// Deleting a session removes its previews; another session's stay.
	if err := st.DeleteSession(ctx, s.ID); err != nil {
		t.Fatalf("DeleteSession: %v", err)
	}
	if got := counted(t, st, later); got != "map[pl-other:1]" {
		t.Fatalf("after deleting %s, CountPreviews = %s, want map[pl-other:1]", s.ID, got)
	}
	create(t, st, &kompact.Session{ID: s.ID, Messages: conversation()})
	if got := listed(t, st, s.ID, later); got != "[]" {
		t.Fatalf("a deleted session's previews are listed again: %s", got)
	}
	if got := listed(t, st, other.ID, later); got != "[pl_4]" {
		t.Fatalf("the other session lists %s, want [pl_4]", got)
	}
}

// checkGetPreview: GetPreview of session's preview want reads it and
// leaves it kept, twice alike; not through the other session, nor an
// unknown id.
func checkGetPreview(t *testing.T, st kompact.PreviewStore, session, other string, at time.Time, want *kompact.Preview) {
	t.Helper()
	ctx := t.Context()
	for range 2 {
		got, err := st.GetPreview(ctx, session, want.ID, at)
		if err != nil {
			t.Fatalf("GetPreview: %v", err)
		}
		if got.ID != want.ID || got.SessionID != session || got.Version != want.Version || !bytes.Equal(got.Body, want.Body) || !got.ExpiresAt.Equal(want.ExpiresAt) {
			t.Fatalf("GetPreview = %s %s v%d %d bytes, expires %v; want %s %s v%d %d bytes, expires %v",
				got.ID, got.SessionID, got.Version, len(got.Body), got.ExpiresAt, want.ID, session, want.Version, len(want.Body), want.ExpiresAt)
		}
	}
	_, err := st.GetPreview(ctx, other, want.ID, at)
	wantCode(t, err, kompact.ENotFound, "GetPreview through another session")
	_, err = st.GetPreview(ctx, session, "pl_none", at)
	wantCode(t, err, kompact.ENotFound, "GetPreview of an unknown preview")
}

// previewCounts are pl_2's counts in testPreviewList.
var previewCounts = kompact.PlanCounts{Before: 1, Replaced: 5, After: 2, Pinned: 1}

// checkPreviewCounts: the counts are kept beside the body: the listing (list,
// pl_2 then pl_1) gives them, and GetPreview, so that it need read no body.
func checkPreviewCounts(t *testing.T, st kompact.Store, list []kompact.PreviewInfo, now time.Time) {
	t.Helper()
	if list[0].Counts != previewCounts || list[1].Counts != (kompact.PlanCounts{}) {
		t.Fatalf("ListPreviews counts %+v and %+v, want %+v and none", list[0].Counts, list[1].Counts, previewCounts)
	}
	if p, err := st.GetPreview(t.Context(), list[0].SessionID, list[0].ID, now); err != nil || p.Counts != previewCounts {
		t.Fatalf("GetPreview of pl_2: %+v, %v; want counts %+v", p, err, previewCounts)
	}
}
