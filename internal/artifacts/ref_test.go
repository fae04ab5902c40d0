package artifacts

// The scanner as it was before it was made fast (issue 20 §1's CPU
// target), kept as the reference the fast scanner must match byte for
// byte (TestScanMatchesReference, FuzzScanMatchesReference, and for JSON
// values TestScanJSONMatchesReference, FuzzScanJSONMatchesReference).
//
// It keeps its own code wherever the fast scanner reads differently:
//   - the driver (refScan): each text searched once for TODO, FIXME, "xit "
//     and a backtick, lines split one by one, and a line read in the order
//     its artifacts are emitted (commands, TODO items, errors, then its
//     tokens), where the fast scanner reads the tokens first and holds
//     their artifacts, finds "xit " in the tokens' pass and looks for the
//     markers from where each line starts;
//   - the choice of the tokens to look at (refWords: a byte table, where
//     the fast scanner marks bytes eight at a time and finds a token's end
//     the same way);
//   - the error line without the check of its first word (opensError) and
//     the task line without the check of its first byte;
//   - the path rules (refAsPath: three passes over a word where
//     pathShapeOf makes one; refStripLocation without the check of the
//     last byte) and cutWord (refCutWord, strings.IndexAny);
//   - JSON values always through encoding/json (refScanJSON), where
//     quickJSON reads most of them in one pass.
//
// What the speed work never changed it takes from the scanner, so that a
// copy does not pass for a check: the fence languages (openFence), the
// splitting of a line at its code spans (eachSpan), the TODO markers and
// tasks (todoMarker, todoTask), the error forms (lineError), exit statuses
// (exitError), the "./" of a path (dotSlash), the URL, punctuation, file name and identifier rules, the JSON
// key rules (jsonRule), Clean and Cut. The byte tables that replaced
// strings.IndexByte in trimPunct and urlAt are checked against it for every
// byte (TestByteSets).

import (
	"encoding/json"
	"strings"
)

