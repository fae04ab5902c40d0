package sessionjson

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"kompact"
)

// TestScanLongTextUTF8 checks the fast pass's UTF-8 check (validPlainRun,
// then jsonwrite.ValidUTF8, which runs a long run as two halves at once) on
// message text long enough to be split: text of one- to four-byte
// characters from 120 to 260 bytes long, after nothing or escapes, as it is
// and with each byte around the point where ValidUTF8 splits it in turn
// replaced by a byte that breaks or ends a sequence. The pass succeeds
// exactly when the document is valid UTF-8, and then decodes what the
// reference decoder does.
func TestScanLongTextUTF8(t *testing.T) {
	mixed := strings.Repeat("aé数🚀 \u0800\uFFFD\U0010FFFF\u07ff.", 20)
	bad := []byte{'a', 0x80, 0xa0, 0xbf, 0xc0, 0xe0, 0xed, 0xf4, 0xff}
	for _, prefix := range []string{"", `ab\"c\n`} {
		// Rune starts of mixed; from 10 and 23 the split falls on the
		// second byte of a four-byte character for some lengths.
		for _, from := range []int{0, 1, 10, 23} {
			for n := 120; n <= 260; n += 3 {
				end := from + n
				for !utf8.RuneStart(mixed[end]) {
					end++
				}
				text := mixed[from:end]
				m := (len(text) - 3) / 2 &^ 31 // where ValidUTF8 splits the run
				for p := m - 7; p < m+7; p++ {
					b := []byte(text)
					for _, c := range bad {
						if p >= m-6 {
							b[p] = c
						}
						doc := `{"messages":[{"role":"user","content":"` + prefix + string(b) + `"}]}`
						s, ok := scanSession([]byte(doc))
						if ok != utf8.ValidString(doc) {
							t.Fatalf("%q: fast pass ok=%v, valid UTF-8 %v", doc, ok, !ok)
						}
						if !ok {
							continue
						}
						want, err := kompact.DecodeSession([]byte(doc))
						if err != nil || !reflect.DeepEqual(s, want) {
							t.Fatalf("%q:\n got %+v\nwant %+v (%v)", doc, s, want, err)
						}
						if p < m-6 {
							break
						}
					}
				}
			}
		}
	}
}
