// Package jsonwrite appends JSON text to byte slices quickly and in an exact,
// documented dialect: strings escape only what JSON requires.
//
// The dialect is the one pydantic's model_dump_json writes (and any JSON
// reader accepts): '"' and '\\' are escaped, control characters U+0000 to
// U+001F become \n, \r, \t, \b, \f or \u00xx in lowercase hex, and everything
// else, including '<', '>', '&', DEL and U+2028/U+2029, is written literally.
// encoding/json escapes more and so cannot produce it.
package jsonwrite

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf8"
)

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// stopMask returns a word whose lowest set bit is the high bit of the first
// byte of x (little-endian) that the fast path cannot copy: a control
// character, '"', '\\', or a byte at or above 0x80 (which starts or continues
// a multi-byte sequence to validate). It is zero when there is none. Higher
// set bits may be false positives; only the lowest is exact.
func stopMask(x uint64) uint64 {
	return escapeMask(x) | x&msb
}

// Load8 reads s[i:i+8] as a little-endian word: one bounds check, one load.
// It is the one copy of the word load that the word-at-a-time loops of
// kompact (this package's, jsonscan's, the root's code point count) use.
func Load8(s string, i int) uint64 {
	t := s[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

const hex = "0123456789abcdef"

// AppendString appends s as a quoted JSON string. Invalid UTF-8 bytes are
// replaced by U+FFFD, as a JSON decoder would have done.
//
// It checks that s is valid UTF-8 first (ValidUTF8), then copies it eight
// bytes at a time, stopping only at the bytes it must escape. Each word goes
// to dst before it is looked at, so that the bytes kept as they are cost no
// second copy; it may therefore write up to eight bytes of scratch into
// dst's spare capacity past the bytes it appends, as any later append to the
// result would. A string that is not valid UTF-8 takes appendRepaired.
func AppendString(dst []byte, s string) []byte {
	if !ValidUTF8(s) {
		return appendRepaired(dst, s)
	}
	buf, j := open(dst, len(s))
	t := s // what is left to write
	for {
		for len(t) >= 8 {
			x := Load8(t, 0)
			binary.LittleEndian.PutUint64(buf[j:j+8], x)
			if m := escapeMask(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				t, j = t[k:], j+k
				goto escape
			}
			t, j = t[8:], j+8
		}
		for len(t) > 0 && !mustEscape(t[0]) {
			buf[j] = t[0]
			t, j = t[1:], j+1
		}
		if len(t) == 0 {
			break
		}
	escape:
		if len(buf)-j < len(t)+8+room {
			buf = regrow(buf, j, len(t)+8+room)
		}
		e := escapes[t[0]]
		binary.LittleEndian.PutUint64(buf[j:j+8], e)
		t, j = t[1:], j+int(e>>56)
	}
	buf[j] = '"'
	return buf[:j+1]
}

// escapeMask returns a word whose lowest set bit is the high bit of the
// first byte of x that must be escaped: a control character, '"' or '\\'.
// Bytes at or above 0x80 pass. It is zero when there is none; higher set
// bits may be false positives (a borrow only runs upward from a byte that
// is found). Flipping bit 1 of each byte turns '"' into 0x20 and leaves the
// control characters below it, so that one less-than test finds both.
func escapeMask(x uint64) uint64 {
	y := x ^ (lsb * 2)
	b := x ^ (lsb * '\\')
	lt := (y - lsb*0x21) & ^y // high bit set where a byte is < 0x20 or '"'
	zb := (b - lsb) & ^b      // high bit set where a byte is '\\'
	return (lt | zb) & msb
}

// escapes holds for each byte what AppendString writes for it, as a
// little-endian word: the bytes in the low end, their count in the top byte.
// A byte that needs no escape is written as it is.
var escapes = func() (t [256]uint64) {
	for c := range 256 {
		var b [8]byte
		b[0], b[7] = byte(c), 1
		if mustEscape(byte(c)) {
			b[7] = byte(putEscape(b[:], 0, byte(c)))
		}
		t[c] = binary.LittleEndian.Uint64(b[:])
	}
	return t
}()

// ValidUTF8 reports whether s is valid UTF-8, as utf8.ValidString does. It
// skips ASCII sixteen bytes at a time, then runs the rest through a finite
// automaton (utf8States) without branches: a long rest in two halves at
// once (validHalves), a word at a time what is left, skipping ASCII words
// found between sequences.
func ValidUTF8(s string) bool {
	t := s
	for len(t) >= 16 && (Load8(t, 0)|Load8(t, 8))&msb == 0 {
		t = t[16:]
	}
	var st uint64 // the automaton's state; only its low six bits count
	if len(t) >= halvesMin {
		st, t = validHalves(t)
	}
	for len(t) >= 8 {
		if Load8(t, 0)&msb|st&63 == 0 {
			t = t[8:]
			continue
		}
		u := t[:8] // the bytes are read again, not shifted out of the word: fewer instructions
		st = utf8States[u[0]] >> (st & 63)
		st = utf8States[u[1]] >> (st & 63)
		st = utf8States[u[2]] >> (st & 63)
		st = utf8States[u[3]] >> (st & 63)
		st = utf8States[u[4]] >> (st & 63)
		st = utf8States[u[5]] >> (st & 63)
		st = utf8States[u[6]] >> (st & 63)
		st = utf8States[u[7]] >> (st & 63)
		t = t[8:]
	}
	for i := 0; i < len(t); i++ {
		st = utf8States[t[i]] >> (st & 63)
	}
	return st&63 == 0
}

// halvesMin is the length from which ValidUTF8 runs two automata at once:
// below it the second chain does not pay for its set-up.
const halvesMin = 128

// validHalves runs the automaton over t, at least halvesMin bytes, as two
// chains at once: each step waits for the one before it in its own chain
// only, so the two chains overlap in the CPU (1.4 to 1.6 times the speed of
// one on mixed text, measured; more chains do not pay, the loop is then
// bound by the instructions it issues).
// The first chain takes the first half, its end rounded down to 32 bytes
// and moved forward to the start of a sequence (past at most three
// continuation bytes: a fourth in a row is invalid, and the second chain
// then rejects it at its first byte); t is valid exactly when both halves
// are. It returns the second chain's state and what is left of its half
// (fewer than 67 bytes) for ValidUTF8 to finish; the state is utf8Bad if
// the first half is invalid.
//
// A block of 32 bytes ASCII in both halves is one step of each chain (an
// ASCII byte between sequences changes nothing; inside one it is an error,
// as is a run of them). Whether the next blocks are ASCII is found while
// the current ones run, so that the bytes the chains read are not those
// of the ASCII test, which the compiler would otherwise share and so stop
// reading the test's eight bytes in one load.
func validHalves(t string) (uint64, string) {
	m := (len(t) - 3) / 2 &^ 31 // leaves the second half at least as long as the first
	for k := 0; k < 3 && t[m]&0xC0 == 0x80; k++ {
		m++
	}
	a, b := t[:m], t[m:]
	var sa, sb uint64
	ascii := false // whether a[:32] and b[:32] are both ASCII; false runs them
	for len(a) >= 32 && len(b) >= 32 {
		next := len(a) >= 64 && len(b) >= 64 &&
			(Load8(a, 32)|Load8(a, 40)|Load8(a, 48)|Load8(a, 56)|
				Load8(b, 32)|Load8(b, 40)|Load8(b, 48)|Load8(b, 56))&msb == 0
		if ascii {
			sa = utf8States[0] >> (sa & 63)
			sb = utf8States[0] >> (sb & 63)
		} else {
			for k := 0; k < 32; k += 8 {
				x, y := a[k:k+8], b[k:k+8]
				sa = utf8States[x[0]] >> (sa & 63)
				sb = utf8States[y[0]] >> (sb & 63)
				sa = utf8States[x[1]] >> (sa & 63)
				sb = utf8States[y[1]] >> (sb & 63)
				sa = utf8States[x[2]] >> (sa & 63)
				sb = utf8States[y[2]] >> (sb & 63)
				sa = utf8States[x[3]] >> (sa & 63)
				sb = utf8States[y[3]] >> (sb & 63)
				sa = utf8States[x[4]] >> (sa & 63)
				sb = utf8States[y[4]] >> (sb & 63)
				sa = utf8States[x[5]] >> (sa & 63)
				sb = utf8States[y[5]] >> (sb & 63)
				sa = utf8States[x[6]] >> (sa & 63)
				sb = utf8States[y[6]] >> (sb & 63)
				sa = utf8States[x[7]] >> (sa & 63)
				sb = utf8States[y[7]] >> (sb & 63)
			}
		}
		ascii = next
		a, b = a[32:], b[32:]
	}
	for i := 0; i < len(a); i++ { // at most three bytes
		sa = utf8States[a[i]] >> (sa & 63)
	}
	if sa&63 != utf8Accept {
		return utf8Bad, ""
	}
	return sb, b
}

// The states of the UTF-8 automaton, each the shift of its six-bit field in
// the words of utf8States: between sequences; one, two or three
// continuation bytes (80..BF) to go; and the four states whose next byte
// has a narrower range (after E0: A0..BF, no overlong form; after ED:
// 80..9F, no surrogate; after F0: 90..BF; after F4: 80..8F, at most
// U+10FFFF). utf8Bad is final.
const (
	utf8Accept = 6 * iota
	utf8Need1
	utf8Need2
	utf8Need3
	utf8AfterE0
	utf8AfterED
	utf8AfterF0
	utf8AfterF4
	utf8Bad
)

// utf8States holds, for each byte, the automaton's transitions: the field at
// shift s is the state that follows state s on that byte. The next state is
// utf8States[c] >> state, of which the low six bits count.
var utf8States = func() (t [256]uint64) {
	for c := range 256 {
		for st := uint64(utf8Accept); st <= utf8Bad; st += 6 {
			t[c] |= utf8Next(st, byte(c)) << st
		}
	}
	return t
}()

// utf8Next is the automaton's transition from state st on byte c (Table 3-7
// of the Unicode Standard, well-formed UTF-8 byte sequences).
func utf8Next(st uint64, c byte) uint64 {
	cont := c >= 0x80 && c < 0xC0
	switch st {
	case utf8Accept:
		switch {
		case c < 0x80:
			return utf8Accept
		case c >= 0xC2 && c <= 0xDF:
			return utf8Need1
		case c == 0xE0:
			return utf8AfterE0
		case c == 0xED:
			return utf8AfterED
		case c >= 0xE1 && c <= 0xEF:
			return utf8Need2
		case c == 0xF0:
			return utf8AfterF0
		case c >= 0xF1 && c <= 0xF3:
			return utf8Need3
		case c == 0xF4:
			return utf8AfterF4
		}
	case utf8Need1, utf8Need2, utf8Need3:
		if cont {
			return st - 6
		}
	case utf8AfterE0, utf8AfterED, utf8AfterF0, utf8AfterF4:
		if r := utf8Narrow[st]; c >= r.lo && c <= r.hi {
			return r.next
		}
	}
	return utf8Bad
}

// utf8Narrow holds, for each state whose next byte has a narrower range
// than 80..BF, that range and the state that follows a byte in it.
var utf8Narrow = map[uint64]struct {
	lo, hi byte
	next   uint64
}{
	utf8AfterE0: {0xA0, 0xBF, utf8Need1},
	utf8AfterED: {0x80, 0x9F, utf8Need1},
	utf8AfterF0: {0x90, 0xBF, utf8Need2},
	utf8AfterF4: {0x80, 0x8F, utf8Need2},
}

// appendRepaired is AppendString for a string that is not valid UTF-8: it
// stops at every byte at or above 0x80 as well, to check the sequence it
// starts and write U+FFFD for each byte of one that is not valid.
func appendRepaired(dst []byte, s string) []byte {
	buf, j := open(dst, len(s))
	i, stored := 0, 0 // stored: s[:stored] is in buf
	for {
		for i+8 <= len(s) {
			x := Load8(s, i)
			binary.LittleEndian.PutUint64(buf[j:], x)
			stored = i + 8
			if m := stopMask(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				i, j = i+k, j+k
				goto stop
			}
			i, j = i+8, j+8
		}
		for i < len(s) && s[i] < 0x80 && !mustEscape(s[i]) {
			buf[j] = s[i]
			i, j = i+1, j+1
		}
		stored = i
		if i >= len(s) {
			break
		}
	stop:
		if c := s[i]; c < 0x80 {
			if len(buf)-j < len(s)-i+6+room {
				buf = regrow(buf, j, len(s)-i+6+room)
			}
			j = putEscape(buf, j, c)
			i++
			continue
		}
		if e := validRun(s, i); e > i {
			if e > stored {
				copy(buf[j+stored-i:], s[stored:e])
			}
			i, j = e, j+e-i
			continue
		}
		if len(buf)-j < len(s)-i+3+room {
			buf = regrow(buf, j, len(s)-i+3+room)
		}
		i, j = i+1, j+copy(buf[j:], "\uFFFD")
	}
	buf[j] = '"'
	return buf[:j+1]
}

// validRun returns the end of the run of valid multi-byte UTF-8 sequences
// that starts at s[i]: i when s[i] does not start one. The two- and
// three-byte forms, the common ones in text, are checked right here.
// appendRepaired checks with it as it meets each run.
func validRun(s string, i int) int {
	for i < len(s) {
		switch c := s[i]; {
		case c < 0x80:
			return i
		case c >= 0xC2 && c < 0xE0:
			if i+1 >= len(s) || s[i+1]&0xC0 != 0x80 {
				return i
			}
			i += 2
		case c >= 0xE1 && c < 0xF0 && c != 0xED:
			if i+2 >= len(s) || s[i+1]&0xC0 != 0x80 || s[i+2]&0xC0 != 0x80 {
				return i
			}
			i += 3
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return i
			}
			i += size
		}
	}
	return i
}

// room is what AppendString keeps free in its buffer past the write index
// beyond one byte per byte of s still to write: the closing quote and an
// eight-byte store.
const room = 9

// open returns dst's whole capacity, grown so that s fits at one byte per
// byte plus room, with the opening quote written, and the write index.
func open(dst []byte, n int) ([]byte, int) {
	j := len(dst)
	if cap(dst)-j < n+1+room {
		dst = slices.Grow(dst, n+1+room)
	}
	buf := dst[:cap(dst)]
	buf[j] = '"'
	return buf, j + 1
}

// regrow returns buf with at least n bytes free past j, keeping buf[:j].
func regrow(buf []byte, j, n int) []byte {
	buf = slices.Grow(buf[:j], n)
	return buf[:cap(buf)]
}

// AppendStringOrNull appends *s as a quoted JSON string, or null when s is
// nil.
func AppendStringOrNull(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return AppendString(dst, *s)
}

// AppendArray appends items as a JSON array, each written by appendItem.
func AppendArray[T any](dst []byte, items []T, appendItem func(item *T, dst []byte) []byte) []byte {
	dst = append(dst, '[')
	for i := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendItem(&items[i], dst)
	}
	return append(dst, ']')
}

