// Package artifacts finds the artifacts of a text: file paths, shell
// commands, error lines, URLs, code identifiers and TODO items, the things
// a compaction summary should keep and most often loses. It is pure and
// works on strings; fidelity applies it to messages
// (fidelity.Artifacts). docs/fidelity.md documents every rule and its
// limits. The rules are precise rather than greedy: a word in prose is not
// an identifier.
//
// A scan is one pass over the text, in time linear in its length: lines
// are found with strings.IndexByte, tokens (runs of non-space bytes) are
// read once through a byte table, and only tokens whose bytes could make an
// artifact are looked at again.
package artifacts

import (
	"strings"
	"unicode/utf8"
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

// A Scanner scans texts for one emit, reusing its buffers from one text to
// the next.
type Scanner struct {
	s    scanner
	json jsonWalk
}

// NewScanner returns a Scanner whose scans call emit.
func NewScanner(emit Emit) *Scanner { return &Scanner{s: scanner{emit: emit}} }

// Scan calls the scanner's emit with every artifact of text, read as src,
// in order of appearance; an artifact that recurs is emitted each time.
func (sc *Scanner) Scan(text string, src Source) {
	s := &sc.s
	s.src, s.fence, s.text = src, noFence, text
	s.todo, s.fixme = ahead{needle: "TODO", at: -1}, ahead{needle: "FIXME", at: -1}
	s.tick = src == Prose && strings.IndexByte(text, '`') >= 0
	s.errs = false
	for s.start = 0; s.start < len(text); s.start = s.end + 1 {
		s.end = len(text)
		if nl := strings.IndexByte(text[s.start:], '\n'); nl >= 0 {
			s.end = s.start + nl
		}
		s.line(text[s.start:s.end])
	}
}

// Line is the line being scanned: called from the scan's emit, the line
// the artifact was found in.
func (sc *Scanner) Line() string { return sc.s.text[sc.s.start:sc.s.end] }

// ahead finds the occurrences of a needle in a text in order, each search
// starting where the line being scanned starts, so that the text is read
// once per needle rather than once per line: most texts have none.
type ahead struct {
	needle string
	// at is the offset of the first occurrence at or after the last
	// search's start, -1 before the first search, len(text) when none.
	at int
}

// in reports whether the needle occurs in text[start:end], a line: start
// never decreases from one call to the next.
func (a *ahead) in(text string, start, end int) bool {
	if a.at < start {
		a.at = len(text)
		if i := strings.Index(text[start:], a.needle); i >= 0 {
			a.at = start + i
		}
	}
	return a.at+len(a.needle) <= end
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
	// text is the text scanned, text[start:end] the line being scanned.
	text       string
	start, end int
	// todo and fixme find the TODO and FIXME markers in the text; tick
	// says whether it holds a backtick.
	todo, fixme ahead
	tick        bool
	// pending holds the artifacts of the line's tokens until the line's
	// own (commands, TODO items, errors) are emitted: they come first.
	pending []found
	// exit says whether the line's tokens hold "xit " (of "exit status"),
	// which words looks for in the same pass.
	exit bool
	// errs says whether the text gave an error before the line.
	errs bool
}

// found is an artifact found and not yet emitted.
type found struct {
	class Class
	text  string
}

// line scans one line: fences and shell lines first, then the line's
// tokens, whose pass also finds what errorLine needs.
func (s *scanner) line(line string) {
	t := trimSpace(line)
	if t == "" {
		return
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		s.toggleFence(t)
		return
	}
	s.exit = false
	s.tokens(t, s.tick && s.fence == noFence)
	if c, ok := lineCommand(t, s.fence); ok {
		s.emitCut(Command, c)
		s.pending = s.pending[:0] // its paths are part of it
	}
	if s.src == Prose && s.fence == noFence {
		s.todoLine(t)
	}
	s.errorLine(t)
	for _, f := range s.pending {
		s.emit(f.class, f.text)
	}
	s.pending = s.pending[:0]
}

// lineCommand returns the command of the line t in a block of kind f: a
// line of a shell block (less a leading "$ ", a comment is none), or a "$ "
// line in a console block or outside blocks.
func lineCommand(t string, f fence) (string, bool) {
	switch {
	case f == shellFence && t[0] != '#':
		return strings.TrimPrefix(t, "$ "), true
	case (f == consoleFence || f == noFence) && strings.HasPrefix(t, "$ "):
		return t[2:], true
	}
	return "", false
}

// put holds a token's artifact for the end of the line.
func (s *scanner) put(c Class, text string) { s.pending = append(s.pending, found{c, text}) }

// toggleFence opens or closes a fenced block; t is the fence line.
func (s *scanner) toggleFence(t string) {
	if s.fence != noFence {
		s.fence = noFence
		return
	}
	s.fence = openFence(t)
}

// openFence returns the kind of block the fence line t opens: a shell or
// console block by its language, else a code block.
func openFence(t string) fence {
	lang := strings.ToLower(trimSpace(strings.TrimLeft(t, "`~")))
	if i := strings.IndexAny(lang, " \t{"); i >= 0 {
		lang = lang[:i]
	}
	switch lang {
	case "sh", "bash", "shell", "zsh":
		return shellFence
	case "console", "shell-session", "terminal":
		return consoleFence
	}
	return codeFence
}

// emitCut emits text, white space made single spaces, cut to MaxText.
func (s *scanner) emitCut(c Class, text string) {
	if text = Cut(Clean(text)); text != "" {
		s.emit(c, text)
	}
}

// Cut returns text cut to at most MaxText bytes at a character boundary.
// It steps back over at most three continuation bytes, as far as a valid
// character's start can be: in text that is not UTF-8 (a run of stray
// continuation bytes) it cuts there rather than walk back to nothing.
func Cut(text string) string {
	if len(text) <= MaxText {
		return text
	}
	n := MaxText
	for n > MaxText-utf8.UTFMax+1 && text[n]&0xC0 == 0x80 {
		n--
	}
	return trimSpace(text[:n])
}

// tokens scans the line's tokens (and, in prose, its code spans).
func (s *scanner) tokens(t string, prose bool) {
	if !prose {
		s.words(t)
		return
	}
	eachSpan(t, s.words, s.span)
}

// eachSpan splits a prose line t at its code spans: words gets each piece
// between them (and the rest after a backtick that opens none), span each
// span's content, in order.
func eachSpan(t string, words, span func(string)) {
	for {
		i := strings.IndexByte(t, '`')
		if i < 0 {
			words(t)
			return
		}
		words(t[:i])
		rest := t[i+1:]
		end := strings.IndexByte(rest, '`')
		if end < 0 {
			words(rest)
			return
		}
		span(rest[:end])
		if t = rest[end+1:]; t == "" {
			return
		}
	}
}

// words scans the white-space separated tokens of t that hold a marked
// byte (see marks.go); the others are skipped eight bytes at a time
// without being split.
//
// The same pass finds "xit " for errorLine: an 'x' is marked too, and one
// that starts "xit " sets s.exit; a marked token that ends in "xit" before
// a space does too (a token ends at a space, so that is the only place a
// marked token can hold it).
//
// A capitalised word whose capital is its only marked byte (The, Line) is
// skipped too: it makes nothing (a path needs / or ., a URL a colon, an
// identifier more than a first capital), and prose is full of them.
func (s *scanner) words(t string) {
	prose := s.src == Prose
	for next := nextMark(t, 0, prose); next < len(t); {
		i := next
		if t[i] == 'x' {
			s.exit = s.exit || strings.HasPrefix(t[i+1:], "it ")
			next = nextMark(t, i+1, prose)
			continue
		}
		a := i
		for a > 0 && t[a-1] != ' ' && t[a-1] != '\t' {
			a--
		}
		end, colon := tokenEnd(t, i)
		if prose && a == i && isUpper(t[i]) {
			if next = nextMark(t, i+1, prose); next >= end {
				continue
			}
		}
		s.token(t[a:end], colon)
		s.exit = s.exit || end < len(t) && t[end] == ' ' && strings.HasSuffix(t[a:end], "xit")
		next = nextMark(t, end, prose)
	}
}

// token classifies one token whose bytes may make an artifact.
func (s *scanner) token(tok string, colon bool) {
	if colon {
		if u, ok := tokenURL(tok); ok {
			if u != "" {
				s.put(URL, u)
			}
			return
		}
	}
	w := trimPunct(tok)
	if w == "" {
		return
	}
	if p := asPath(w); p != "" {
		s.put(Path, p)
		return
	}
	if s.src == Prose && s.fence != shellFence && isIdentifier(w) {
		s.put(Identifier, strings.TrimSuffix(w, "()"))
	}
}

// tokenURL returns the URL of a token that holds "://" after its first
// byte, and true: such a token is a URL or nothing ("" when urlAt finds
// none).
func tokenURL(tok string) (string, bool) {
	if i := strings.Index(tok, "://"); i > 0 {
		return urlAt(tok, i), true
	}
	return "", false
}

// span classifies a code span's content: a URL, a path, else an
// identifier; paths and URLs inside a longer span count too.
func (s *scanner) span(c string) {
	c = trimSpace(c)
	if c == "" || len(c) > 120 {
		s.exit = s.exit || strings.Contains(c, "xit ") // words does not read it
		return
	}
	if !strings.ContainsAny(c, " \t") {
		if i := strings.Index(c, "://"); i > 0 {
			if u := urlAt(c, i); u != "" {
				s.put(URL, u)
				return
			}
		}
		if p := asPath(trimPunct(c)); p != "" {
			s.put(Path, p)
			return
		}
	}
	s.put(Identifier, Clean(c))
	if strings.ContainsAny(c, " \t") {
		src := s.src
		s.src = Output // only paths and URLs inside
		s.words(c)
		s.src = src
	}
}

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
	for i < j && openPunct[w[i]] {
		i++
	}
	for j > i {
		if j-i > 2 && w[j-2:j] == "()" {
			break
		}
		if !closePunct[w[j-1]] {
			break
		}
		j--
	}
	return strings.TrimSuffix(w[i:j], "'s")
}

// openPunct and closePunct are the bytes trimPunct trims before and after
// a word.
var openPunct, closePunct = byteSet("([{<\"'*"), byteSet(")]}>\"',;:.!?*")

// byteSet returns a table of the bytes of set.
func byteSet(set string) (t [256]bool) {
	for i := 0; i < len(set); i++ {
		t[set[i]] = true
	}
	return t
}
