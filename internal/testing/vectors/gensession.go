package vectors

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// GenSession returns the synthetic session document of n messages that
// ../shared/tools/gen-session writes (kimi-cli's form, Python's white
// space), generated once into $TMPDIR/kompact-bench, the file the
// benchmarks of docs/benchmarks.md read.
func GenSession(tb testing.TB, n int) []byte {
	tb.Helper()
	path := filepath.Join(os.TempDir(), "kompact-bench", "session-"+strconv.Itoa(n)+".json")
	if data, err := os.ReadFile(path); err == nil {
		return data
	}
	tool := filepath.Join(SharedDir(tb), "tools", "gen-session", "gen_session.py")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	tmp := path + ".tmp"
	if out, err := exec.Command("python3", tool, strconv.Itoa(n), tmp).CombinedOutput(); err != nil {
		tb.Fatalf("gen_session: %v: %s", err, out)
	}
	if err := os.Rename(tmp, path); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
