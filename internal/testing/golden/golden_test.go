package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// failing records whether a check failed, without failing the test.
type failing struct {
	testing.TB
	failed bool
}

func (f *failing) Errorf(string, ...any) { f.failed = true }
func (f *failing) Fatalf(string, ...any) { f.failed = true }
func (f *failing) Helper()               {}

func TestCheckAndUpdate(t *testing.T) {
	t.Chdir(t.TempDir())
	*update = true
	Check(t, "x", []byte("a\nb\n"))
	*update = false
	if data, err := os.ReadFile(filepath.Join("testdata", "x.golden")); err != nil || string(data) != "a\nb\n" {
		t.Fatalf("-update wrote %q, %v", data, err)
	}
	Check(t, "x", []byte("a\nb\n"))
	f := &failing{TB: t}
	Check(f, "x", []byte("a\nc\n"))
	if !f.failed {
		t.Error("a different output passed")
	}
	f = &failing{TB: t}
	Check(f, "missing", []byte("a"))
	if !f.failed {
		t.Error("a missing golden file passed")
	}
	if d := diff([]byte("a\nb"), []byte("a\nc")); d != "line 2:\n  want: b\n  got:  c" {
		t.Errorf("diff %q", d)
	}
	if d := diff([]byte("a\n"), []byte("a")); d != "want 2 lines, got 1 (a final newline?)" {
		t.Errorf("diff %q", d)
	}
	if got := Replace([]byte(`{"preview_id":"pv_0f3a"}`), `pv_[0-9a-f]+`, "pv_$ID"); string(got) != `{"preview_id":"pv_$ID"}` {
		t.Errorf("Replace: %s", got)
	}
}
