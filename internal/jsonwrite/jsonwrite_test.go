package jsonwrite

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// refAppendString is a slow, obviously correct version of AppendString: it
// looks at one code point at a time, with no 8-byte fast path.
func refAppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, "\uFFFD"...)
		case r == '"':
			dst = append(dst, `\"`...)
		case r == '\\':
			dst = append(dst, `\\`...)
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\b':
			dst = append(dst, `\b`...)
		case r == '\f':
			dst = append(dst, `\f`...)
		case r < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', "0123456789abcdef"[r>>4], "0123456789abcdef"[r&0xF])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

func TestAppendStringExact(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", `""`},
		{"plain", "hello", `"hello"`},
		{"plain 8", "abcdefgh", `"abcdefgh"`},
		{"plain 16", "abcdefghijklmnop", `"abcdefghijklmnop"`},
		{"quote", `"`, `"\""`},
		{"quotes around", `say "hi"`, `"say \"hi\""`},
		{"backslash", `\`, `"\\"`},
		{"backslash path", `C:\dir\file`, `"C:\\dir\\file"`},
		{"escaped escape", `\n`, `"\\n"`},
		{"newline", "\n", `"\n"`},
		{"carriage return", "\r", `"\r"`},
		{"crlf", "a\r\nb", `"a\r\nb"`},
		{"tab", "\t", `"\t"`},
		{"backspace", "\b", `"\b"`},
		{"form feed", "\f", `"\f"`},
		{"nul", "\x00", `"\u0000"`},
		{"soh", "\x01", `"\u0001"`},
		{"bell", "\x07", `"\u0007"`},
		{"vertical tab", "\x0b", `"\u000b"`},
		{"shift out", "\x0e", `"\u000e"`},
		{"escape", "\x1b", `"\u001b"`},
		{"unit separator", "\x1f", `"\u001f"`},
		{"space", " ", `" "`},
		{"del literal", "\x7f", "\"\x7f\""},
		{"html literal", "<a href=\"x\">&amp;</a>", `"<a href=\"x\">&amp;</a>"`},
		{"lt gt amp", "<>&", `"<>&"`},
		{"slash literal", "a/b", `"a/b"`},
		{"line separator literal", "\u2028", "\"\u2028\""},
		{"paragraph separator literal", "\u2029", "\"\u2029\""},
		{"separators in text", "a\u2028b\u2029c", "\"a\u2028b\u2029c\""},
		{"latin-1", "café", `"café"`},
		{"cjk", "日本語のテキスト", `"日本語のテキスト"`},
		{"emoji", "🚀", `"🚀"`},
		{"emoji zwj", "👩‍💻 done", `"👩‍💻 done"`},
		{"replacement char literal", "\uFFFD", "\"\uFFFD\""},
		{"max rune", "\U0010FFFF", "\"\U0010FFFF\""},
		{"invalid byte", "\xff", "\"\uFFFD\""},
		{"invalid byte in text", "a\xffb", "\"a\uFFFDb\""},
		{"lone continuation", "\x80", "\"\uFFFD\""},
		{"truncated sequence", "\xe2\x82", "\"\uFFFD\uFFFD\""},
		{"truncated at end", "abc\xf0\x9f\x9a", "\"abc\uFFFD\uFFFD\uFFFD\""},
		{"overlong slash", "\xc0\xaf", "\"\uFFFD\uFFFD\""},
		{"utf-8 surrogate", "\xed\xa0\x80", "\"\uFFFD\uFFFD\uFFFD\""},
		{"invalid in long ascii", "abcdefgh\xffijklmnop", "\"abcdefgh\uFFFDijklmnop\""},
		{"mixed", "x\x00\"\\\n\x1f\x7f<é🚀\u2028", "\"x\\u0000\\\"\\\\\\n\\u001f\x7f<é🚀\u2028\""},
		{"all escapes", "\"\\\n\r\t\b\f", `"\"\\\n\r\t\b\f"`},
		{"high bit after 7 ascii", "abcdefgé", `"abcdefgé"`},
		{"quote at byte 8", "abcdefgh\"", `"abcdefgh\""`},
		{"quote at byte 7", "abcdefg\"h", `"abcdefg\"h"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendString(nil, tt.in))
			if got != tt.want {
				t.Errorf("AppendString(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("AppendString(%q) = %q is not valid JSON", tt.in, got)
			}
		})
	}
}

