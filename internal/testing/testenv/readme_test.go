package testenv_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// testVars finds the environment variables the tests read through this
// package: the names passed to Var, the "NAME is not set" of Require, and
// what this package reads with os.Getenv.
var testVars = []*regexp.Regexp{
	regexp.MustCompile(`\bVar\(\w+, "([A-Z][A-Z0-9_]+)"`),
	regexp.MustCompile(`Require\([^\n]*"([A-Z][A-Z0-9_]+) is not set"`),
}

var getenv = regexp.MustCompile(`os\.Getenv\("([A-Z][A-Z0-9_]+)"\)`)

// TestReadmeNamesTestVariables (issue 40 §5): the README's Development
// section names every environment variable a skipping test reads (each
// found in the code, so that a new one cannot go unsaid), and the shared
// folder.
func TestReadmeNamesTestVariables(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	var vars []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		own := filepath.Dir(path) == filepath.Join(root, "internal", "testing", "testenv")
		if own && strings.HasSuffix(path, "_test.go") {
			return nil // this package's tests of itself
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		res := testVars
		if own {
			res = append(slices.Clone(res), getenv) // this package's own reads
		}
		for _, re := range res {
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				vars = append(vars, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(vars)
	vars = slices.Compact(vars)
	for _, want := range []string{"KOMPACT_TEST_POSTGRES", "KOMPACT_OLLAMA_URL", "KOMPACT_OLLAMA_MODEL", "CLAUDE_CODE_BIN", "KIMI_CODE_BIN", "KIMI_CODE_PATH", "CODEX_BIN"} {
		if !slices.Contains(vars, want) {
			t.Errorf("the scan found no %s (found %v): check the patterns", want, vars)
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, dev, ok := strings.Cut(string(readme), "\n## Development\n")
	if !ok {
		t.Fatal("the README has no Development section")
	}
	dev, _, _ = strings.Cut(dev, "\n## ")
	for _, v := range append(vars, "KOMPACT_SHARED", "KOMPACT_CHROMIUM") {
		if !strings.Contains(dev, "`"+v+"`") && !strings.Contains(dev, "`$"+v+"`") && !strings.Contains(dev, "`"+v+"=") {
			t.Errorf("the README's Development section does not name %s, which tests read", v)
		}
	}
	if !strings.Contains(dev, "`../shared`") {
		t.Error("the README's Development section does not name ../shared")
	}
}
