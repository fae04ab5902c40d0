package artifacts_test

// The scanner as it was before it was made fast (issue 20 §1's CPU
// target), kept verbatim as the reference the fast scanner must match
// byte for byte (TestScanMatchesReference, FuzzScanMatchesReference). Its
// names shadow nothing: this is the external test package.

import (
	"encoding/json"
	"strings"
)

// Class is the kind of an artifact.
type Class uint8

// The classes, in the order reports list them.
const (
	Path Class = iota + 1
	Command
	Error
	URL
	Identifier
	Todo
)

// Classes lists the classes in report order.
var Classes = [...]Class{Path, Command, Error, URL, Identifier, Todo}

var classNames = [...]string{"", "path", "command", "error", "url", "identifier", "todo"}

// String returns the class's name: path, command, error, url, identifier,
// todo.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return ""
}

// Source says what kind of text is scanned, which decides the rules that
// apply.
type Source uint8

const (
	// Prose is what people and models write: message text and reasoning.
	// Every rule applies.
	Prose Source = iota
	// Output is what tools print and machine payloads: file contents,
	// listings, logs. Paths, URLs, errors and commands ($ lines, shell
	// blocks) count; identifiers, code spans and TODO items do not, since
	// a file's contents would bury the conversation's own under its
	// names.
	Output
)

// MaxText bounds an artifact's text in bytes: longer error lines, commands
// and TODO items are cut at a character boundary (their start is what a
// summary quotes).
const MaxText = 200

// Emit receives each artifact a scan finds: its class and its text, which
// is a substring of the scanned text or, when it held runs of white space,
// a copy with each run made one space.
type Emit func(c Class, text string)

// Scan calls emit with every artifact of text, read as src, in order of
// appearance; an artifact that recurs is emitted each time.
func Scan(text string, src Source, emit Emit) {
	s := scanner{src: src, emit: emit,
		// Searched once per text rather than per line: most texts have
		// none.
		marker: src == Prose && (strings.Contains(text, "TODO") || strings.Contains(text, "FIXME")),
		exit:   strings.Contains(text, "xit "),
		tick:   src == Prose && strings.IndexByte(text, '`') >= 0,
	}
	for len(text) > 0 {
		line := text
		if nl := strings.IndexByte(text, '\n'); nl >= 0 {
			line, text = text[:nl], text[nl+1:]
		} else {
			text = ""
		}
		s.line(line)
	}
}

// fence is the kind of fenced code block a scan is in.
type fence uint8

const (
	noFence fence = iota
	codeFence
	shellFence
	consoleFence
)

type scanner struct {
	src   Source
	emit  Emit
	fence fence
	// marker, exit and tick say whether the text holds a TODO or FIXME
	// marker, "xit " (of "exit status"), a backtick.
	marker, exit, tick bool
}

// line scans one line: fences and shell lines first, then the line's
// tokens.
func (s *scanner) line(line string) {
	t := trimSpace(line)
	if t == "" {
		return
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		s.toggleFence(t)
		return
	}
	switch {
	case s.fence == shellFence && t[0] != '#':
		s.emitCut(Command, strings.TrimPrefix(t, "$ "))
	case (s.fence == consoleFence || s.fence == noFence) && strings.HasPrefix(t, "$ "):
		s.emitCut(Command, t[2:])
	}
	if s.src == Prose && s.fence == noFence {
		s.todoLine(t)
	}
	s.errorLine(t)
	s.tokens(t, s.tick && s.fence == noFence)
}

// toggleFence opens or closes a fenced block; t is the fence line.
func (s *scanner) toggleFence(t string) {
	if s.fence != noFence {
		s.fence = noFence
		return
	}
	lang := strings.ToLower(trimSpace(strings.TrimLeft(t, "`~")))
	if i := strings.IndexAny(lang, " \t{"); i >= 0 {
		lang = lang[:i]
	}
	switch lang {
	case "sh", "bash", "shell", "zsh":
		s.fence = shellFence
	case "console", "shell-session", "terminal":
		s.fence = consoleFence
	default:
		s.fence = codeFence
	}
}

// emitCut emits text, white space made single spaces, cut to MaxText.
func (s *scanner) emitCut(c Class, text string) {
	text = Clean(text)
	if text == "" {
		return
	}
	s.emit(c, Cut(text))
}

// Cut returns text cut to at most MaxText bytes at a character boundary.
func Cut(text string) string {
	if len(text) <= MaxText {
		return text
	}
	n := MaxText
	for n > 0 && text[n]&0xC0 == 0x80 {
		n--
	}
	return trimSpace(text[:n])
}

