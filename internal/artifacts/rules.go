package artifacts

import "strings"

// asPath returns w as a file or directory path, "" when w is not one.
// docs/fidelity.md, "path", says which words count.
func asPath(w string) string {
	w = stripLocation(w)
	if i := strings.LastIndexByte(w, '='); i >= 0 {
		w = w[i+1:] // --out=dir/file.go
	}
	if w == "" || len(w) > 1024 {
		return ""
	}
	sh, ok := pathShapeOf(w)
	if !ok {
		return ""
	}
	if sh.slashes == 0 {
		if bareFile(w) {
			return w
		}
		return ""
	}
	last := w[sh.lastSlash+1:]
	switch {
	case strings.HasPrefix(w, "./"):
		return dotSlash(w, asPath)
	case strings.HasPrefix(w, "../") || strings.HasPrefix(w, "~/"):
		return w
	case last == "": // a directory: dir/ or a/b/
		return w
	case hasExt(last):
		return w
	case w[0] == '/' && sh.slashes >= 2, w[0] != '/' && sh.slashes >= 2:
		return w
	}
	return ""
}

// dotSlash returns p, a path that starts with "./", without it when the
// rest is a path by itself (isPath, the path rules, says so):
// ./cmd/server/main.go and cmd/server/main.go are one path, while ./run
// stays as it is.
func dotSlash(p string, isPath func(string) string) string {
	if q := isPath(p[2:]); q != "" && strings.HasSuffix(p, q) {
		return q
	}
	return p
}

// pathShape is what asPath needs to know of a word's slashes.
type pathShape struct {
	slashes, lastSlash int
}

// pathShapeOf reads w once: ok is false unless w has only the bytes paths
// are written with in prose (letters, digits, . _ - / ~ @ +, and any
// non-ASCII), one letter at least, and no "//".
func pathShapeOf(w string) (sh pathShape, ok bool) {
	letter := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		case c == '/':
			if i > 0 && w[i-1] == '/' {
				return sh, false
			}
			sh.slashes++
			sh.lastSlash = i
		case c >= '0' && c <= '9', c == '.', c == '_', c == '-', c == '~', c == '@', c == '+', c >= 0x80:
		default:
			return sh, false
		}
	}
	return sh, letter
}

