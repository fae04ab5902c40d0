package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestValue: Value accepts what encoding/json's Valid accepts, ends where
// the value ends, notices white space between tokens only, and
// AppendCompact removes exactly that white space.
func TestValue(t *testing.T) {
	for _, s := range []string{
		`0`, `-1.5e+3`, `"a\u00e9\n"`, `true`, `null`, `{}`, `[]`, `[ ]`, `{"a":1}`, `{ "a" : [ 1 , { "b\u0041" : "x y" } ] }`,
		"{\"k\":\"\xff\"}", `[[[[[[]]]]]]`, `{"a":{"b":{"c":[1,2,{"d":null}]}}}`, strings.Repeat("[", 200) + strings.Repeat("]", 200),
		`{"a" 1}`, `[1,]`, `{"a":1,}`, `{,}`, `[1 2]`, `"\x"`, `"abc`, `{"a":tru}`, `01`, `[`, `{"a":[}`, `{1:2}`, "\"a\tb\"", `]`, ``,
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	} {
		b := []byte(s + " x")
		end, spaced, ok := Value(b, 0)
		ok = ok && end == len(s) // a value followed by more is no document
		if want := json.Valid([]byte(s)); ok != want {
			t.Errorf("Value(%.40q) = %d %v, json.Valid %v", s, end, ok, want)
			continue
		}
		if !ok {
			continue
		}
		var c bytes.Buffer
		_ = json.Compact(&c, []byte(s))
		if got := AppendCompact([]byte("<"), []byte(s)); string(got) != "<"+c.String() || spaced != (c.Len() != len(s)) {
			t.Errorf("%.40q: compact %.40q spaced %v, want %.40q", s, got, spaced, c.String())
		}
	}
}
