package kompact_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"kompact"
)

// TestTitles: the default title is the first user message that is not a
// summary, on one line, cut to 80 code points with an ellipsis; a given
// title is cleaned and bounded; a search matches every word in the title
// or id, ignoring case.
func TestTitles(t *testing.T) {
	summary := msg(kompact.RoleUser, "s", kompact.SummaryPrefix+"\nold")
	if got := kompact.DefaultTitle([]kompact.Message{msg(kompact.RoleSystem, "", "sys"), summary, msg(kompact.RoleUser, "", "  Fix\n the   build ", "please")}); got != "Fix the build please" {
		t.Errorf("default title %q", got)
	}
	if got := kompact.DefaultTitle([]kompact.Message{msg(kompact.RoleAssistant, "", "hi")}); got != "" {
		t.Errorf("no user message: %q", got)
	}
	long := kompact.DefaultTitle([]kompact.Message{msg(kompact.RoleUser, "", strings.Repeat("ä", 200))})
	if utf8.RuneCountInString(long) != kompact.DefaultTitleLen || !strings.HasSuffix(long, "…") || !utf8.ValidString(long) {
		t.Errorf("long title %q (%d code points)", long, utf8.RuneCountInString(long))
	}
	if got, err := kompact.CleanTitle(" a\tb\u2028c "); err != nil || got != "a b c" {
		t.Errorf("clean %q %v", got, err)
	}
	if _, err := kompact.CleanTitle(strings.Repeat("x", kompact.MaxTitleLen+1)); err == nil || kompact.AsError(err).Code != kompact.EInvalid {
		t.Errorf("a long title: %v", err)
	}
	if !kompact.MatchesQuery("s_abc", "Flaky Test", "flaky ABC") || kompact.MatchesQuery("s_abc", "Flaky Test", "flaky zzz") {
		t.Error("MatchesQuery")
	}
}
