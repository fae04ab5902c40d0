package didyoumean

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3},
		{"max-preseved", "max-preserved", 1}, {"tpye", "type", 1}, {"ab", "ba", 1}, {"same", "same", 0},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	flags := []string{"agent", "config", "end", "instructions", "json", "kimi", "max-preserved", "model", "o", "start", "up-to"}
	for in, want := range map[string]string{
		"max-preseved": "max-preserved", "agnet": "agent", "Model": "model", "upto": "up-to",
		"instr": "instructions", // a prefix of three bytes or more
		"x":     "", "zzzzzz": "", "": "",
	} {
		if got := Closest(in, flags); got != want {
			t.Errorf("Closest(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Closest("anything", nil); got != "" {
		t.Errorf("Closest with no candidates = %q", got)
	}
}
