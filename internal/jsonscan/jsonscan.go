// Package jsonscan is a cursor over JSON text for one-pass decoders: it
// reads objects, lists, strings (runs of plain text, escapes), numbers and
// raw values, and reports false as soon as it meets anything it is not sure
// about, leaving that input to a precise decoder (the root's reference
// decoders, over encoding/json). The cursor never writes the text it reads.
// With Alias set, a string without escapes and an already compact raw value
// share the text's memory instead of being copied; with Defer set too, so
// does a string with escapes, still escaped, for Unescape to decode in
// place once the caller knows the scan succeeded.
package jsonscan

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"

	"kompact/internal/jsonwrite"
)

// maxScanDepth is the nesting the fast pass handles; deeper documents go to
// the reference decoder, which applies encoding/json's own limit.
const maxScanDepth = 1000

// Cursor is a position I in the JSON text B, which it never writes. With
// Alias set, the strings and raw values it reads may share B's memory.
//
// Defer (with Alias) leaves a string that holds escapes as it stands in B,
// checked as it would be decoded, and counts it in Deferred: a caller that
// owns B and is done scanning passes such strings through Unescape, which
// decodes them in B's memory. Until then B is as it was, so that a caller
// whose scan failed can still hand B to another decoder.
type Cursor struct {
	B        []byte
	I        int
	Alias    bool
	Defer    bool
	Deferred int
}

// WS moves past white space.
func (s *Cursor) WS() {
	for s.I < len(s.B) {
		switch s.B[s.I] {
		case ' ', '\t', '\n', '\r':
			s.I++
		default:
			return
		}
	}
}

// Peek returns the next byte after white space, or 0 at the end.
func (s *Cursor) Peek() byte {
	s.WS()
	if s.I < len(s.B) {
		return s.B[s.I]
	}
	return 0
}

// Tok consumes c if it comes next, after white space.
func (s *Cursor) Tok(c byte) bool {
	if s.Peek() == c {
		s.I++
		return true
	}
	return false
}

// AtEnd reports whether only white space is left.
func (s *Cursor) AtEnd() bool {
	s.WS()
	return s.I == len(s.B)
}

// Null consumes a null literal if one comes next.
func (s *Cursor) Null() bool {
	if s.Peek() == 'n' && len(s.B)-s.I >= 4 && string(s.B[s.I:s.I+4]) == "null" {
		s.I += 4
		return true
	}
	return false
}

// Object reads an object, calling field with each key (escape-free keys
// only) with the cursor before its value; field must consume the value.
func (s *Cursor) Object(depth int, field func(key []byte) bool) bool {
	if depth > maxScanDepth || !s.Tok('{') {
		return false
	}
	if s.Tok('}') {
		return true
	}
	for {
		if s.Peek() != '"' {
			return false
		}
		start := s.I + 1
		end, stop, _ := PlainRun(s.B, start)
		if stop != '"' {
			return false
		}
		s.I = end + 1
		if !s.Tok(':') || !field(s.B[start:end]) {
			return false
		}
		if s.Tok(',') {
			continue
		}
		return s.Tok('}')
	}
}

// List reads an array, calling item with the cursor before each element.
func (s *Cursor) List(depth int, item func() bool) bool {
	if depth > maxScanDepth || !s.Tok('[') {
		return false
	}
	if s.Tok(']') {
		return true
	}
	for {
		if !item() {
			return false
		}
		if s.Tok(',') {
			continue
		}
		return s.Tok(']')
	}
}

// OptString reads a string into dst; null leaves dst alone.
func (s *Cursor) OptString(dst *string) bool {
	if s.Null() {
		return true
	}
	v, ok := s.Str()
	*dst = v
	return ok
}

