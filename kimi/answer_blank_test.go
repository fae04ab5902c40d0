package kimi_test

import (
	"testing"

	"kompact"
	"kompact/internal/pystr"
	"kompact/kimi"
)

// pythonIsSpace is the set of code points Python 3's str.isspace()
// accepts, as printed by Python 3.11:
// [hex(c) for c in range(0x110000) if chr(c).isspace()].
var pythonIsSpace = []rune{0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
	0x2028, 0x2029, 0x202f, 0x205f, 0x3000}

// TestIsPythonBlankMatchesPython: every code point is blank exactly when
// Python's str.strip() removes it (not Go's unicode.IsSpace, which
// differs at U+001C-U+001F).
func TestIsPythonBlankMatchesPython(t *testing.T) {
	want := make(map[rune]bool, len(pythonIsSpace))
	for _, r := range pythonIsSpace {
		want[r] = true
	}
	for r := rune(0); r < 0x110000; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		if got := pystr.IsBlank(string(r)); got != want[r] {
			t.Errorf("pystr.IsBlank(%U) = %v, want %v", r, got, want[r])
		}
	}
	if !pystr.IsBlank("") || !pystr.IsBlank(" \t\x1f\u3000") || pystr.IsBlank(" x ") {
		t.Error("pystr.IsBlank of a string")
	}
}

// TestThinkAndBlankTextIsEmptyResponse: an answer with thinking whose
// text parts are only white space (by Python's rules) is kimi-cli's
// think-only empty response; blank text alone is a summary, as in
// kimi-cli (parity vector 041); a tool call with blank text is kompact's
// tool-call-only error.
func TestThinkAndBlankTextIsEmptyResponse(t *testing.T) {
	think := kompact.ThinkPart("I thought about it.")
	call := []kompact.ToolCall{{ID: "c", Name: "f"}}
	for _, tc := range []struct {
		name string
		a    kompact.Answer
		msg  string
	}{
		{"think and spaces", kompact.Answer{Parts: []kompact.Part{think, kompact.TextPart("  \n ")}}, kimi.ThinkOnlyMessage},
		{"spaces, think, spaces", kompact.Answer{Parts: []kompact.Part{kompact.TextPart("\t"), think, kompact.TextPart("\u3000\u2028")}}, kimi.ThinkOnlyMessage},
		{"think and Python-only white space", kompact.Answer{Parts: []kompact.Part{think, kompact.TextPart("\x1c\x1d\x1e\x1f")}}, kimi.ThinkOnlyMessage},
		{"think and a zero-width space", kompact.Answer{Parts: []kompact.Part{think, kompact.TextPart("\u200b")}}, ""},
		{"think and text", kompact.Answer{Parts: []kompact.Part{think, kompact.TextPart(" x ")}}, ""},
		{"blank text alone", kompact.Answer{Parts: []kompact.Part{kompact.TextPart("\x1c \n")}}, ""},
		{"blank text and a tool call", kompact.Answer{Parts: []kompact.Part{kompact.TextPart(" ")}, ToolCalls: call}, kimi.ToolCallOnlyMessage},
	} {
		err := kimi.CheckAnswer(tc.a)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.msg || kompact.ErrorCodeOf(err) != kompact.EEmptyResponse {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.msg)
		}
	}
}