func mustEscape(c byte) bool { return c < 0x20 || c == '"' || c == '\\' }

// appendEscape appends the escape of c, a byte mustEscape reports.
func appendEscape(dst []byte, c byte) []byte {
	dst = slices.Grow(dst, 6)
	return dst[:putEscape(dst[:cap(dst)], len(dst), c)]
}

// shortEscape holds the letter of the two-character escape of each byte
// that has one; the other control characters are written as \u00xx.
var shortEscape = [256]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// putEscape writes the escape of c at buf[j:] and returns the index past it.
func putEscape(buf []byte, j int, c byte) int {
	_ = buf[j+5]
	buf[j] = '\\'
	if e := shortEscape[c]; e != 0 {
		buf[j+1] = e
		return j + 2
	}
	buf[j+1], buf[j+2], buf[j+3], buf[j+4], buf[j+5] = 'u', '0', '0', hex[c>>4], hex[c&0xF]
	return j + 6
}

// AppendStringASCII appends s as Python's json.dumps writes a string with its
// defaults (ensure_ascii=True): like AppendString, but every character
// outside ASCII becomes \uxxxx in lowercase hex, and characters beyond the
// Basic Multilingual Plane become a UTF-16 surrogate pair. DEL, outside the
// printable range Python keeps, becomes \u007f. Invalid UTF-8 bytes become
// \ufffd.
func AppendStringASCII(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x7F {
			if mustEscape(c) {
				dst = appendEscape(dst, c)
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		if c == 0x7F {
			dst = appendU(dst, 0x7F)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			dst = appendU(dst, 0xD800+(r>>10))
			dst = appendU(dst, 0xDC00+(r&0x3FF))
			continue
		}
		dst = appendU(dst, r)
	}
	return append(dst, '"')
}

func appendU(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
}