// stripLocation removes a trailing :LINE or :LINE:COLUMN.
func stripLocation(w string) string {
	for len(w) > 0 && isDigit(w[len(w)-1]) {
		i := strings.LastIndexByte(w, ':')
		if i <= 0 || i == len(w)-1 || !allDigits(w[i+1:]) {
			return w
		}
		w = w[:i]
	}
	return w
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// hasExt reports whether a path's last segment ends in an extension: a dot
// after its first byte and 1 to 10 letters and digits, one a letter at
// least.
func hasExt(seg string) bool {
	d := strings.LastIndexByte(seg, '.')
	if d <= 0 || d == len(seg)-1 || len(seg)-d-1 > 10 {
		return false
	}
	letter := false
	for i := d + 1; i < len(seg); i++ {
		c := seg[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// bareFile reports whether w, a word without a slash, is a file name: a
// name and one of the known extensions (a one-letter extension needs a
// name of two bytes or more), or a lower-case dot file (.env, .gitignore).
func bareFile(w string) bool {
	d := strings.LastIndexByte(w, '.')
	if d == 0 {
		return len(w) >= 3 && lowerWord(w[1:])
	}
	if d < 0 || d == len(w)-1 {
		return false
	}
	ext := w[d+1:]
	if !knownExt[ext] || (len(ext) == 1 && d < 2) {
		return false
	}
	return strings.IndexByte(w[:d], '.') < 0 || hasExt(w[:d]) // name.test.go, archive.tar.gz
}

func lowerWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}

// knownExt are the extensions that make a word without a directory a file
// name.
var knownExt = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`go mod sum py pyi ipynb js mjs cjs ts tsx jsx rs c h cc cpp hpp cxx java kt kts
		scala rb php cs swift lua pl jl ex exs erl hs ml clj dart vue svelte md markdown rst txt adoc json jsonl
		ndjson yaml yml toml ini cfg conf env properties xml html htm css scss sass less sql graphql proto sh bash
		zsh fish ps1 bat mk cmake gradle lock csv tsv log diff patch png jpg jpeg gif svg webp ico pdf zip tar gz
		tgz whl jar wasm so dylib dll exe db sqlite tf hcl nix tmpl tpl j2 mdx bak tmp out`) {
		m[e] = true
	}
	return m
}()

// urlAt returns the URL in tok whose "://" is at i: from its scheme (http,
// https, ftp, ws, wss) to the end of the token, less the punctuation that
// closes a sentence or a bracket it did not open; "" when the scheme is
// another or the host is empty.
func urlAt(tok string, i int) string {
	k := i
	for k > 0 && isLetter(tok[k-1]) {
		k--
	}
	switch strings.ToLower(tok[k:i]) {
	case "http", "https", "ftp", "ws", "wss":
	default:
		return ""
	}
	u := tok[k:]
	for len(u) > 0 {
		c := u[len(u)-1]
		if urlClose[c] || c == ')' && strings.Count(u, "(") < strings.Count(u, ")") {
			u = u[:len(u)-1]
			continue
		}
		break
	}
	if len(u) <= i-k+3 {
		return ""
	}
	return u
}

// urlClose are the bytes urlAt trims at the end of a URL.
var urlClose = byteSet(".,;:!?'\"`>]}*")

func isLetter(c byte) bool  { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isLower(c byte) bool   { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool   { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool   { return isLetter(c) || isDigit(c) }
func isIDStart(c byte) bool { return isLetter(c) || c == '_' }

// isIdentifier reports whether w (a word, its punctuation trimmed) looks
// like code: CamelCase or camelCase, snake_case or SCREAMING_CASE, a
// dotted name with a capitalised part (pkg.Func, Plan.Apply) or a call
// (name()). docs/fidelity.md, "identifier", gives the limits.
func isIdentifier(w string) bool {
	call := strings.HasSuffix(w, "()")
	id := strings.TrimSuffix(w, "()")
	if len(id) < 2 || (!call && len(id) < 3) || !isIDStart(id[0]) {
		return false
	}
	var lower, hump, inner, upperSeg bool
	dots, segStart, firstSeg := 0, 0, 0
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case isLower(c):
			lower = true
		case isUpper(c):
			if i == segStart && segStart > 0 {
				upperSeg = true
			}
			if i > segStart && (isLower(id[i-1]) || isDigit(id[i-1]) || isUpper(id[i-1]) && i+2 < len(id) && isLower(id[i+1]) && isLower(id[i+2])) {
				hump = true
			}
		case isDigit(c):
		case c == '_':
			if i > segStart && i+1 < len(id) && isAlnum(id[i-1]) && isAlnum(id[i+1]) {
				inner = true
			}
		case c == '.':
			if i+1 >= len(id) || !isIDStart(id[i+1]) {
				return false
			}
			if dots == 0 {
				firstSeg = i
			}
			dots++
			segStart = i + 1
		default:
			return false
		}
	}
	switch {
	case dots > 0:
		return firstSeg >= 2 && (upperSeg || call || inner || hump && lower)
	case call, inner:
		return true
	}
	return hump && lower
}

// todoLine emits the TODO item of a prose line: the text after a TODO or
// FIXME marker, an unchecked task ("- [ ] ..."), or a "next step" line.
func (s *scanner) todoLine(t string) {
	for _, m := range [...]*ahead{&s.todo, &s.fixme} {
		if !m.in(s.text, s.start, s.end) {
			continue
		}
		if item, ok := todoMarker(t, m.needle); ok {
			s.emitCut(Todo, item)
			return
		}
	}
	b := stripBullet(t)
	if b == "" || b[0] != '[' && b[0]|0x20 != 'n' {
		return // neither a task nor a next step
	}
	if item, ok := todoTask(b); ok {
		s.emitCut(Todo, item)
	}
}

// todoMarker returns the item the first marker (TODO or FIXME) of the
// line t opens, and whether it opens one: a marker inside a word does not.
func todoMarker(t, marker string) (string, bool) {
	i := strings.Index(t, marker)
	if i < 0 || (i > 0 && isAlnum(t[i-1])) {
		return "", false
	}
	rest := t[i+len(marker):]
	if rest != "" && isAlnum(rest[0]) {
		return "", false
	}
	if strings.HasPrefix(rest, "(") {
		if j := strings.IndexByte(rest, ')'); j >= 0 {
			rest = rest[j+1:]
		}
	}
	return strings.TrimLeft(rest, ":- \t"), true
}

// todoTask returns the item of b, a line less its bullet, when it is an
// unchecked task or a "next step" line.
func todoTask(b string) (string, bool) {
	if strings.HasPrefix(b, "[ ] ") {
		return b[4:], true
	}
	for _, p := range [...]string{"next step:", "next steps:", "next:"} {
		if len(b) > len(p) && strings.EqualFold(b[:len(p)], p) {
			return b[len(p):], true
		}
	}
	return "", false
}

// stripBullet removes a list bullet (-, *, +, 1.) or heading marks and the
// space after them.
func stripBullet(t string) string {
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		return trimSpace(t[2:])
	case t[0] == '#':
		return trimSpace(strings.TrimLeft(t, "#"))
	}
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return trimSpace(t[i+2:])
	}
	return t
}

