package kompact

import (
	"unicode/utf8"
	"unsafe"

	"kompact/internal/jsonwrite"
)

// This file holds kompact's one fast decoder: a single pass over JSON text
// straight into Message values. It accepts any valid JSON (any white space,
// key order and escapes) and gives up, reporting false, as soon as it meets
// anything it is not sure about: a syntax error, an unknown or repeated key,
// a value of the wrong type, invalid UTF-8, a lone surrogate, deep nesting.
// Every caller then runs the precise decoder (DecodeMessage, DecodeSession's
// own), which words the error or handles the rare form; so the result is
// always the precise decoder's, only faster. The fuzzers in
// message_fast_test.go hold the two to that.
//
// Aliasing: with alias set, a string without escapes and an already compact
// data or extras value are not copied: they share the input's memory. The
// input must then never be modified afterwards; DecodeSession and
// ScanMessage document that for their callers. DecodeStoredMessage copies,
// since drivers reuse their buffers.

// DecodeStoredMessage decodes one message as DecodeMessage does, copying
// nothing it does not have to and sharing no memory with data (stores pass
// buffers their driver reuses). index is used in errors.
func DecodeStoredMessage(data []byte, index int) (Message, error) {
	s := scanner{b: data}
	if m, ok := s.messageDoc(""); ok {
		return m, nil
	}
	return DecodeMessage(data, index)
}

// ScanMessage is the fast pass alone: it reads one message as DecodeMessage
// would after removing the key ignoreKey (any value) from the object, and
// reports false whenever it is not sure; the caller then uses DecodeMessage
// for the result or its error. The message's strings may share data's
// memory: data must not be modified afterwards.
func ScanMessage(data []byte, ignoreKey string) (Message, bool) {
	var ms MessageScanner
	return ms.Scan(data, ignoreKey)
}

// holdsRaw reports whether m keeps raw JSON (data parts, tool call extras).
func holdsRaw(m *Message) bool {
	for i := range m.Content {
		if m.Content[i].Type == PartData {
			return true
		}
	}
	for i := range m.ToolCalls {
		if m.ToolCalls[i].Extras != nil {
			return true
		}
	}
	return false
}

// scanSession is DecodeSession's fast pass: it decodes the whole document
// (without checking message ids) or reports false.
func scanSession(data []byte) (*Session, bool) {
	return scanSessionSplit(data, splitMinBytes)
}

// scanSessionSplit is scanSession reading a messages list of splitMin bytes
// or more in two halves at once.
func scanSessionSplit(data []byte, splitMin int) (*Session, bool) {
	s := &scanner{b: data, alias: true, splitMin: splitMin}
	sess := &Session{}
	var seen uint8
	ok := s.object(1, func(key []byte) bool {
		switch string(key) {
		case "id":
			return s.once(&seen, 1) && s.optString(&sess.ID)
		case "agent":
			return s.once(&seen, 2) && s.optString(&sess.Agent)
		case "compaction_model":
			return s.once(&seen, 4) && s.optString(&sess.CompactionModel)
		case "messages":
			return s.once(&seen, 8) && s.messages(sess)
		}
		return false
	})
	return sess, ok && seen&8 != 0 && s.atEnd()
}

// maxScanDepth is the nesting the fast pass handles; deeper documents go to
// the precise decoder, which applies encoding/json's own limit.
const maxScanDepth = 1000

// scanner is a cursor over JSON text. b is never written.
type scanner struct {
	b     []byte
	i     int
	alias bool
	// ignored records that a key passed over by message was met.
	ignored bool
	// parts collects a message's parts; slab is where they are kept, many
	// messages to an allocation.
	parts []Part
	slab  []Part
	// splitMin, when above 0, is the size of a messages list from which it
	// is read in two halves at once.
	splitMin int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) tok(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) atEnd() bool {
	s.ws()
	return s.i == len(s.b)
}

