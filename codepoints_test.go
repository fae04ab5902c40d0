package kompact

import (
	"math/rand/v2"
	"testing"
)

// TestCodePointsWordAtATime: counting eight bytes at a time gives what
// counting byte by byte gives, for every byte value at every position and
// for random text of every length up to 40.
func TestCodePointsWordAtATime(t *testing.T) {
	slow := func(s string) int {
		n := 0
		for i := 0; i < len(s); i++ {
			if s[i]&0xC0 != 0x80 {
				n++
			}
		}
		return n
	}
	for c := range 256 {
		for pos := range 17 {
			b := []byte("abcdefghijklmnopq")
			b[pos] = byte(c)
			if got, want := codePoints(string(b)), slow(string(b)); got != want {
				t.Fatalf("byte %#x at %d: %d, want %d", c, pos, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 41 {
		for range 200 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			if got, want := codePoints(string(b)), slow(string(b)); got != want {
				t.Fatalf("%q: %d, want %d", b, got, want)
			}
		}
	}
	if got := codePoints("retry ошибка 🚀 数据 émoji and some more ascii text"); got != 48 {
		t.Fatalf("got %d, want 48", got)
	}
}
