// Package jsonwrite appends JSON text to byte slices quickly and in an exact,
// documented dialect: strings escape only what JSON requires.
//
// The dialect is the one pydantic's model_dump_json writes (and any JSON
// reader accepts): '"' and '\\' are escaped, control characters U+0000 to
// U+001F become \n, \r, \t, \b, \f or \u00xx in lowercase hex, and everything
// else, including '<', '>', '&', DEL and U+2028/U+2029, is written literally.
// encoding/json escapes more and so cannot produce it.
package jsonwrite

import "unicode/utf8"

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plain reports whether all 8 bytes in x are ASCII that JSON writes as is:
// no control character, no '"', no '\\' and nothing at or above 0x80.
func plain(x uint64) bool {
	lt := (x - lsb*0x20) & ^x // high bit set where a byte is < 0x20
	q := x ^ (lsb * '"')
	b := x ^ (lsb * '\\')
	zq := (q - lsb) & ^q // high bit set where a byte is '"'
	zb := (b - lsb) & ^b // high bit set where a byte is '\\'
	return (lt|zq|zb|x)&msb == 0
}

// load8 reads s[i:i+8] as a little-endian word.
func load8(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

const hex = "0123456789abcdef"

// AppendString appends s as a quoted JSON string. s must be valid UTF-8;
// invalid bytes are replaced by U+FFFD, as a JSON decoder would have done.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	i := 0
	for i < len(s) {
		if i+8 <= len(s) && plain(load8(s, i)) {
			i += 8
			continue
		}
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
