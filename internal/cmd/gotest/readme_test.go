package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// command is how the README and CI run the tests.
const command = "go run ./internal/cmd/gotest ./..."

// TestReadmeTestCommand: the README's first test command is this program,
// and .ci/run runs the same command, so CI's test step is what a reader
// runs.
func TestReadmeTestCommand(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var first string
	if m := regexp.MustCompile("(?m)^(go (?:run|test) [^\n#]*?)\\s+# run the tests").FindSubmatch(readme); m != nil {
		first = string(m[1])
	}
	if first != command {
		t.Errorf("the README's first test command is %q, want %q", first, command)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile("(?m)^" + regexp.QuoteMeta(command) + "$").Match(ci) {
		t.Errorf(".ci/run does not run %q", command)
	}
}