// null consumes a null literal if one comes next.
func (s *scanner) null() bool {
	if s.peek() == 'n' && len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// once sets bit in seen, failing when it was already set (a repeated key).
func (s *scanner) once(seen *uint8, bit uint8) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// object reads an object, calling field with each key (escape-free keys
// only) with the cursor before its value; field must consume the value.
func (s *scanner) object(depth int, field func(key []byte) bool) bool {
	if depth > maxScanDepth || !s.tok('{') {
		return false
	}
	if s.tok('}') {
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		start := s.i + 1
		end, stop, _ := plainRun(s.b, start)
		if stop != '"' {
			return false
		}
		s.i = end + 1
		if !s.tok(':') || !field(s.b[start:end]) {
			return false
		}
		if s.tok(',') {
			continue
		}
		return s.tok('}')
	}
}

// list reads an array, calling item with the cursor before each element.
func (s *scanner) list(depth int, item func() bool) bool {
	if depth > maxScanDepth || !s.tok('[') {
		return false
	}
	if s.tok(']') {
		return true
	}
	for {
		if !item() {
			return false
		}
		if s.tok(',') {
			continue
		}
		return s.tok(']')
	}
}

// optString reads a string into dst; null leaves dst alone.
func (s *scanner) optString(dst *string) bool {
	if s.null() {
		return true
	}
	v, ok := s.str()
	*dst = v
	return ok
}

// plainRun scans b from i to the first byte that ends a run of plain string
// text: a quote, a backslash or a control character. It returns that
// position, the byte (0 at the end of b) and whether the run held non-ASCII
// bytes. Eight bytes are tested at a time: flipping bit 1 of each byte
// turns '"' into 0x20 and leaves control characters below it, so one
// less-than test finds both, another test the backslashes.
func plainRun(b []byte, i int) (int, byte, bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var high uint64
	for ; i+8 <= len(b); i += 8 {
		t := b[i : i+8] // one bounds check, one load
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		y, bs := w^(ones*2), w^(ones*'\\')
		special := (y-ones*0x21)&^y | (bs-ones)&^bs // high bit set in each byte < 0x21 of y, or 0 of bs
		if special&highs != 0 {
			break
		}
		high |= w
	}
	nonASCII := high&highs != 0
	for ; i < len(b); i++ {
		c := b[i]
		if c == '"' || c == '\\' || c < 0x20 {
			return i, c, nonASCII
		}
		if c >= 0x80 {
			nonASCII = true
		}
	}
	return i, 0, nonASCII
}

// validPlainRun is plainRun checking UTF-8: valid is false when the run
// holds invalid UTF-8. A run with non-ASCII bytes is checked in a second
// pass (jsonwrite.ValidUTF8), quicker than checking each sequence as the
// first pass meets it: ValidUTF8 runs a long run's two halves at once,
// while a check inside the scan would be one chain, behind the scan's own
// work (measured on 2 KB strings: a quarter less time on gen_session's
// mixed words, a third less on ASCII, the same on CJK; only strings of a
// few dozen bytes are quicker checked inside the scan).
func validPlainRun(b []byte, i int) (end int, stop byte, valid bool) {
	end, stop, nonASCII := plainRun(b, i)
	if !nonASCII {
		return end, stop, true
	}
	return end, stop, jsonwrite.ValidUTF8(unsafe.String(&b[i], end-i))
}

// str reads a string as encoding/json decodes it into a Go string, failing
// on invalid UTF-8 and lone surrogates (which it would replace).
func (s *scanner) str() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.i + 1
	end, stop, valid := validPlainRun(s.b, start)
	if !valid {
		return "", false
	}
	switch stop {
	case '"':
		s.i = end + 1
		return s.text(s.b[start:end]), true
	case '\\':
		return s.escaped(start, end)
	}
	return "", false
}

// text turns raw string bytes into a string, sharing them when aliasing.
func (s *scanner) text(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	if s.alias {
		return unsafe.String(&raw[0], len(raw))
	}
	return string(raw)
}

// escaped decodes a string holding escapes; the first is at j.
// Only the raw runs between escapes can hold invalid UTF-8 (an escape
// decodes to a valid character or fails), so they alone are checked, as
// they are scanned (the first one by str).
func (s *scanner) escaped(start, j int) (string, bool) {
	out := make([]byte, 0, j-start+64)
	out = append(out, s.b[start:j]...)
	for j < len(s.b) {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			if len(out) == 0 {
				return "", true
			}
			return unsafe.String(&out[0], len(out)), true // out is never written again
		case c == '\\':
			var ok bool
			if out, j, ok = unescape(out, s.b, j); !ok {
				return "", false
			}
		case c < 0x20:
			return "", false
		default:
			end, _, valid := validPlainRun(s.b, j)
			if !valid {
				return "", false
			}
			out = append(out, s.b[j:end]...)
			j = end
		}
	}
	return "", false
}

