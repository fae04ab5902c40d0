package title_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"kompact"
	"kompact/internal/title"
)

// TestTitles: the default title is the first user message that is not a
// summary, on one line, cut to 80 code points with an ellipsis; a given
// title is cleaned and bounded; a search matches every word in the title
// or id, ignoring case.
func TestTitles(t *testing.T) {
	summary := msg(kompact.RoleUser, "s", kompact.SummaryPrefix+"\nold")
	if got := title.DefaultTitle([]kompact.Message{msg(kompact.RoleSystem, "", "sys"), summary, msg(kompact.RoleUser, "", "  Fix\n the   build ", "please")}); got != "Fix the build please" {
		t.Errorf("default title %q", got)
	}
	if got := title.DefaultTitle([]kompact.Message{msg(kompact.RoleAssistant, "", "hi")}); got != "" {
		t.Errorf("no user message: %q", got)
	}
	long := title.DefaultTitle([]kompact.Message{msg(kompact.RoleUser, "", strings.Repeat("ä", 200))})
	if utf8.RuneCountInString(long) != title.DefaultTitleLen || !strings.HasSuffix(long, "…") || !utf8.ValidString(long) {
		t.Errorf("long title %q (%d code points)", long, utf8.RuneCountInString(long))
	}
	if got, err := kompact.CleanTitle(" a\tb\u2028c "); err != nil || got != "a b c" {
		t.Errorf("clean %q %v", got, err)
	}
	if _, err := kompact.CleanTitle(strings.Repeat("x", kompact.MaxTitleLen+1)); err == nil || kompact.AsError(err).Code != kompact.EInvalid {
		t.Errorf("a long title: %v", err)
	}
	if !title.MatchesQuery("s_abc", "Flaky Test", "flaky ABC") || title.MatchesQuery("s_abc", "Flaky Test", "flaky zzz") {
		t.Error("MatchesQuery")
	}
}

// TestDefaultTitlePlainText: a default title leaves out kimi-cli's
// <system>…</system> notes (a kimi-cli import opens with the user message
// "<system>CHECKPOINT 0</system>") and Markdown markup, keeping the text.
func TestDefaultTitlePlainText(t *testing.T) {
	kimi := []kompact.Message{
		msg(kompact.RoleSystem, "", "You are Kimi Code CLI"),
		msg(kompact.RoleUser, "", "<system>CHECKPOINT 0</system>"),
		msg(kompact.RoleUser, "", "Hello 👋 — list files"),
	}
	if got := title.DefaultTitle(kimi); got != "Hello 👋 — list files" {
		t.Errorf("kimi-cli import: title %q", got)
	}
	for _, c := range []struct{ text, want string }{
		{"<system>CHECKPOINT 3</system>Fix the build", "Fix the build"},
		{"# Fix the **flaky** test", "Fix the flaky test"},
		{"## Plan\n\n1. Read `main.go`\n2. Run *all* tests", "Plan Read main.go Run all tests"},
		{"> quoted _words_ and __strong__ and ~~gone~~", "quoted words and strong and gone"},
		{"- [ ] a task with [a link](https://example.com/x) and ![a chart](c.png)", "a task with a link and a chart"},
		{"```go\nfunc main() {}\n```", "func main() {}"},
		{"***bold italic*** then ---\n\n---\nafter the rule", "bold italic then --- after the rule"},
		{"| a | b |\n|---|:-:|\n| 1 | 2 |", "a b 1 2"},
		{"keep snake_case_names, 2*3*4, a * b and file_name.go", "keep snake_case_names, 2*3*4, a * b and file_name.go"},
		{`an escaped \*star\* and a lone * and ** and ` + "`unclosed", `an escaped *star* and a lone * and ** and ` + "`unclosed"},
		{"``code with ` inside`` ok", "code with ` inside ok"},
		{"[not a link] and (parens)", "[not a link] and (parens)"},
		{"#hashtag stays, #5 too", "#hashtag stays, #5 too"},
	} {
		if got := title.DefaultTitle([]kompact.Message{msg(kompact.RoleUser, "", c.text)}); got != c.want {
			t.Errorf("title of %q: %q, want %q", c.text, got, c.want)
		}
	}
	// A long message: the title comes from its start, quickly, whatever
	// its markup (the emphasis scan is quadratic in a line's length).
	start := time.Now()
	huge := title.DefaultTitle([]kompact.Message{msg(kompact.RoleUser, "", "<system>"+strings.Repeat("n", 10000)+"</system>**Big** "+strings.Repeat("*a _b [d ", 250000))})
	if !strings.HasPrefix(huge, "Big *a _b [d *a _b [d") || utf8.RuneCountInString(huge) > title.DefaultTitleLen || !strings.HasSuffix(huge, "…") {
		t.Errorf("title of a long message: %q", huge)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the title of a 2 MB message took %v", d)
	}
	// A user message of notes only is skipped, as one without text is.
	if got := title.DefaultTitle([]kompact.Message{msg(kompact.RoleUser, "", "<system>CHECKPOINT 0</system>")}); got != "" {
		t.Errorf("notes only: %q", got)
	}
}
