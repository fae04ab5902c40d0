// Package pystr holds the Python string rules kimi-cli's checks follow, for
// the checks that must agree with them byte for byte.
package pystr

// IsBlank reports whether s is empty once Python's str.strip() has
// removed white space from both ends: whether every rune of s is one that
// Python's str.isspace() accepts (see isSpace).
func IsBlank(s string) bool {
	for _, r := range s {
		if !isSpace(r) {
			return false
		}
	}
	return true
}

// isSpace reports whether Python 3's str.isspace() accepts r: tab,
// line feed, vertical tab, form feed, carriage return, U+001C-U+001F (file,
// group, record and unit separators), space, U+0085, U+00A0, U+1680,
// U+2000-U+200A, U+2028, U+2029, U+202F, U+205F and U+3000. That is Go's
// unicode.IsSpace plus U+001C-U+001F, which Go does not count. U+180E,
// U+200B and U+FEFF are white space to neither.
func isSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1c && r <= 0x20, r == 0x85, r == 0xa0, r == 0x1680:
		return true
	case r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}