// tokens scans the line's tokens (and, in prose, its code spans).
func (s *scanner) tokens(t string, prose bool) {
	for len(t) > 0 {
		if prose {
			if i := strings.IndexByte(t, '`'); i >= 0 {
				s.words(t[:i])
				rest := t[i+1:]
				end := strings.IndexByte(rest, '`')
				if end < 0 {
					s.words(rest)
					return
				}
				s.span(rest[:end])
				t = rest[end+1:]
				continue
			}
		}
		s.words(t)
		return
	}
}

// words scans the white-space separated tokens of t that hold an
// interesting byte (see byteClass); the others are skipped eight bytes at
// a time without being split.
func (s *scanner) words(t string) {
	i := 0
	for i < len(t) {
		for i+8 <= len(t) && byteClass[t[i]]|byteClass[t[i+1]]|byteClass[t[i+2]]|byteClass[t[i+3]]|
			byteClass[t[i+4]]|byteClass[t[i+5]]|byteClass[t[i+6]]|byteClass[t[i+7]] == 0 {
			i += 8
		}
		for i < len(t) && byteClass[t[i]] == 0 {
			i++
		}
		if i == len(t) {
			return
		}
		a := i
		for a > 0 && t[a-1] != ' ' && t[a-1] != '\t' {
			a--
		}
		var fl uint8
		for i < len(t) && t[i] != ' ' && t[i] != '\t' {
			fl |= byteClass[t[i]]
			i++
		}
		s.token(t[a:i], fl)
	}
}

// token classifies one token whose bytes may make an artifact.
func (s *scanner) token(tok string, fl uint8) {
	if fl&colon != 0 {
		if i := strings.Index(tok, "://"); i > 0 {
			if u := urlAt(tok, i); u != "" {
				s.emit(URL, u)
			}
			return
		}
	}
	w := trimPunct(tok)
	if w == "" {
		return
	}
	if p := asPath(w); p != "" {
		s.emit(Path, p)
		return
	}
	if s.src == Prose && s.fence != shellFence && isIdentifier(w) {
		s.emit(Identifier, strings.TrimSuffix(w, "()"))
	}
}

// span classifies a code span's content: a URL, a path, else an
// identifier; paths and URLs inside a longer span count too.
func (s *scanner) span(c string) {
	c = trimSpace(c)
	if c == "" || len(c) > 120 {
		return
	}
	if !strings.ContainsAny(c, " \t") {
		if i := strings.Index(c, "://"); i > 0 {
			if u := urlAt(c, i); u != "" {
				s.emit(URL, u)
				return
			}
		}
		if p := asPath(trimPunct(c)); p != "" {
			s.emit(Path, p)
			return
		}
	}
	s.emit(Identifier, Clean(c))
	if strings.ContainsAny(c, " \t") {
		src := s.src
		s.src = Output // only paths and URLs inside
		s.words(c)
		s.src = src
	}
}

// Byte classes, OR-ed over a token: words none of whose bytes has a
// class are skipped without being split.
const (
	slash uint8 = 1 << iota
	colon
	dot
	under
	upper
	paren
)

var byteClass = func() (t [256]uint8) {
	t['/'] = slash
	t[':'] = colon
	t['.'] = dot
	t['_'] = under
	t['('] = paren
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = upper
	}
	return t
}()

// trimSpace trims ASCII white space.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// Clean trims s and makes each run of white space in it one space. It
// returns s itself when nothing changes.
func Clean(s string) string {
	s = trimSpace(s)
	clean := true
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) && (s[i] != ' ' || (i+1 < len(s) && isSpace(s[i+1]))) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// trimPunct trims the punctuation that surrounds a word in prose: opening
// brackets and quotes before it, closing ones and sentence punctuation
// after it (a trailing "()" stays: it marks a call), and a possessive 's.
func trimPunct(w string) string {
	i, j := 0, len(w)
	for i < j && strings.IndexByte("([{<\"'*", w[i]) >= 0 {
		i++
	}
	for j > i {
		if j-i > 2 && w[j-2:j] == "()" {
			break
		}
		if strings.IndexByte(")]}>\"',;:.!?*", w[j-1]) < 0 {
			break
		}
		j--
	}
	return strings.TrimSuffix(w[i:j], "'s")
}

// asPath returns w as a file or directory path, "" when w is not one.
// docs/fidelity.md, "path", says which words count.
func asPath(w string) string {
	w = stripLocation(w)
	if i := strings.LastIndexByte(w, '='); i >= 0 {
		w = w[i+1:] // --out=dir/file.go
	}
	if w == "" || len(w) > 1024 || !pathChars(w) || strings.Contains(w, "//") {
		return ""
	}
	slash := strings.IndexByte(w, '/')
	if slash < 0 {
		if bareFile(w) {
			return w
		}
		return ""
	}
	segs := strings.Count(w, "/")
	last := w[strings.LastIndexByte(w, '/')+1:]
	switch {
	case strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || strings.HasPrefix(w, "~/"):
		return w
	case last == "": // a directory: dir/ or a/b/
		return w
	case hasExt(last):
		return w
	case w[0] == '/' && segs >= 2, w[0] != '/' && segs >= 2:
		return w
	}
	return ""
}

