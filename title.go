package kompact

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultTitleLen bounds a default title, in code points (an ellipsis
// included).
const DefaultTitleLen = 80

// MaxTitleLen bounds a title a person gives, in code points.
const MaxTitleLen = 200

// DefaultTitle returns a session's title when nobody named it: the text of
// its first user message that is not a summary, on one line, cut to
// DefaultTitleLen code points with an ellipsis. It is "" when there is no
// such message.
func DefaultTitle(msgs []Message) string {
	for i := range msgs {
		if msgs[i].Role != RoleUser || IsSummary(msgs[i]) {
			continue
		}
		var b strings.Builder
		for _, p := range msgs[i].Content {
			if p.Type == PartText {
				b.WriteString(p.Text)
				b.WriteByte(' ')
			}
		}
		if t := oneLine(b.String()); t != "" {
			return cut(t, DefaultTitleLen)
		}
	}
	return ""
}

// CleanTitle returns a title a person gave on one line, without leading and
// trailing space; EInvalid when it is longer than MaxTitleLen code points.
func CleanTitle(title string) (string, error) {
	t := oneLine(title)
	if n := utf8.RuneCountInString(t); n > MaxTitleLen {
		return "", Errorf(EInvalid, "the title has %d characters; at most %d are allowed", n, MaxTitleLen).
			WithFixes("Use a shorter title (" + strconv.Itoa(MaxTitleLen) + " characters at most).")
	}
	return t, nil
}

// oneLine collapses runs of white space and control characters into single
// spaces and trims the ends.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == '\u00a0'
	}), " ")
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
