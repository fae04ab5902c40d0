package sqlite

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"kompact"
)

// TestDiskFullIsUnavailable: a write that the disk cannot take (here the
// database may not grow: PRAGMA max_page_count) is an EUnavailable error
// that says so, not an internal one; nothing is half written, and writes
// work again once there is room (issue 21, item 7).
func TestDiskFullIsUnavailable(t *testing.T) {
	st := openTemp(t)
	ctx := context.Background()
	if _, err := st.CreateSession(ctx, &kompact.Session{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := st.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := st.w.ExecContext(ctx, `PRAGMA max_page_count = `+strconv.Itoa(pages)); err != nil {
		t.Fatal(err)
	}
	big := []kompact.Message{{Role: kompact.RoleUser, Content: []kompact.Part{kompact.TextPart(strings.Repeat("x", 1<<20))}}}
	_, err := st.AppendMessages(ctx, "s", big)
	var ke *kompact.Error
	if !errors.As(err, &ke) || ke.Code != kompact.EUnavailable || !strings.Contains(ke.Message, "the disk is full") {
		t.Fatalf("append on a full disk: %v", err)
	}
	if strings.Contains(ke.Message, st.Path()) {
		t.Errorf("the public message names the file: %q", ke.Message)
	}
	if err := st.CheckWrite(ctx); err != nil {
		t.Errorf("a write that needs no room: %v", err)
	}
	if got, err := st.GetSession(ctx, "s"); err != nil || len(got.Messages) != 0 || got.Version != 1 {
		t.Fatalf("after the failed append: %v %+v", err, got)
	}
	if _, err := st.w.ExecContext(ctx, `PRAGMA max_page_count = 1073741823`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AppendMessages(ctx, "s", big); err != nil {
		t.Fatalf("append once there is room: %v", err)
	}
}