// stripLocation removes a trailing :LINE or :LINE:COLUMN.
func stripLocation(w string) string {
	for {
		i := strings.LastIndexByte(w, ':')
		if i <= 0 || i == len(w)-1 || !allDigits(w[i+1:]) {
			return w
		}
		w = w[:i]
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// pathChars reports whether w has only the bytes paths are written with
// in prose (letters, digits, . _ - / ~ @ +, and any non-ASCII) and at
// least one letter.
func pathChars(w string) bool {
	letter := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9', c == '.', c == '_', c == '-', c == '/', c == '~', c == '@', c == '+', c >= 0x80:
		default:
			return false
		}
	}
	return letter
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
		if strings.IndexByte(".,;:!?'\"`>]}*", c) >= 0 || c == ')' && strings.Count(u, "(") < strings.Count(u, ")") {
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
	for _, m := range [...]string{"TODO", "FIXME"} {
		if !s.marker {
			break
		}
		i := strings.Index(t, m)
		if i < 0 || (i > 0 && isAlnum(t[i-1])) {
			continue
		}
		rest := t[i+len(m):]
		if rest != "" && isAlnum(rest[0]) {
			continue
		}
		if strings.HasPrefix(rest, "(") {
			if j := strings.IndexByte(rest, ')'); j >= 0 {
				rest = rest[j+1:]
			}
		}
		s.emitCut(Todo, strings.TrimLeft(rest, ":- \t"))
		return
	}
	b := stripBullet(t)
	if strings.HasPrefix(b, "[ ] ") {
		s.emitCut(Todo, b[4:])
		return
	}
	for _, p := range [...]string{"next step:", "next steps:", "next:"} {
		if len(b) > len(p) && strings.EqualFold(b[:len(p)], p) {
			s.emitCut(Todo, b[len(p):])
			return
		}
	}
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
	first, rest := cutWord(t)
	switch {
	case first == "---" && strings.HasPrefix(rest, "FAIL: "):
		if name, _ := cutWord(rest[6:]); name != "" {
			s.emit(Error, name)
		}
	case first == "FAILED" || first == "FAIL" || first == "FAIL:":
		if name, _ := cutWord(rest); name != "" && name[0] != '(' {
			s.emit(Error, name)
		}
	case first == "panic:", errorWord(first), diagnostic(first, rest):
		s.emitCut(Error, t)
	}
	// "xit " first: 'x' is rare, so the search skips ahead fast.
	for rest := t; s.exit; {
		i := strings.Index(rest, "xit ")
		if i < 0 {
			break
		}
		if i > 0 && rest[i-1] == 'e' && (i == 1 || !isLetter(rest[i-2])) {
			s.exitStatus(rest[i+len("xit "):])
		}
		rest = rest[i+len("xit "):]
	}
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

// exitStatus emits "exit status N" or "exit code N" when t (what follows
// "exit ") begins with "status N" or "code N".
func (s *scanner) exitStatus(t string) {
	w, rest := cutWord(t)
	if w != "status" && w != "code" {
		return
	}
	n, _ := cutWord(rest)
	n = strings.TrimRight(n, ".,;)")
	if !allDigits(strings.TrimPrefix(n, "-")) {
		return
	}
	s.emit(Error, "exit "+w+" "+n)
}

// cutWord returns t's first white-space separated word and what follows
// it, trimmed.
func cutWord(t string) (word, rest string) {
	t = trimSpace(t)
	i := strings.IndexAny(t, " \t")
	if i < 0 {
		return t, ""
	}
	return t[:i], trimSpace(t[i+1:])
}

// ScanJSON is the root's collector.json as it was: encoding/json, then
// each string by its key.
func ScanJSON(data []byte, emit Emit) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		Scan(string(data), Output, emit)
		return
	}
	jsonValue(v, "", emit)
}

func jsonValue(v any, key string, emit Emit) {
	switch v := v.(type) {
	case string:
		jsonString(v, key, emit)
	case []any:
		for _, e := range v {
			jsonValue(e, key, emit)
		}
	case map[string]any:
		for k, e := range v {
			jsonValue(e, k, emit)
		}
	}
}

var pathKeys = map[string]bool{"path": true, "file": true, "file_path": true, "filepath": true, "filename": true,
	"dir": true, "directory": true, "cwd": true, "target": true, "source": true, "destination": true}

func jsonString(s, key string, emit Emit) {
	switch {
	case key == "command" || key == "cmd":
		if t := Cut(Clean(s)); t != "" {
			emit(Command, t)
		}
	case pathKeys[strings.ToLower(key)] && s != "" && !strings.ContainsAny(s, " \t\n") && len(s) <= 1024:
		emit(Path, s)
	default:
		Scan(s, Output, emit)
	}
}