// TestAppendStringControlTable checks every ASCII byte on its own against
// the dialect: seven short escapes, \u00xx in lowercase hex for the other
// control characters, everything else literal.
func TestAppendStringControlTable(t *testing.T) {
	short := map[byte]string{'"': `\"`, '\\': `\\`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\b': `\b`, '\f': `\f`}
	const hexdigits = "0123456789abcdef"
	for c := 0; c < 0x80; c++ {
		b := byte(c)
		var want string
		switch {
		case short[b] != "":
			want = short[b]
		case b < 0x20:
			want = `\u00` + string(hexdigits[b>>4]) + string(hexdigits[b&0xF])
		default:
			want = string(rune(b))
		}
		want = `"` + want + `"`
		if got := string(AppendString(nil, string([]byte{b}))); got != want {
			t.Errorf("byte %#02x: got %q, want %q", b, got, want)
		}
	}
}

// TestAppendStringEveryOffset puts each byte that needs attention at every
// offset of ASCII strings of length 1 to 20, so that it falls inside, at
// the edges of and after the 8-byte words the fast path reads.
func TestAppendStringEveryOffset(t *testing.T) {
	specials := []struct {
		in, out string
	}{
		{`"`, `\"`},
		{`\`, `\\`},
		{"\n", `\n`},
		{"\r", `\r`},
		{"\t", `\t`},
		{"\b", `\b`},
		{"\f", `\f`},
		{"\x00", `\u0000`},
		{"\x01", `\u0001`},
		{"\x1f", `\u001f`},
		{"\x7f", "\x7f"},
		{"<", "<"},
		{"é", "é"},
		{"🚀", "🚀"},
		{"\u2028", "\u2028"},
		{"\xff", "\uFFFD"},
		{"\x80", "\uFFFD"},
	}
	const fill = "abcdefghijklmnopqrstuvwxyz"
	for n := 0; n <= 20; n++ {
		base := fill[:n]
		if got, want := string(AppendString(nil, base)), `"`+base+`"`; got != want {
			t.Errorf("len %d plain: got %q, want %q", n, got, want)
		}
		for _, sp := range specials {
			for off := 0; off <= n; off++ {
				in := base[:off] + sp.in + base[off:]
				want := `"` + base[:off] + sp.out + base[off:] + `"`
				if got := string(AppendString(nil, in)); got != want {
					t.Errorf("len %d, %q at offset %d: got %q, want %q", n, sp.in, off, got, want)
				}
			}
		}
	}
}

// TestAppendStringAllBytesAllOffsets compares every byte value, alone and
// doubled, at every offset of a 24-byte string with the reference encoder.
func TestAppendStringAllBytesAllOffsets(t *testing.T) {
	base := []byte("The quick brown fox jump")
	for c := 0; c < 256; c++ {
		for off := 0; off < len(base); off++ {
			for width := 1; width <= 2 && off+width <= len(base); width++ {
				b := append([]byte(nil), base...)
				for k := 0; k < width; k++ {
					b[off+k] = byte(c)
				}
				s := string(b)
				if got, want := string(AppendString(nil, s)), string(refAppendString(nil, s)); got != want {
					t.Fatalf("byte %#02x x%d at offset %d: got %q, want %q", c, width, off, got, want)
				}
			}
		}
	}
}

func TestAppendStringAppendsToDst(t *testing.T) {
	dst := []byte(`{"k":`)
	got := AppendString(dst, "v\n")
	if string(got) != `{"k":"v\n"` {
		t.Fatalf("got %q", got)
	}
	// A prefix with spare capacity must be kept and not overwritten.
	buf := make([]byte, 3, 64)
	copy(buf, "abc")
	got = AppendString(buf, "x\"y")
	if string(got) != `abc"x\"y"` {
		t.Fatalf("got %q", got)
	}
}

// randomString returns a string made of pieces chosen to hit every branch:
// plain ASCII runs, escapes, control characters, multi-byte and astral
// runes, and the code points encoding/json would escape.
func randomString(r *rand.Rand, invalid bool) string {
	pieces := []string{
		"a", "Z", " ", "0", "abcdefgh", "hello, world ", "<", ">", "&", "/", "\x7f",
		`"`, `\`, "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1b", "\x1f",
		"é", "ß", "日本", "한", "🚀", "👩‍💻", "\u2028", "\u2029", "\uFFFD", "\U0010FFFF", "\u00a0",
	}
	if invalid {
		pieces = append(pieces, "\xff", "\x80", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf0\x9f\x9a")
	}
	n := r.IntN(40)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if r.IntN(8) == 0 {
			// A random code point from the whole range.
			cp := rune(r.IntN(0x110000))
			if !utf8.ValidRune(cp) {
				cp = 'x'
			}
			b.WriteRune(cp)
			continue
		}
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestAppendStringRoundTrip: decoding the output with encoding/json gives
// back the input exactly, for valid UTF-8.
func TestAppendStringRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		s := randomString(r, false)
		if !utf8.ValidString(s) {
			t.Fatalf("generator made invalid UTF-8: %q", s)
		}
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q -> %q: %v", s, out, err)
		}
		if back != s {
			t.Fatalf("round trip of %q gave %q (via %q)", s, back, out)
		}
		if want := refAppendString(nil, s); string(out) != string(want) {
			t.Fatalf("%q: got %q, reference %q", s, out, want)
		}
	}
}

// TestAppendStringInvalidUTF8Random: for input with invalid bytes the output
// is valid UTF-8 JSON and decodes to what encoding/json makes of the input.
func TestAppendStringInvalidUTF8Random(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		s := randomString(r, true)
		checkAnyInput(t, s)
	}
}

func checkAnyInput(t *testing.T, s string) {
	t.Helper()
	out := AppendString(nil, s)
	if !utf8.Valid(out) {
		t.Fatalf("%q: output %q is not valid UTF-8", s, out)
	}
	if !json.Valid(out) {
		t.Fatalf("%q: output %q is not valid JSON", s, out)
	}
	if want := refAppendString(nil, s); string(out) != string(want) {
		t.Fatalf("%q: got %q, reference %q", s, out, want)
	}
	var back string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("%q -> %q: %v", s, out, err)
	}
	if utf8.ValidString(s) {
		if back != s {
			t.Fatalf("round trip of %q gave %q", s, back)
		}
		return
	}
	// encoding/json replaces each invalid byte with U+FFFD, as AppendString
	// does.
	std, _ := json.Marshal(s)
	var stdBack string
	if err := json.Unmarshal(std, &stdBack); err != nil {
		t.Fatal(err)
	}
	if back != stdBack {
		t.Fatalf("%q decodes to %q, encoding/json gives %q", s, back, stdBack)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{
		"", "hello", "abcdefgh", "abcdefg\"", "a\\b", "\x00\x1f\x7f", "\n\r\t\b\f",
		"<>&", "\u2028\u2029", "é🚀日本", "\xff", "abc\xe2\x82", "\xed\xa0\x80", "abcdefgh\x80ijklmnop",
		strings.Repeat("x", 31) + "\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAnyInput(t, s)
	})
}

// wordText returns size bytes or a little more of words picked at random
// (with a space after each), so that the places where AppendString stops
// follow no pattern a branch predictor could learn.
func wordText(r *rand.Rand, words []string, size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.String()
}

// sessionWords are the words of the root package's benchmark sessions:
// code, quotes, tabs and new lines, some accented and CJK words (an escape
// or a non-ASCII character every 20 bytes or so).
var sessionWords = []string{"func", "return", "err", "nil", "the", "session", "compaction", "message", "\"quoted\"",
	"path/to/file.go", "x := 42", "if", "for", "range", "{", "}", "\n", "\t", "résumé", "数据", "→", "<tag>", "&&"}

// genWords are the words of gen_session's sessions: no escapes, a fifth of
// the bytes non-ASCII, among them emoji, Cyrillic and CJK.
var genWords = []string{"response", "test", "compile", "path", "file", "session", "retry", "🚀", "fix", "handler",
	"数据", "error", "émoji", "request", "сессия", "ошибка", "的", "timeout", "value", "tool", "returns", "function", "result"}

// benchTexts are the strings BenchmarkAppendString and BenchmarkValidUTF8
// work on: 128 strings per kind, of about 2 KB each but for "short".
func benchTexts() []struct {
	name  string
	texts []string
} {
	r := rand.New(rand.NewPCG(1, 2))
	many := func(f func() string) []string {
		t := make([]string, 128)
		for i := range t {
			t[i] = f()
		}
		return t
	}
	return []struct {
		name  string
		texts []string
	}{
		{"ascii", many(func() string {
			return strings.Repeat("The quick brown fox jumps over the lazy dog; func main() { return x } ", 30)[:2048]
		})},
		{"cjk", many(func() string {
			return strings.Repeat("日本語のテキストを圧縮します。会話の要約、コードの状態、環境。", 24)
		})},
		{"escapes", many(func() string { return strings.Repeat("line \"one\"\tand\\two\n", 108) })},
		{"session", many(func() string { return wordText(r, sessionWords, 2000) })},
		{"gen_session", many(func() string { return wordText(r, genWords, 2000) })},
		{"invalid", many(func() string { return wordText(r, append(sessionWords, "\xff", "\xed\xa0\x80"), 2000) })},
		// Short strings (ids, roles, short texts), 5 to 100 bytes of
		// gen_session's words.
		{"short", many(func() string { return wordText(r, genWords, 5+r.IntN(95)) })},
		// Text with a non-ASCII character every 150 bytes or so.
		{"sparse", many(func() string { return wordText(r, sparseWords, 2000) })},
	}
}

// sparseWords are ASCII words and one accented word.
var sparseWords = []string{"response", "test", "compile", "path", "file", "session", "retry", "fix", "handler", "error",
	"request", "timeout", "value", "tool", "returns", "function", "result", "the", "a", "of", "résumé"}

// totalLen is the bytes of texts, together.
func totalLen(texts []string) int {
	n := 0
	for _, s := range texts {
		n += len(s)
	}
	return n
}

func BenchmarkAppendString(b *testing.B) {
	for _, bc := range benchTexts() {
		b.Run(bc.name, func(b *testing.B) {
			n := totalLen(bc.texts)
			buf := make([]byte, 0, 2*n+2*len(bc.texts))
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				buf = buf[:0]
				for _, s := range bc.texts {
					buf = AppendString(buf, s)
				}
			}
		})
	}
}

