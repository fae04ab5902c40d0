package toolprune

import (
	"regexp"
	"strconv"
	"strings"

	"kompact"
	"kompact/internal/artifacts"
)

// The marker's bounds: at most maxPaths paths, together at most
// maxPathChars bytes; the rest are counted ("and 12 more").
const (
	maxPaths     = 20
	maxPathChars = 1000
)

// exitStatus finds an exit status as the artifact scanner words it.
var exitStatus = regexp.MustCompile(`\bexit (status|code) -?[0-9]+\b`)

// Marker is the one line that replaces the text of tool result m, of tool
// and chars code points: "[tool output cleared by kompact: bash, 48,213
// chars, 1,204 lines; exit status 1; first error: …; paths: a.go, b.go]".
// The error and the paths are what internal/artifacts finds in the text;
// the error is shown as the line it was found in (a failing test's line
// keeps its message, not only the test's name).
func Marker(tool string, chars int, m *kompact.Message) string {
	var b strings.Builder
	b.WriteString(MarkerPrefix)
	b.WriteString(oneLine(tool))
	b.WriteString(", " + thousands(chars) + " chars")
	lines := 0
	var firstErr string
	var paths []string
	seen := map[string]bool{}
	var sc *artifacts.Scanner
	sc = artifacts.NewScanner(func(c artifacts.Class, text string) {
		switch {
		case c == artifacts.Error && firstErr == "":
			firstErr = artifacts.Cut(artifacts.Clean(sc.Line()))
		case c == artifacts.Path && !seen[text]:
			seen[text] = true
			paths = append(paths, text)
		}
	})
	exit := ""
	m.Texts(func(t string) {
		lines += strings.Count(t, "\n") + 1
		sc.Scan(t, artifacts.Output)
		if exit == "" {
			exit = exitStatus.FindString(t)
		}
	})
	b.WriteString(", " + thousands(lines) + " line")
	if lines != 1 {
		b.WriteByte('s')
	}
	if exit != "" {
		b.WriteString("; " + exit)
	}
	if firstErr != "" && firstErr != exit {
		b.WriteString("; first error: " + oneLine(firstErr))
	}
	writePaths(&b, paths)
	b.WriteByte(']')
	return b.String()
}

// writePaths adds the paths to the marker, within its bounds.
func writePaths(b *strings.Builder, paths []string) {
	if len(paths) == 0 {
		return
	}
	b.WriteString("; paths: ")
	used, n := 0, 0
	for _, p := range paths {
		if n == maxPaths || used+len(p) > maxPathChars {
			break
		}
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString(oneLine(p))
		used += len(p)
		n++
	}
	if rest := len(paths) - n; rest > 0 {
		b.WriteString(" and " + thousands(rest) + " more")
	}
}

// oneLine is s with its line breaks made spaces, so that a marker stays one
// line.
func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }
