// Package title names sessions for people: the default title of a
// session's messages (the first user text, made plain) and the list's
// search.
package title

import (
	"strings"
	"unicode/utf8"

	"kompact"
	"kompact/internal/claudecode"
)

// DefaultTitleLen bounds a default title, in code points (an ellipsis
// included).
const DefaultTitleLen = 80

// DefaultTitle returns a session's title when nobody named it: the text of
// its first user message that is not a summary (kompact's, or Claude
// Code's continuation after its compaction) and holds words of the user,
// as plain text (without the <system>…</system> notes kimi-cli writes
// into messages, such as its "<system>CHECKPOINT 0</system>", nor the
// <system-reminder>…</system-reminder> blocks Claude Code writes, and
// without Markdown markup), on one line, cut to DefaultTitleLen code
// points with an ellipsis. It is "" when there is no such message.
func DefaultTitle(msgs []kompact.Message) string {
	for i := range msgs {
		if msgs[i].Role != kompact.RoleUser || kompact.IsSummary(msgs[i]) || claudecode.IsContinuation(msgs[i]) {
			continue
		}
		var b strings.Builder
		for _, p := range msgs[i].Content {
			if p.Type == kompact.PartText {
				b.WriteString(plainTitle(p.Text))
				b.WriteByte(' ')
				if b.Len() > titleScan {
					break
				}
			}
		}
		if t := kompact.OneLine(b.String()); t != "" {
			return cut(t, DefaultTitleLen)
		}
	}
	return ""
}

// cut returns s cut to n code points, the last one an ellipsis when it was
// cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for j := range s {
		if k == n-1 {
			i = j
			break
		}
		k++
	}
	return strings.TrimRight(s[:i], " ") + "…"
}

// titleScan bounds the bytes of message text a default title is made
// from, its notes removed: far more than DefaultTitleLen code points of
// text with their markup.
const titleScan = 4096

// plainTitle returns message text as a title shows it: without kimi-cli's
// <system>…</system> notes, and each line without its Markdown markup
// (headings, quotes, list markers, fences and rules, emphasis, code spans,
// links and images, which keep their text).
func plainTitle(text string) string {
	text = dropSystemNotes(text)
	if len(text) > titleScan {
		// A title needs the start only; the markup is read line by line,
		// in time that grows with the square of a line's length.
		n := titleScan
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		text = text[:n]
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = plainLine(l)
	}
	return strings.Join(lines, "\n")
}

// dropSystemNotes removes the notes clients write into messages for the
// model: kimi-cli's <system>…</system> spans (a checkpoint's
// "<system>CHECKPOINT 0</system>", a tool's status line) and Claude
// Code's <system-reminder>…</system-reminder> blocks.
func dropSystemNotes(s string) string {
	return dropSpans(dropSpans(s, "<system>", "</system>"), "<system-reminder>", "</system-reminder>")
}

// dropSpans removes the spans from open to end from s, each for a space.
func dropSpans(s, open, end string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], end)
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteByte(' ')
		s = s[i+j+len(end):]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

// plainLine is one line of Markdown without its block markers and inline
// markup; a fence, a rule or a table's rule line gives "".
func plainLine(l string) string {
	t := strings.TrimLeft(l, " \t")
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || isRule(t) || isTableRule(t) {
		return ""
	}
	t = stripBlockMarkers(t)
	if strings.HasPrefix(t, "|") {
		t = strings.ReplaceAll(t, "|", " ")
	}
	return plainInline(t)
}

// isRule reports a thematic break: three or more of one of - * _, with
// spaces only between them.
func isRule(t string) bool {
	t = strings.TrimRight(t, " \t")
	if len(t) < 3 || (t[0] != '-' && t[0] != '*' && t[0] != '_') {
		return false
	}
	return strings.Trim(strings.ReplaceAll(t, " ", ""), t[:1]) == "" && strings.Count(t, t[:1]) >= 3
}

// isTableRule reports a table's delimiter row, such as |---|:--:|.
func isTableRule(t string) bool {
	t = strings.TrimSpace(t)
	return strings.Contains(t, "|") && strings.Contains(t, "-") && strings.Trim(t, "|-: \t") == ""
}

// stripBlockMarkers removes the quote, heading, list and task markers that
// open a line.
func stripBlockMarkers(t string) string {
	for {
		before := t
		if strings.HasPrefix(t, ">") {
			t = t[1:]
		} else if n := headingMarker(t); n > 0 {
			t = t[n:]
		} else if n := listMarker(t); n > 0 {
			t = t[n:]
		} else if strings.HasPrefix(t, "[ ] ") || strings.HasPrefix(t, "[x] ") || strings.HasPrefix(t, "[X] ") {
			t = t[4:]
		}
		t = strings.TrimLeft(t, " \t")
		if t == before {
			return t
		}
	}
}