// errorLine emits the error of a line: a panic, an error or exception
// line, a compiler diagnostic, a failing test, an exit status.
func (s *scanner) errorLine(t string) {
	e := ""
	if opensError(t) {
		e = lineError(t)
	}
	if e != "" {
		s.emit(Error, e)
		s.errs = true
	}
	if s.exit { // words found "xit " in the line's tokens
		if x := exitError(t, e, s.errs); x != "" {
			s.emit(Error, x)
			s.errs = true
		}
	}
}

// exitError returns the error an exit status on the line t gives, "" for
// none: the line itself, which holds what failed (--- FAIL: TestX …
// exit status 1), unless it is already the line's error (lineErr); a line
// that is only the status gives it alone when the text had no error
// before it (prior; after one it says nothing more).
func exitError(t, lineErr string, prior bool) string {
	status := firstExit(t)
	if status == "" {
		return ""
	}
	line := Cut(Clean(t))
	switch {
	case line == lineErr:
		return ""
	case strings.TrimRight(line, ".,;)") == status:
		if prior || lineErr != "" {
			return ""
		}
		return status
	}
	return line
}

// firstExit returns the first exit status of the line t, "exit status N"
// or "exit code N" where "exit" starts a word, "" when it has none.
func firstExit(t string) string {
	for rest := t; ; {
		i := strings.Index(rest, "xit ")
		if i < 0 {
			return ""
		}
		if i > 0 && rest[i-1] == 'e' && (i == 1 || !isLetter(rest[i-2])) {
			if e := exitText(rest[i+len("xit "):]); e != "" {
				return e
			}
		}
		rest = rest[i+len("xit "):]
	}
}

// opensError reports whether the first word of t (a trimmed line) could
// open one of errorStart's forms: it is ---, FAIL, FAILED, fatal or ERROR,
// or it ends in a colon. Most lines' first word is none: the check spares
// them the rest.
func opensError(t string) bool {
	i := 0
	for i < len(t) && t[i] != ' ' && t[i] != '\t' {
		i++
	}
	switch w := t[:i]; {
	case w == "":
		return false
	case w[len(w)-1] == ':':
		return true
	default:
		return w == "---" || w == "FAIL" || w == "FAILED" || w == "fatal" || w == "ERROR"
	}
}

// lineError returns the error the line t opens, "" when it opens none
// (see errorLine): a failing test's name, else the line itself.
func lineError(t string) string {
	first, rest := cutWord(t)
	switch {
	case first == "---" && strings.HasPrefix(rest, "FAIL: "):
		name, _ := cutWord(rest[6:])
		return name
	case first == "FAILED" || first == "FAIL" || first == "FAIL:":
		if name, _ := cutWord(rest); name != "" && name[0] != '(' {
			return name
		}
	case first == "panic:", errorWord(first), diagnostic(first, rest):
		return Cut(Clean(t))
	}
	return ""
}

// errorWord reports whether a line's first word opens an error: error:,
// Error:, ERROR:, fatal error:, error[E0308]:, or a word ending in
// Error: or Exception: (ValueError:, java.io.IOException:).
func errorWord(w string) bool {
	if !strings.HasSuffix(w, ":") {
		return w == "fatal" || w == "ERROR"
	}
	w = w[:len(w)-1]
	if i := strings.IndexByte(w, '['); i > 0 && strings.HasSuffix(w, "]") {
		w = w[:i] // error[E0308]
	}
	switch w {
	case "error", "Error", "ERROR", "fatal", "FATAL":
		return true
	}
	return len(w) > 5 && (strings.HasSuffix(w, "Error") || strings.HasSuffix(w, "Exception")) && isIDStart(w[0])
}

// diagnostic reports whether a line is a compiler or linter diagnostic:
// its first word is a path with a line and a column (file.go:12:5:), or a
// path with a line followed by an error or warning word.
func diagnostic(first, rest string) bool {
	if !strings.HasSuffix(first, ":") {
		return false
	}
	loc := first[:len(first)-1]
	p := stripLocation(loc)
	if p == loc || asPath(p) == "" {
		return false
	}
	if strings.Count(loc[len(p):], ":") >= 2 {
		return true
	}
	w, _ := cutWord(rest)
	return errorWord(w) || w == "warning:"
}

// exitText returns "exit status N" or "exit code N" when t (what follows
// "exit ") begins with "status N" or "code N", else "".
func exitText(t string) string {
	w, rest := cutWord(t)
	if w != "status" && w != "code" {
		return ""
	}
	n, _ := cutWord(rest)
	n = strings.TrimRight(n, ".,;)")
	if !allDigits(strings.TrimPrefix(n, "-")) {
		return ""
	}
	return "exit " + w + " " + n
}

// cutWord returns t's first white-space separated word and what follows
// it, trimmed.
func cutWord(t string) (word, rest string) {
	t = trimSpace(t)
	for i := 0; i < len(t); i++ {
		if t[i] == ' ' || t[i] == '\t' {
			return t[:i], trimSpace(t[i+1:])
		}
	}
	return t, ""
}
