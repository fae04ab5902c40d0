package artifacts

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestHaystack checks that a haystack answers as strings.Contains does,
// before its index is built and after.
func TestHaystack(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 5))
	alphabet := "ab/.é "
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for _, size := range []int{0, 10, 300, 5000} {
		text := word(size)
		h := NewHaystack(text)
		for i := range 200 {
			sub := word(r.IntN(8))
			if i%3 == 0 && size > 0 {
				a := r.IntN(size)
				sub = text[a:min(size, a+r.IntN(12))]
			}
			if got, want := h.Contains(sub), strings.Contains(text, sub); got != want {
				t.Fatalf("size %d, search %d: Contains(%q) = %v, want %v", size, i, sub, got, want)
			}
		}
		if size >= 256 && h.index == nil {
			t.Errorf("size %d: no index after 200 searches", size)
		}
	}
}
