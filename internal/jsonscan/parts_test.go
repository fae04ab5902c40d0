package jsonscan

import (
	"strings"
	"testing"
)

func TestCountParts(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want int
	}{
		{`{"role":"user","content":"hi"}`, 0},
		{`{"role":"user","content":[]}`, 0},
		{`{"role":"user","content":[ ]}`, 0},
		{`{"role":"user","content":[{}]}`, 1},
		{`{"role":"user","content":[{},{}, {"type":"text","text":"a,[b]"}]}`, 3},
		{`{"content":[{"type":"tool_result","content":[{"type":"text","text":"x"},{}]}]}`, 3},
		{`{"content":[[{},{}]]}`, 3},
		{`{"role":"assistant","tool_calls":[{"function":{"arguments":"[1,2]"}}],"content":[{}]}`, 2},
		// A tool's input is not parts: its lists lie deeper.
		{`{"content":[{"type":"tool_use","input":{"todos":[1,2,3,4]}}]}`, 1},
		{`{"content":["a\"],[", "b"]}`, 2},
		{`[1,2,3]`, 0},
	} {
		if got := CountParts([]byte(tc.msg), 100); got != tc.want {
			t.Errorf("CountParts(%s) = %d, want %d", tc.msg, got, tc.want)
		}
	}
	big := `{"content":[` + strings.Repeat(`{},`, 999) + `{}]}`
	if got := CountParts([]byte(big), 1000); got != 1000 {
		t.Errorf("1000 parts under a limit of 1000: got %d", got)
	}
	if got := CountParts([]byte(big), 10); got != 11 {
		t.Errorf("1000 parts over a limit of 10: got %d, want 11", got)
	}
}
