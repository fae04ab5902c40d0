package httpapi_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// timestamps matches the RFC 3339 times the server writes.
var timestamps = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"`)

// normalise replaces the times in got, which the store takes from the
// clock, with a fixed one.
func normalise(got []byte) []byte {
	return timestamps.ReplaceAll(got, []byte(`"2000-01-01T00:00:00Z"`))
}

// golden compares got with testdata/NAME.golden, or rewrites the file
// with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -update rewrites it):\n got:\n%s\nwant:\n%s", name, path, got, want)
	}
}