// PlainRun scans b from i to the first byte that ends a run of plain string
// text: a quote, a backslash or a control character. It returns that
// position, the byte (0 at the end of b) and whether the run held non-ASCII
// bytes. Eight bytes are tested at a time: flipping bit 1 of each byte
// turns '"' into 0x20 and leaves control characters below it, so one
// less-than test finds both, another test the backslashes.
func PlainRun(b []byte, i int) (int, byte, bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var high uint64
	str := unsafe.String(unsafe.SliceData(b), len(b)) // b read as a string, for Load8
	for ; i+8 <= len(b); i += 8 {
		w := jsonwrite.Load8(str, i)
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

// validPlainRun is PlainRun checking UTF-8: valid is false when the run
// holds invalid UTF-8. A run with non-ASCII bytes is checked in a second
// pass (jsonwrite.ValidUTF8), quicker than checking each sequence as the
// first pass meets it: ValidUTF8 runs a long run's two halves at once,
// while a check inside the scan would be one chain, behind the scan's own
// work (measured on 2 KB strings: a quarter less time on gen_session's
// mixed words, a third less on ASCII, the same on CJK; only strings of a
// few dozen bytes are quicker checked inside the scan).
func validPlainRun(b []byte, i int) (end int, stop byte, valid bool) {
	end, stop, nonASCII := PlainRun(b, i)
	if !nonASCII {
		return end, stop, true
	}
	return end, stop, jsonwrite.ValidUTF8(unsafe.String(&b[i], end-i))
}

// Str reads a string as encoding/json decodes it into a Go string, failing
// on invalid UTF-8 and lone surrogates (which it would replace).
func (s *Cursor) Str() (string, bool) {
	if s.Peek() != '"' {
		return "", false
	}
	start := s.I + 1
	end, stop, valid := validPlainRun(s.B, start)
	if !valid {
		return "", false
	}
	switch stop {
	case '"':
		s.I = end + 1
		return s.text(s.B[start:end]), true
	case '\\':
		return s.escaped(start, end)
	}
	return "", false
}

// text turns raw string bytes into a string, sharing them when aliasing.
func (s *Cursor) text(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	if s.Alias {
		return unsafe.String(&raw[0], len(raw))
	}
	return string(raw)
}

// escaped reads a string holding escapes; the first is at j. It decodes
// the string, or, with Defer, leaves it as it stands in B.
func (s *Cursor) escaped(start, j int) (string, bool) {
	if s.Defer && s.Alias {
		_, end, ok := decodeEscaped(nil, s.B, j, false)
		if !ok {
			return "", false
		}
		s.I = end + 1
		s.Deferred++
		return unsafe.String(&s.B[start], end-start), true
	}
	// The decoded string is no longer than the raw one (an escape stands
	// for fewer bytes than it takes): one allocation, of the raw size, not
	// a doubling buffer (three times a long text's size).
	out := make([]byte, 0, closingQuote(s.B, j)-start)
	out = append(out, s.B[start:j]...)
	out, end, ok := decodeEscaped(out, s.B, j, true)
	if !ok {
		return "", false
	}
	s.I = end + 1
	if len(out) == 0 {
		return "", true
	}
	return unsafe.String(&out[0], len(out)), true // out is never written again
}

// decodeEscaped checks the rest of a string whose first escape is at b[j]
// as Str decodes it, appending the decoded text to out when decode is set,
// and returns the position of its closing quote. Only the raw runs between
// escapes can hold invalid UTF-8 (an escape decodes to a valid character
// or fails), so they alone are checked, as they are scanned (the first one
// by Str).
func decodeEscaped(out, b []byte, j int, decode bool) ([]byte, int, bool) {
	for j < len(b) {
		switch c := b[j]; {
		case c == '"':
			return out, j, true
		case c == '\\':
			var ok bool
			if decode {
				out, j, ok = unescape(out, b, j)
			} else {
				j, ok = checkEscape(b, j)
			}
			if !ok {
				return out, 0, false
			}
		case c < 0x20:
			return out, 0, false
		default:
			end, _, valid := validPlainRun(b, j)
			if !valid {
				return out, 0, false
			}
			if decode {
				out = append(out, b[j:end]...)
			}
			j = end
		}
	}
	return out, 0, false
}

// checkEscape checks the escape at b[j] as unescape decodes it and returns
// the position after it.
func checkEscape(b []byte, j int) (int, bool) {
	var tmp [4]byte
	_, j, ok := unescape(tmp[:0], b, j)
	return j, ok
}

// closingQuote returns the position of the quote that ends the string
// holding b[j] (one an odd run of backslashes does not escape), or len(b).
func closingQuote(b []byte, j int) int {
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		q := j + k
		slashes := 0
		for p := q - 1; p >= j && b[p] == '\\'; p-- {
			slashes++
		}
		if slashes%2 == 0 {
			return q
		}
		j = q + 1
	}
}

// appendUnescaped appends the decoded text of raw, the inside of a string
// decodeEscaped accepted. out may share raw's memory from its start on:
// each step writes no further than it has read (an escape decodes to fewer
// bytes than it takes, and unescape reads an escape before it writes).
func appendUnescaped(out, raw []byte) []byte {
	for i := 0; ; {
		k := bytes.IndexByte(raw[i:], '\\')
		if k < 0 {
			return append(out, raw[i:]...)
		}
		out = append(out, raw[i:i+k]...)
		out, i, _ = unescape(out, raw, i+k)
	}
}

// Unescape decodes a string that a Cursor with Defer set left escaped,
// in place: the result shares its memory, which it overwrites. Any other
// string a Cursor returned (one without escapes holds no backslash) comes
// back as it is. Call it only on strings of a scan that succeeded, in a B
// that nothing else reads.
func Unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	raw := unsafe.Slice(unsafe.StringData(s), len(s))
	out := appendUnescaped(raw[:0:len(raw)], raw)
	return unsafe.String(&out[0], len(out))
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

// Skip moves past one value, checking its syntax as encoding/json does for
// a value it keeps raw (escapes checked, UTF-8 not).
func (s *Cursor) Skip(depth int) bool {
	switch s.Peek() {
	case '"':
		return s.skipString()
	case '{':
		return s.Object(depth, func([]byte) bool { return s.Skip(depth + 1) })
	case '[':
		return s.List(depth, func() bool { return s.Skip(depth + 1) })
	case 't':
		return s.word("true")
	case 'f':
		return s.word("false")
	case 'n':
		return s.word("null")
	}
	return s.number()
}

func (s *Cursor) word(w string) bool {
	if len(s.B)-s.I >= len(w) && string(s.B[s.I:s.I+len(w)]) == w {
		s.I += len(w)
		return true
	}
	return false
}

func (s *Cursor) skipString() bool {
	j := s.I + 1
	for {
		end, stop, _ := PlainRun(s.B, j)
		switch stop {
		case '"':
			s.I = end + 1
			return true
		case '\\':
			var ok bool
			var tmp [4]byte
			if _, j, ok = unescapeSyntax(tmp[:0], s.B, end); !ok {
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
func (s *Cursor) number() bool {
	b, i := s.B, s.I
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
	s.I = i
	return true
}

// RawValue reads one value and returns it without insignificant white
// space, as compactJSON would.
func (s *Cursor) RawValue(depth int) ([]byte, bool) {
	s.WS()
	start := s.I
	if !s.Skip(depth) {
		return nil, false
	}
	raw := s.B[start:s.I]
	if c, spaced := compactRaw(raw); spaced {
		return c, true
	}
	if s.Alias {
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

// ElementEnd returns the position after the object or list that opens at
// b[i], by its brackets alone (strings passed over), or -1 when b ends
// first.
func ElementEnd(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			k := j + 1
			for {
				end, stop, _ := PlainRun(b, k)
				if end >= len(b) {
					return -1
				}
				if stop == '"' {
					j = end
					break
				}
				k = end + 1
				if stop == '\\' {
					k++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// SkipWSBack returns the position of the last byte of b at or before i that
// is not white space, or -1.
func SkipWSBack(b []byte, i int) int {
	for i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i--
	}
	return i
}
