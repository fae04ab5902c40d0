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
	"math/bits"
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
	lt := (x - lsb*0x20) & ^x // high bit set where a byte is < 0x20
	q := x ^ (lsb * '"')
	b := x ^ (lsb * '\\')
	zq := (q - lsb) & ^q // high bit set where a byte is '"'
	zb := (b - lsb) & ^b // high bit set where a byte is '\\'
	return (lt | zq | zb | x) & msb
}

// load8 reads s[i:i+8] as a little-endian word.
func load8(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

const hex = "0123456789abcdef"

// AppendString appends s as a quoted JSON string. Invalid UTF-8 bytes are
// replaced by U+FFFD, as a JSON decoder would have done.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start, i := 0, 0
	for i < len(s) {
		for i+8 <= len(s) {
			m := stopMask(load8(s, i))
			if m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i+8 > len(s) {
			for i < len(s) && s[i] < 0x80 && !mustEscape(s[i]) {
				i++
			}
			if i >= len(s) {
				break
			}
		}
		c := s[i]
		if c >= 0x80 {
			// Stay here through a run of non-ASCII text (CJK, emoji, ...).
			n := validSeq(s, i)
			for n > 0 {
				i += n
				if i >= len(s) || s[i] < 0x80 {
					break
				}
				n = validSeq(s, i)
			}
			if n > 0 {
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscape(dst, c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
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

// shortEscapes holds the one-letter escapes of the control characters that
// have one; the others are written as \u00xx.
var shortEscapes = [0x20]byte{'\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r'}

// appendEscape appends the escape of c, a byte mustEscape reports.
func appendEscape(dst []byte, c byte) []byte {
	if c == '"' || c == '\\' {
		return append(dst, '\\', c)
	}
	if c < 0x20 && shortEscapes[c] != 0 {
		return append(dst, '\\', shortEscapes[c])
	}
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}

// validSeq returns the length of the valid UTF-8 sequence starting at s[i],
// or 0 when the bytes there are not valid UTF-8. The two- and three-byte
// forms, the common ones in text, are checked inline.
func validSeq(s string, i int) int {
	c := s[i]
	switch {
	case c >= 0xC2 && c < 0xE0:
		if i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			return 2
		}
		return 0
	case c >= 0xE1 && c < 0xF0 && c != 0xED:
		if i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			return 3
		}
		return 0
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return 0
	}
	return size
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