// unescape appends the character that the escape at b[j] stands for and
// returns the position after it.
func unescape(out, b []byte, j int) ([]byte, int, bool) {
	if j+1 >= len(b) {
		return out, j, false
	}
	switch b[j+1] {
	case '"', '\\', '/':
		return append(out, b[j+1]), j + 2, true
	case 'n':
		return append(out, '\n'), j + 2, true
	case 'r':
		return append(out, '\r'), j + 2, true
	case 't':
		return append(out, '\t'), j + 2, true
	case 'b':
		return append(out, '\b'), j + 2, true
	case 'f':
		return append(out, '\f'), j + 2, true
	case 'u':
		r, ok := hex4(b, j+2)
		if !ok {
			return out, j, false
		}
		j += 6
		if r >= 0xD800 && r < 0xE000 {
			// Only a high surrogate followed by an escaped low one is
			// certain; encoding/json replaces anything else.
			if r >= 0xDC00 || j+6 > len(b) || b[j] != '\\' || b[j+1] != 'u' {
				return out, j, false
			}
			lo, ok := hex4(b, j+2)
			if !ok || lo < 0xDC00 || lo >= 0xE000 {
				return out, j, false
			}
			r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			j += 6
		}
		return utf8.AppendRune(out, r), j, true
	}
	return out, j, false
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, ch := range b[i : i+4] {
		r <<= 4
		switch {
		case ch >= '0' && ch <= '9':
			r |= rune(ch - '0')
		case ch >= 'a' && ch <= 'f':
			r |= rune(ch - 'a' + 10)
		case ch >= 'A' && ch <= 'F':
			r |= rune(ch - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// skip moves past one value, checking its syntax as encoding/json does for
// a value it keeps raw (escapes checked, UTF-8 not).
func (s *scanner) skip(depth int) bool {
	switch s.peek() {
	case '"':
		return s.skipString()
	case '{':
		return s.object(depth, func([]byte) bool { return s.skip(depth + 1) })
	case '[':
		return s.list(depth, func() bool { return s.skip(depth + 1) })
	case 't':
		return s.word("true")
	case 'f':
		return s.word("false")
	case 'n':
		return s.word("null")
	}
	return s.number()
}

func (s *scanner) word(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

func (s *scanner) skipString() bool {
	j := s.i + 1
	for {
		end, stop, _ := plainRun(s.b, j)
		switch stop {
		case '"':
			s.i = end + 1
			return true
		case '\\':
			var ok bool
			var tmp [4]byte
			if _, j, ok = unescapeSyntax(tmp[:0], s.b, end); !ok {
				return false
			}
		default:
			return false
		}
	}
}

// unescapeSyntax checks the escape at b[j] for syntax only: \u with any
// four hex digits is fine, as in raw JSON values.
func unescapeSyntax(out, b []byte, j int) ([]byte, int, bool) {
	if j+1 < len(b) && b[j+1] == 'u' {
		_, ok := hex4(b, j+2)
		return out, j + 6, ok
	}
	return unescape(out, b, j)
}

// number moves past a number of JSON's grammar.
func (s *scanner) number() bool {
	b, i := s.b, s.i
	digits := func() bool {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	s.i = i
	return true
}

// rawValue reads one value and returns it without insignificant white
// space, as compactJSON would.
func (s *scanner) rawValue(depth int) ([]byte, bool) {
	s.ws()
	start := s.i
	if !s.skip(depth) {
		return nil, false
	}
	raw := s.b[start:s.i]
	if c, spaced := compactRaw(raw); spaced {
		return c, true
	}
	if s.alias {
		return raw[:len(raw):len(raw)], true
	}
	return append([]byte(nil), raw...), true
}

// compactRaw returns valid JSON raw without white space outside strings,
// and whether there was any.
func compactRaw(raw []byte) ([]byte, bool) {
	var out []byte
	inStr, esc := false, false
	for i, c := range raw {
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if out == nil {
				out = append(make([]byte, 0, len(raw)), raw[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, c)
		}
	}
	return out, out != nil
}
