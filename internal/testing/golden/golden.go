// Package golden compares test output with the files in a package's
// testdata folder, byte for byte. Run a package's tests with -update to
// rewrite its golden files from what the code produces now, then review the
// diff:
//
//	go test ./httpapi/ -run Golden -update
//
// Golden files pin byte-level contracts (outcome JSON, CLI reports); their
// content must not depend on time, ports, temporary folders or random ids:
// replace those with placeholders before comparing (see Replace).
//
// The package defines the -update test flag; a package that uses it must
// not define its own.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Update reports whether the tests run with -update.
func Update() bool { return *update }

// Check compares got with testdata/NAME.golden. With -update it writes got
// there instead.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run with -update to accept the output, then review the diff)\n%s",
			path, diff(want, got))
	}
}

// Replace returns data with every match of the regular expression pattern
// replaced by placeholder, for output that holds a random id or a
// temporary path.
func Replace(data []byte, pattern, placeholder string) []byte {
	return regexp.MustCompile(pattern).ReplaceAllLiteral(data, []byte(placeholder))
}

// diff shows the first line where want and got differ.
func diff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(wl) && i < len(gl); i++ {
		if !bytes.Equal(wl[i], gl[i]) {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + string(wl[i]) + "\n  got:  " + string(gl[i])
		}
	}
	return "want " + strconv.Itoa(len(wl)) + " lines, got " + strconv.Itoa(len(gl)) + " (a final newline?)"
}
