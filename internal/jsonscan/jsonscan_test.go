package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"
)

// TestPlainRun: the word-at-a-time scan stops where a byte-at-a-time one
// does, at every offset of the stop byte, and reports non-ASCII text.
func TestPlainRun(t *testing.T) {
	for _, stop := range []byte{'"', '\\', 0x00, 0x1f} {
		for n := 0; n < 40; n++ {
			for _, fill := range []string{"a", "é"} {
				text := strings.Repeat(fill, n)
				b := append([]byte(text), stop, 'x')
				end, got, nonASCII := PlainRun(b, 0)
				if end != len(text) || got != stop || nonASCII != (fill != "a" && n > 0) {
					t.Fatalf("%q: %d %q %v", b, end, got, nonASCII)
				}
			}
		}
	}
	if end, stop, _ := PlainRun([]byte("abcdefghij"), 3); end != 10 || stop != 0 {
		t.Fatalf("run to the end: %d %q", end, stop)
	}
}

// TestSkipAndRawValue: Skip passes exactly over the values encoding/json
// accepts, and RawValue returns them compacted as json.Compact does.
func TestSkipAndRawValue(t *testing.T) {
	for _, v := range []string{`0`, `-1.5e+3`, `"a\"b\u00e9"`, `true`, `false`, `null`, `[]`, `{}`,
		`{ "a" : [ 1 , "x y" , { } ] }`, `01`, `1.`, `-`, `"\x"`, `[1,]`, `{"a" 1}`, `tru`, `"\ud800"`} {
		c := &Cursor{B: []byte(v + " ,")}
		raw, ok := c.RawValue(1)
		ok = ok && c.Tok(',') // "01" is a value, 0, followed by something else
		var sink any
		if valid := json.Unmarshal([]byte(v), &sink) == nil; ok != valid {
			t.Fatalf("%s: RawValue %v, encoding/json %v", v, ok, valid)
		}
		if !ok {
			continue
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(v)); err != nil || string(raw) != want.String() {
			t.Fatalf("%s: raw %s, want %s (%v)", v, raw, want.String(), err)
		}
	}
}

// TestElementEnd: the end of an object or list by its brackets, strings
// (with escaped quotes and brackets in them) passed over.
func TestElementEnd(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{`{"a":"}\"]"}, 1`, 12},
		{`[[1],{"x":[2]}]x`, 15},
		{`{"a":`, -1},
		{`{"a":"\`, -1},
	} {
		if got := ElementEnd([]byte(c.in), 0); got != c.want {
			t.Errorf("%s: %d, want %d", c.in, got, c.want)
		}
	}
}

// TestEscapedAllocatesOnce: a string with escapes decodes into one
// allocation of its raw size, however late its first escape comes and
// whatever backslashes precede its quotes.
func TestEscapedAllocatesOnce(t *testing.T) {
	for _, raw := range []string{
		`"a\"b"`, `"\\"`, `"x\\\"y\\"`, `"` + strings.Repeat("long text ", 500) + `\t` + strings.Repeat(`é\n`, 500) + `"`,
		`"\u00e9\ud83d\ude00\/"`, `"a\\\\\"\\"`,
	} {
		want := ""
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		var got string
		var ok bool
		allocs := testing.AllocsPerRun(10, func() {
			c := Cursor{B: []byte(raw)}
			got, ok = c.Str()
		})
		if !ok || got != want {
			t.Fatalf("%s: %q %v, want %q", raw, got, ok, want)
		}
		if allocs > 2 { // the []byte of raw, and the string's
			t.Errorf("%.40s: %.0f allocations", raw, allocs)
		}
	}
	if got := closingQuote([]byte(`ab\"cd\\"ef`), 2); got != 8 {
		t.Errorf("closingQuote: %d, want 8", got)
	}
	if got := closingQuote([]byte(`ab\"cd`), 2); got != 6 {
		t.Errorf("closingQuote without an end: %d, want 6", got)
	}
}

// TestDeferredEscapes: with Defer, a string with escapes comes back as it
// stands, checked, and B unchanged; Unescape then decodes it in B's memory
// without touching what follows it. A string Str refuses is refused the
// same.
func TestDeferredEscapes(t *testing.T) {
	for _, raw := range []string{
		`"a\"b"`, `"\\"`, `"x\\\"y\\"`, `"` + strings.Repeat("long text ", 50) + `\t` + strings.Repeat(`é\n`, 50) + `"`,
		`"\u00e9\ud83d\ude00\/"`, `"a\\\\\"\\"`, `"plain"`, `""`,
		`"\ud800"`, `"\x"`, "\"\\n\xff\"", "\"\\n\x01\"", `"\u12"`,
	} {
		want := ""
		valid := json.Unmarshal([]byte(raw), &want) == nil && !strings.Contains(raw, `\ud800`) && !strings.Contains(raw, "\xff")
		b := []byte(raw + `,"tail"`)
		c := Cursor{B: b, Alias: true, Defer: true}
		got, ok := c.Str()
		if ok != valid {
			t.Fatalf("%s: %v, want %v", raw, ok, valid)
		}
		if string(b) != raw+`,"tail"` {
			t.Fatalf("%s: the scan wrote B: %s", raw, b)
		}
		if !ok {
			continue
		}
		escapes := strings.Contains(raw, `\`)
		if c.Deferred != map[bool]int{true: 1}[escapes] || escapes && got != raw[1:len(raw)-1] {
			t.Fatalf("%s: %q, %d deferred", raw, got, c.Deferred)
		}
		if u := Unescape(got); u != want || len(u) > 0 && &b[1] != unsafe.StringData(u) {
			t.Fatalf("%s: unescaped %q, want %q in B's memory", raw, u, want)
		}
		if string(b[len(raw):]) != `,"tail"` {
			t.Fatalf("%s: Unescape wrote past the string: %s", raw, b)
		}
	}
}
