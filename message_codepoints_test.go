package kompact

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// codePoints counts as the byte-at-a-time rule does (every byte that does
// not continue a sequence starts one) at every length and alignment, valid
// UTF-8 or not.
func TestCodePoints(t *testing.T) {
	slow := func(s string) int {
		n := 0
		for i := 0; i < len(s); i++ {
			if s[i]&0xC0 != 0x80 {
				n++
			}
		}
		return n
	}
	text := strings.Repeat("ascii é 数据 🚀 сессия \xff\xc3 \x80\xbf\xc0", 5)
	for i := 0; i <= len(text); i++ {
		for _, s := range []string{text[:i], text[i:]} {
			if got, want := codePoints(s), slow(s); got != want {
				t.Fatalf("codePoints(%q) = %d, want %d", s, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if got, want := codePoints(string(b)), slow(string(b)); got != want {
			t.Fatalf("codePoints(%q) = %d, want %d", b, got, want)
		}
	}
	if s := "数据 🚀"; codePoints(s) != utf8.RuneCountInString(s) {
		t.Fatal("valid UTF-8: not its number of runes")
	}
}
