package artifacts

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func scan(text string, src Source) []string {
	var out []string
	Scan(text, src, func(c Class, t string) { out = append(out, c.String()+" "+t) })
	return out
}

func TestScan(t *testing.T) {
	cases := []struct {
		name string
		src  Source
		text string
		want []string
	}{
		{"prose words are nothing", Prose, "The session is long. Then we compacted it, and/or not; e.g. twice. I/O at 24/7 in the U.S. and iOS.", []string{"identifier iOS"}},
		{"paths", Prose, "Edit internal/artifacts/scan.go:12:3 and ./run, see docs/fidelity.md, (go.mod) and /etc/hosts; not /compact or a.m.",
			[]string{"path internal/artifacts/scan.go", "path ./run", "path docs/fidelity.md", "path go.mod", "path /etc/hosts"}},
		{"bare names", Prose, "main.go, foo_test.go, archive.tar.gz, .env, README and v1.2.3 and e.g. kompact.Plan", []string{"path main.go", "path foo_test.go", "path archive.tar.gz", "path .env", "identifier kompact.Plan"}},
		{"directories", Prose, "under cmd/ and a/b/c, not client/server", []string{"path cmd/", "path a/b/c"}},
		{"flag values", Prose, "--out=build/app.bin", []string{"path build/app.bin"}},
		{"urls", Prose, "See https://example.com/a_b?x=1. and (http://x.org/p) or [t](https://go.dev/doc) but not ftp:// or mailto:x",
			[]string{"url https://example.com/a_b?x=1", "url http://x.org/p", "url https://go.dev/doc"}},
		{"identifiers", Prose, "Call ParseConfig, parseConfig, HTTPServer, max_recall, MAX_RECALL, os.Exit, Plan.Apply(), run() and self.max_recall; not Hello, JSON, _x_ or x.y",
			[]string{"identifier ParseConfig", "identifier parseConfig", "identifier HTTPServer", "identifier max_recall", "identifier MAX_RECALL",
				"identifier os.Exit", "identifier Plan.Apply", "identifier run", "identifier self.max_recall"}},
		{"code spans", Prose, "Use `go test ./internal/...` and `Job.Run` and `x` and `sqlite/migrations/0006.sql` and `https://a.b/c`",
			[]string{"identifier go test ./internal/...", "path internal/", "identifier Job.Run", "identifier x", "path sqlite/migrations/0006.sql", "url https://a.b/c"}},
		{"commands", Prose, "run it:\n$ go test  ./...\n```bash\n# comment\ngo vet ./...\n$ make\n```\n```console\n$ ls\nfile.txt\n```\n```go\nfunc main() {}\n```",
			[]string{"command go test ./...", "command go vet ./...", "command make", "command ls", "path file.txt", "identifier main"}},
		{"errors", Output, "panic: runtime error: index out of range\n--- FAIL: TestFoo (0.00s)\nFAIL\tkompact/x\t0.1s\nFAILED tests/test_a.py::test_b - boom\nValueError: bad value\nerror[E0308]: mismatched types\n./main.go:12:5: undefined: x\nmain.go:7: warning: unused\nexit status 2\nprocess exited with exit code 1.",
			[]string{"error panic: runtime error: index out of range", "error TestFoo", "error kompact/x", "error tests/test_a.py::test_b",
				"error ValueError: bad value", "error error[E0308]: mismatched types",
				"error ./main.go:12:5: undefined: x", "path main.go", "error main.go:7: warning: unused", "path main.go", "error process exited with exit code 1."}},
		{"grep output is not an error", Output, "main.go:12: func main() {", []string{"path main.go"}},
		{"todos", Prose, "// TODO(ann): handle the empty range\nFIXME: nil map\n- [ ] write docs\n1. Next step: run the eval\nTODOs are not markers, nor URLs or IDs",
			[]string{"todo handle the empty range", "todo nil map", "todo write docs", "todo run the eval"}},
		{"no identifiers or todos in output", Output, "TODO: x\nParseConfig in cfg.go\n`Job.Run`", []string{"path cfg.go"}},
	}
	checkScan(t, cases)
}

func checkScan(t *testing.T, cases []struct {
	name string
	src  Source
	text string
	want []string
}) {
	t.Helper()
	for _, c := range cases {
		got := scan(c.text, c.src)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestScanOneArtifactEach: issue 28 §2's rules. ./cmd/server/main.go and
// cmd/server/main.go are one path (./run, which is no path without its
// ./, stays); a path inside a command is part of it; an exit status keeps
// its line's context, and after an error adds nothing.
func TestScanOneArtifactEach(t *testing.T) {
	checkScan(t, []struct {
		name string
		src  Source
		text string
		want []string
	}{
		{"./ paths", Prose, "Edit ./cmd/server/main.go, cmd/server/main.go, ././a.go, `./b.go` and ./run, not ./internal/storetest",
			[]string{"path cmd/server/main.go", "path cmd/server/main.go", "path a.go", "path b.go", "path ./run", "path ./internal/storetest"}},
		{"paths in commands", Prose, "$ cat cmd/server/main.go https://x.org/a\n```sh\ngo test ./internal/artifacts/ -run TestScan\n```\nthen cmd/server/main.go",
			[]string{"command cat cmd/server/main.go https://x.org/a", "command go test ./internal/artifacts/ -run TestScan", "path cmd/server/main.go"}},
		{"an exit status keeps its line", Output, "--- FAIL: TestX (0.00s) x_test.go:3: boom exit status 1",
			[]string{"error TestX", "error --- FAIL: TestX (0.00s) x_test.go:3: boom exit status 1", "path x_test.go"}},
		{"an exit status after an error", Output, "--- FAIL: TestX (0.00s)\nFAIL\nexit status 1\nFAIL\tkompact/x\t0.1s",
			[]string{"error TestX", "error kompact/x"}},
		{"an exit status alone", Output, "building\nexit status 2.", []string{"error exit status 2"}},
		{"an exit status in a line error", Output, "error: make failed: exit status 2", []string{"error error: make failed: exit status 2"}},
	})
}

func TestCutAndClean(t *testing.T) {
	long := strings.Repeat("é", 150)
	if got := Cut(long); len(got) > MaxText || !strings.HasPrefix(long, got) || len(got) != MaxText {
		t.Errorf("Cut: %d bytes", len(got))
	}
	if got := Cut(strings.Repeat("€", 100)); len(got) != 198 || got != strings.Repeat("€", 66) {
		t.Errorf("Cut of 3-byte characters: %d bytes", len(got))
	}
	// Not UTF-8: stray continuation bytes are cut, not walked back over to
	// nothing (the fuzzer found a TODO item emitted empty so).
	if got := Cut("!" + strings.Repeat("\x99", 300)); len(got) != MaxText-utf8.UTFMax+1 {
		t.Errorf("Cut of stray continuation bytes: %d bytes", len(got))
	}
	if got := Clean("  a \t b\n\nc  "); got != "a b c" {
		t.Errorf("Clean = %q", got)
	}
	if s := "a b"; Clean(s) != s {
		t.Error("Clean changed a clean string")
	}
}
