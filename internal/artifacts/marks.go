package artifacts

import "math/bits"

// The bytes that could make a token an artifact are found eight at a
// time: a word of eight text bytes goes through a few integer operations
// that set the high bit of each byte that is one of them (SWAR). A token
// none of whose bytes is marked is skipped without being split; a marked
// token is read as before, so marking a byte that makes nothing (the
// range A to _ also holds [ \ ] ^) costs time, not results.
//
// In prose the marked bytes are / : . ( _ and upper-case letters: a path
// needs a slash or a dot, a URL a colon, an identifier an upper-case
// letter, an underscore, a dot or a call's "(". In tool output, where
// identifiers do not count, only / : and . are. In both, 'x' is marked
// too, for the "xit " of "exit status" (see words): the scan of a line's
// words is the only pass over its bytes that looks for it.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
	lows  = 0x7f7f7f7f7f7f7f7f
)

// marks returns x, eight text bytes, with the high bit of each marked
// byte set and every other bit clear. Bytes of 0x80 and above (UTF-8
// sequences) are never marked.
func marks(x uint64, prose bool) uint64 {
	v := x & lows
	// (v^k)+lows has a byte's high bit clear exactly where v's byte is k.
	some := (((v | ones) ^ ('/' * ones)) + lows) & ((v ^ (':' * ones)) + lows) & ((v ^ ('x' * ones)) + lows) // ./ : x
	var m uint64
	if prose {
		some &= (v ^ ('(' * ones)) + lows
		m = (v + (0x80-'A')*ones) &^ (v + (0x80-'`')*ones) // 'A' <= b < '`'
	}
	return (m | ^some) &^ x & highs
}

// nextMark returns the index of the first marked byte of t at or after i,
// len(t) when there is none.
func nextMark(t string, i int, prose bool) int {
	for ; i+8 <= len(t); i += 8 {
		if m := marks(load8(t, i), prose); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	if i >= len(t) {
		return len(t)
	}
	var m uint64
	if len(t) >= 8 {
		// The last eight bytes, less those before i.
		m = marks(load8(t, len(t)-8), prose) &^ (1<<(8*(i-(len(t)-8))) - 1)
		i = len(t) - 8
	} else {
		// A short t, padded with spaces, which are never marked.
		x := uint64(' ' * ones)
		for k := 0; i+k < len(t); k++ {
			x = x&^(0xff<<(8*k)) | uint64(t[i+k])<<(8*k)
		}
		m = marks(x, prose)
	}
	if m != 0 {
		return i + bits.TrailingZeros64(m)/8
	}
	return len(t)
}

// load8 returns the eight bytes of t from i, little-endian.
func load8(t string, i int) uint64 {
	b := t[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// tokenEnd returns the index of the first space or tab of t at or after
// i (len(t) when there is none) and whether a colon comes before it.
func tokenEnd(t string, i int) (end int, colon bool) {
	for ; i+8 <= len(t); i += 8 {
		x := load8(t, i)
		// Each test finds its lowest zero byte exactly; a false one above
		// it comes after a true one, which is all that colon needs.
		sp, tab, col := x^(' '*ones), x^('\t'*ones), x^(':'*ones)
		stop := ((sp-ones)&^sp | (tab-ones)&^tab) & highs
		colons := (col - ones) &^ col & highs
		if stop != 0 {
			n := bits.TrailingZeros64(stop)
			return i + n/8, colon || colons&(1<<n-1) != 0
		}
		colon = colon || colons != 0
	}
	for ; i < len(t) && t[i] != ' ' && t[i] != '\t'; i++ {
		colon = colon || t[i] == ':'
	}
	return i, colon
}
