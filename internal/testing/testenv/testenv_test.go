package testenv

import (
	"strings"
	"testing"
)

// recorder is a testing.TB that records Skipf and Fatalf instead of ending
// the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Skipf(format string, a ...any)  { r.skipped = format }
func (r *recorder) Fatalf(format string, a ...any) { r.failed = format }

func TestRequire(t *testing.T) {
	for _, tc := range []struct {
		ci       string
		ok       bool
		wantSkip bool
		wantFail bool
	}{
		{"", true, false, false},
		{"true", true, false, false},
		{"", false, true, false},
		{"1", false, true, false},
		{"true", false, false, true},
	} {
		t.Setenv("CI", tc.ci)
		r := &recorder{TB: t}
		Require(r, tc.ok, "x is missing", "install x")
		if (r.skipped != "") != tc.wantSkip || (r.failed != "") != tc.wantFail {
			t.Errorf("CI=%q ok=%v: skipped %q, failed %q", tc.ci, tc.ok, r.skipped, r.failed)
		}
	}
}

func TestVar(t *testing.T) {
	t.Setenv("CI", "true")
	t.Setenv("KOMPACT_TESTENV_X", "value")
	if got := Var(&recorder{TB: t}, "KOMPACT_TESTENV_X", "set it"); got != "value" {
		t.Errorf("Var = %q", got)
	}
	t.Setenv("KOMPACT_TESTENV_X", "")
	r := &recorder{TB: t}
	Var(r, "KOMPACT_TESTENV_X", "set it")
	if !strings.Contains(r.failed, "CI=true") {
		t.Errorf("an empty variable under CI=true: failed %q", r.failed)
	}
}
