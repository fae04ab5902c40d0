package storetest

import (
	"reflect"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/title"
)

func info(t *testing.T, st kompact.Store, id string) kompact.SessionInfo {
	t.Helper()
	for _, i := range listSessions(t, st) {
		if i.ID == id {
			return i
		}
	}
	t.Fatalf("session %q is not listed", id)
	return kompact.SessionInfo{}
}

// testTitles: a session's title is its first user message by default, set
// by the append that brings one when it has none; a rename is kept (also
// across appends and compactions) without changing the version; "" gives
// the default back; a title too long is refused.
func testTitles(t *testing.T, st kompact.Store) {
	ctx := t.Context()
	create(t, st, &kompact.Session{ID: "s", Messages: conversation()})
	if got := info(t, st, "s").Title; got != "Fix the failing test; see the screenshot." {
		t.Fatalf("default title %q", got)
	}
	long := strings.Repeat("wörd ", 40)
	create(t, st, &kompact.Session{ID: "e", Messages: []kompact.Message{msg(kompact.RoleSystem, "", "sys")}})
	if got := info(t, st, "e").Title; got != "" {
		t.Fatalf("title without a user message %q", got)
	}
	appendMsgs(t, st, "e", []kompact.Message{msg(kompact.RoleUser, "", long)})
	appendMsgs(t, st, "e", []kompact.Message{msg(kompact.RoleUser, "", "second")})
	if got := info(t, st, "e").Title; got != title.DefaultTitle([]kompact.Message{msg(kompact.RoleUser, "", long)}) || !strings.HasSuffix(got, "…") {
		t.Fatalf("title after appends %q", got)
	}

	before := get(t, st, "s")
	got, err := st.UpdateSettings(ctx, "s", Title("  Flaky\ttest  hunt "))
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Flaky test hunt" || got.Version != before.Version || !reflect.DeepEqual(info(t, st, "s"), *got) {
		t.Fatalf("UpdateSettings (title) reported %+v; listed %+v", *got, info(t, st, "s"))
	}
	checkGet(t, st, before)
	appendMsgs(t, st, "s", []kompact.Message{msg(kompact.RoleUser, "", "more")})
	if got := info(t, st, "s").Title; got != "Flaky test hunt" {
		t.Fatalf("title after an append %q", got)
	}
	if got, err := st.UpdateSettings(ctx, "s", Title("")); err != nil || got.Title != "Fix the failing test; see the screenshot." {
		t.Fatalf("reset title: %+v, %v", got, err)
	}
	snap := snapshot(t, st, "s")
	_, err = st.UpdateSettings(ctx, "s", Title(strings.Repeat("x", kompact.MaxTitleLen+1)))
	wantCode(t, err, kompact.EInvalid, "a title too long")
	unchanged(t, "a title too long", snap, snapshot(t, st, "s"))
	_, err = st.UpdateSettings(ctx, "nope", Title("x"))
	wantCode(t, err, kompact.ENotFound, "renaming a missing session")
}