// refScan calls emit with every artifact of text, read as src, in order of
// appearance.
func refScan(text string, src Source, emit Emit) {
	s := refScanner{src: src, emit: emit,
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

type refScanner struct {
	src   Source
	emit  Emit
	fence fence
	// marker, exit and tick say whether the text holds a TODO or FIXME
	// marker, "xit " (of "exit status"), a backtick; errs whether the
	// text gave an error before the line.
	marker, exit, tick, errs bool
}

// line scans one line: fences and shell lines first, then the line's
// tokens.
func (s *refScanner) line(line string) {
	t := trimSpace(line)
	if t == "" {
		return
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		if s.fence != noFence {
			s.fence = noFence
		} else {
			s.fence = openFence(t)
		}
		return
	}
	command := false
	if c, ok := lineCommand(t, s.fence); ok {
		s.emitCut(Command, c)
		command = true
	}
	if s.src == Prose && s.fence == noFence {
		s.todoLine(t)
	}
	e := lineError(t)
	if e != "" {
		s.emit(Error, e)
		s.errs = true
	}
	if s.exit {
		if x := exitError(t, e, s.errs); x != "" {
			s.emit(Error, x)
			s.errs = true
		}
	}
	if command { // a command's paths are part of it
		return
	}
	if s.tick && s.fence == noFence {
		eachSpan(t, s.words, s.span)
	} else {
		s.words(t)
	}
}

// emitCut emits text, white space made single spaces, cut to MaxText.
func (s *refScanner) emitCut(c Class, text string) {
	if text = Cut(Clean(text)); text != "" {
		s.emit(c, text)
	}
}

// todoLine emits the TODO item of a prose line.
func (s *refScanner) todoLine(t string) {
	for _, m := range [...]string{"TODO", "FIXME"} {
		if !s.marker {
			break
		}
		if item, ok := todoMarker(t, m); ok {
			s.emitCut(Todo, item)
			return
		}
	}
	if item, ok := todoTask(stripBullet(t)); ok {
		s.emitCut(Todo, item)
	}
}

// words scans the white-space separated tokens of t that hold an
// interesting byte (see refByteClass); the others are skipped.
func (s *refScanner) words(t string) {
	i := 0
	for i < len(t) {
		for i < len(t) && refByteClass[t[i]] == 0 {
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
			fl |= refByteClass[t[i]]
			i++
		}
		s.token(t[a:i], fl)
	}
}

// Byte classes, OR-ed over a token: words none of whose bytes has a
// class are skipped without being split.
const (
	refSlash uint8 = 1 << iota
	refColon
	refDot
	refUnder
	refUpper
	refParen
)

var refByteClass = func() (t [256]uint8) {
	t['/'] = refSlash
	t[':'] = refColon
	t['.'] = refDot
	t['_'] = refUnder
	t['('] = refParen
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = refUpper
	}
	return t
}()

// token classifies one token whose bytes may make an artifact.
func (s *refScanner) token(tok string, fl uint8) {
	if u, ok := tokenURL(tok); ok && fl&refColon != 0 {
		if u != "" {
			s.emit(URL, u)
		}
		return
	}
	switch w := trimPunct(tok); {
	case w == "":
	case refAsPath(w) != "":
		s.emit(Path, refAsPath(w))
	case s.src == Prose && s.fence != shellFence && isIdentifier(w):
		s.emit(Identifier, strings.TrimSuffix(w, "()"))
	}
}

// span classifies a code span's content: a URL, a path, else an
// identifier; paths and URLs inside a longer span count too.
func (s *refScanner) span(c string) {
	c = trimSpace(c)
	if c == "" || len(c) > 120 {
		return
	}
	spaced := strings.ContainsAny(c, " \t")
	if !spaced {
		if i := strings.Index(c, "://"); i > 0 && urlAt(c, i) != "" {
			s.emit(URL, urlAt(c, i))
			return
		}
		if p := refAsPath(trimPunct(c)); p != "" {
			s.emit(Path, p)
			return
		}
	}
	s.emit(Identifier, Clean(c))
	if spaced {
		src := s.src
		s.src = Output // only paths and URLs inside
		s.words(c)
		s.src = src
	}
}

// refAsPath returns w as a file or directory path, "" when w is not one.
func refAsPath(w string) string {
	w = refStripLocation(w)
	if i := strings.LastIndexByte(w, '='); i >= 0 {
		w = w[i+1:] // --out=dir/file.go
	}
	if w == "" || len(w) > 1024 || !refPathChars(w) || strings.Contains(w, "//") {
		return ""
	}
	if strings.IndexByte(w, '/') < 0 {
		if bareFile(w) {
			return w
		}
		return ""
	}
	if strings.HasPrefix(w, "./") {
		return dotSlash(w, refAsPath)
	}
	segs := strings.Count(w, "/")
	last := w[strings.LastIndexByte(w, '/')+1:]
	if strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || strings.HasPrefix(w, "~/") || last == "" || hasExt(last) || segs >= 2 {
		return w
	}
	return ""
}

// refStripLocation removes a trailing :LINE or :LINE:COLUMN.
func refStripLocation(w string) string {
	for {
		i := strings.LastIndexByte(w, ':')
		if i <= 0 || i == len(w)-1 || !allDigits(w[i+1:]) {
			return w
		}
		w = w[:i]
	}
}

// refPathChars reports whether w has only the bytes paths are written with
// in prose (letters, digits, . _ - / ~ @ +, and any non-ASCII) and at
// least one letter.
func refPathChars(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !isAlnum(c) && c < 0x80 && strings.IndexByte("._-/~@+", c) < 0 {
			return false
		}
	}
	return strings.ContainsFunc(w, func(r rune) bool { return r < 0x80 && isLetter(byte(r)) })
}

// refCutWord returns t's first white-space separated word and what
// follows it, trimmed.
func refCutWord(t string) (word, rest string) {
	t = trimSpace(t)
	i := strings.IndexAny(t, " \t")
	if i < 0 {
		return t, ""
	}
	return t[:i], trimSpace(t[i+1:])
}

// refScanJSON is ScanJSON as it was: encoding/json, then each string by
// its key.
func refScanJSON(data []byte, emit Emit) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		refScan(string(data), Output, emit)
		return
	}
	eachJSONString(v, "", func(s, key string) {
		if c, text := jsonRule(s, key); c == 0 {
			refScan(s, Output, emit)
		} else if text != "" {
			emit(c, text)
		}
	})
}