// headingMarker is the length of an ATX heading's opening #s and the
// space after them, 0 for none.
func headingMarker(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	switch {
	case n == 0 || n > 6:
		return 0
	case n == len(t):
		return n
	case t[n] == ' ' || t[n] == '\t':
		return n + 1
	}
	return 0
}

// listMarker is the length of a list item's marker ("- ", "* ", "+ ",
// "1. ", "2) ") and its space, 0 for none.
func listMarker(t string) int {
	if len(t) >= 2 && strings.IndexByte("-*+", t[0]) >= 0 && t[1] == ' ' {
		return 2
	}
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && t[n+1] == ' ' {
		return n + 2
	}
	return 0
}

// plainInline removes inline Markdown from one line: backslash escapes,
// code spans, links and images (their text stays), and emphasis and
// strikethrough delimiters that come in pairs (so snake_case and 2*3 stay).
func plainInline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			if inner, next, ok := codeSpan(s, i); ok {
				b.WriteString(inner)
				i = next
				continue
			}
		case c == '[' || (c == '!' && i+1 < len(s) && s[i+1] == '['):
			if text, next, ok := linkText(s, i); ok {
				b.WriteString(plainInline(text))
				i = next
				continue
			}
		case c == '*' || c == '_' || c == '~':
			if inner, next, ok := emphasis(s, i); ok {
				b.WriteString(plainInline(inner))
				i = next
				continue
			}
		}
		// Copy a delimiter run whole, so that its tail is not taken for
		// an opening one.
		j := i + 1
		for c == '`' || c == '*' || c == '_' || c == '~' {
			if j >= len(s) || s[j] != c {
				break
			}
			j++
		}
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

// runAt is the length of the run of byte c at s[i:].
func runAt(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// codeSpan reads the code span opening at s[i]: its text and the index
// after it; ok is false when the backticks are not closed.
func codeSpan(s string, i int) (inner string, next int, ok bool) {
	n := runAt(s, i, '`')
	for j := i + n; j < len(s); {
		k := strings.IndexByte(s[j:], '`')
		if k < 0 {
			return "", 0, false
		}
		j += k
		if m := runAt(s, j, '`'); m != n {
			j += m
			continue
		}
		return strings.TrimSpace(s[i+n : j]), j + n, true
	}
	return "", 0, false
}

// linkText reads the link or image "[text](url)" at s[i] ("![alt](url)"):
// its text and the index after it.
func linkText(s string, i int) (text string, next int, ok bool) {
	open := i
	if s[i] == '!' {
		open++
	}
	k := strings.IndexByte(s[open:], ']')
	if k < 0 || open+k+1 >= len(s) || s[open+k+1] != '(' {
		return "", 0, false
	}
	m := strings.IndexByte(s[open+k+2:], ')')
	if m < 0 {
		return "", 0, false
	}
	return s[open+1 : open+k], open + k + 2 + m + 1, true
}

// emphasis reads the emphasis (or ~~strikethrough~~) opening at s[i]: a
// delimiter run before a non-space, after the start, a space or
// punctuation, closed later on the line by the same run after a non-space
// and before the end, a space or punctuation.
func emphasis(s string, i int) (inner string, next int, ok bool) {
	c := s[i]
	n := runAt(s, i, c)
	if (c == '~' && n != 2) || n > 3 || i+n >= len(s) || s[i+n] == ' ' || (i > 0 && !isBoundary(s[i-1])) {
		return "", 0, false
	}
	for j := i + n + 1; j < len(s); j++ {
		if s[j] != c {
			continue
		}
		m := runAt(s, j, c)
		if m == n && s[j-1] != ' ' && (j+m == len(s) || isBoundary(s[j+m])) {
			return s[i+n : j], j + m, true
		}
		j += m - 1
	}
	return "", 0, false
}

// isBoundary reports a byte around which emphasis may open or close: a
// space or ASCII punctuation.
func isBoundary(c byte) bool {
	return c == ' ' || c == '\t' || isASCIIPunct(c)
}

func isASCIIPunct(c byte) bool {
	return c < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// MatchesQuery reports whether a session with this id and title matches a
// search: every word of q appears in the title or the id, ignoring case.
func MatchesQuery(id, title, q string) bool {
	hay := strings.ToLower(title + "\n" + id)
	for _, w := range strings.Fields(strings.ToLower(q)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}