func BenchmarkValidUTF8(b *testing.B) {
	for _, bc := range benchTexts() {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(totalLen(bc.texts)))
			for b.Loop() {
				for _, s := range bc.texts {
					if ValidUTF8(s) != (bc.name != "invalid") {
						b.Fatal("wrong answer")
					}
				}
			}
		})
	}
}

// TestValidUTF8 compares ValidUTF8 with utf8.ValidString on every one- and
// two-byte string, on every byte value at every offset of text around the
// sixteen- and eight-byte steps, and on random strings.
func TestValidUTF8(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := ValidUTF8(s), utf8.ValidString(s); got != want {
			t.Fatalf("ValidUTF8(%q) = %v, utf8.ValidString says %v", s, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		check(string([]byte{byte(c)}))
		for d := 0; d < 256; d++ {
			check(string([]byte{byte(c), byte(d)}))
		}
	}
	seqs := []string{"é", "数", "🚀", "\U0010FFFF", "\uFFFD", "\u0800", "\uD7FF", "\uE000", "\U00010000",
		"\xc0\x80", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80",
		"\xf5\x80\x80\x80", "\xff", "\x80", "\xe2\x82", "\xf0\x9f\x9a"}
	const fill = "abcdefghijklmnopqrstuvwxyz0123456789"
	for n := 0; n <= len(fill); n++ {
		for _, q := range seqs {
			for off := 0; off <= n; off++ {
				check(fill[:off] + q + fill[off:n])
				check(fill[:off] + q + q + fill[off:n])
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		check(randomString(r, i%2 == 0))
	}
}

// utf8Cases are sequences for the ValidUTF8 tests: valid ones of every
// length and at the edges of the ranges, then truncated, overlong,
// surrogate, out-of-range and stray bytes.
var utf8Cases = []string{"é", "ß", "\u07ff", "数", "→", "\u0800", "\uD7FF", "\uE000", "\uFFFD", "🚀", "\U00010000", "\U0010FFFF",
	"\xc0\x80", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80",
	"\xf5\x80\x80\x80", "\xff", "\xfe", "\x80", "\xbf", "\xc3", "\xe2\x82", "\xf0\x9f\x9a", "\x80\x80\x80\x80", "é\x80"}

// TestValidUTF8Halves checks the two-chain path (validHalves) where the
// halves meet: each sequence of utf8Cases, alone and doubled, at every
// offset of ASCII text long enough to be split, so that the split point
// falls before, inside and after it, and the 32-byte ASCII blocks the
// chains skip end before, inside and after it; then text of one-, two-,
// three- and four-byte runes cut at every rune boundary, with each byte
// around the split point replaced by a byte that breaks or ends a sequence.
func TestValidUTF8Halves(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := ValidUTF8(s), utf8.ValidString(s); got != want {
			t.Fatalf("ValidUTF8(%q) = %v, utf8.ValidString says %v", s, got, want)
		}
	}
	// The text starts with "é" so that ValidUTF8 skips none of it.
	ascii := "é" + strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 10)
	cases := utf8Cases
	for _, k := range []int{31, 32, 33, 63, 64, 65} {
		// A sequence interrupted by ASCII blocks the chains skip.
		cases = append(cases, "\xc3"+ascii[2:2+k]+"\xa9", "\xe2\x82"+ascii[2:2+k]+"\xac", "\xf0\x9f"+ascii[2:2+k]+"\x9a\x80")
	}
	for _, n := range []int{halvesMin - 5, halvesMin - 1, halvesMin, halvesMin + 1, halvesMin + 3, 150, 159, 160, 163, 191, 192, 200, 255, 256, 300} {
		for _, q := range cases {
			for off := 2; off <= n; off++ {
				check(ascii[:off] + q + ascii[off:n])
				check(ascii[:off] + q + q + ascii[off:n])
			}
		}
	}
	mixed := strings.Repeat("aé数🚀 \u0800\uFFFD\U0010FFFF\u07ff.", 20)
	var starts []int // rune boundaries
	for i := range mixed {
		starts = append(starts, i)
	}
	bad := []byte{'a', 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff}
	for _, from := range starts[:12] {
		for _, end := range starts {
			n := end - from
			if n < halvesMin-4 || n > 320 {
				continue
			}
			s := mixed[from:end]
			check(s)
			m := (len(s) - 3) / 2 &^ 31
			for p := m - 4; p < m+8; p++ {
				b := []byte(s)
				for _, c := range bad {
					b[p] = c
					check(string(b))
				}
				check(s[:p] + s[p+1:])
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "é🚀日本", "\xed\xa0\x80", "abcdefghijklmnop\xf0\x9f\x9a", strings.Repeat("é", 20),
		strings.Repeat("aé数🚀 ", 20), strings.Repeat("x", 70) + "\xe2\x82" + strings.Repeat("é", 40),
		strings.Repeat("a", 64) + "\x80\x80\x80\x80" + strings.Repeat("b", 64)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidUTF8(s), utf8.ValidString(s); got != want {
			t.Fatalf("ValidUTF8(%q) = %v, utf8.ValidString says %v", s, got, want)
		}
	})
}

// TestAppendStringASCII checks Python json.dumps' default escaping, as
// printed by CPython 3.11 for these inputs.
func TestAppendStringASCII(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                  `"plain"`,
		"é":                      `"\u00e9"`,
		"日本":                     `"\u65e5\u672c"`,
		"🚀":                      `"\ud83d\ude80"`,
		"\x7f":                   `"\u007f"`,
		"\x00\x1f\"\\\n\t\u2028": `"\u0000\u001f\"\\\n\t\u2028"`,
		"«demo» \"q\"":           `"\u00abdemo\u00bb \"q\""`,
		"a\xffb":                 `"a\ufffdb"`,
	} {
		if got := string(AppendStringASCII(nil, in)); got != want {
			t.Errorf("AppendStringASCII(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestAppendStringOrNull(t *testing.T) {
	s := `a"b`
	if got := string(AppendStringOrNull([]byte("x:"), &s)); got != `x:"a\"b"` {
		t.Errorf("set: %s", got)
	}
	if got := string(AppendStringOrNull([]byte("x:"), nil)); got != "x:null" {
		t.Errorf("nil: %s", got)
	}
}

func TestAppendArray(t *testing.T) {
	item := func(s *string, dst []byte) []byte { return AppendString(dst, *s) }
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{nil, `x:[]`},
		{[]string{}, `x:[]`},
		{[]string{"a"}, `x:["a"]`},
		{[]string{"a", "", "c\n"}, `x:["a","","c\n"]`},
	} {
		if got := string(AppendArray([]byte("x:"), tt.items, item)); got != tt.want {
			t.Errorf("%q: %s, want %s", tt.items, got, tt.want)
		}
	}
}
