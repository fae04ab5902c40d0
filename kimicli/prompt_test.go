package kimicli_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kompact"
	"kompact/internal/testing/vectors"
	"kompact/kimicli"
)

// writeFile writes data to dir/rel, creating the folders on the way, and
// returns the full path.
func writeFile(t *testing.T, dir, rel, data string) string {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const pkgPrompt = "kimi_cli/prompts/compact.md"

// noEnv is a Getenv that sees an empty environment, so that the tests do not
// depend on the KIMI_CLI_PATH of the machine they run on.
func noEnv(string) string { return "" }

func envWith(key, val string) func(string) string {
	return func(k string) string {
		if k == key {
			return val
		}
		return ""
	}
}

func TestFindPromptInRoot(t *testing.T) {
	root := t.TempDir()
	body := "Summarise the conversation.\n"
	path := writeFile(t, root, pkgPrompt, body)
	f := kimicli.Finder{Getenv: noEnv, Roots: []string{root}}
	p, err := f.FindPrompt()
	if err != nil {
		t.Fatalf("FindPrompt: %v", err)
	}
	want := kompact.Prompt{Body: body, Source: kompact.PromptKimiCLI, Origin: path}
	if p != want {
		t.Errorf("FindPrompt = %+v, want %+v", p, want)
	}
}

func TestFindPromptRootGlob(t *testing.T) {
	base := t.TempDir()
	path := writeFile(t, base, "lib/python3.12/site-packages/"+pkgPrompt, "from a glob\n")
	f := kimicli.Finder{Getenv: noEnv, Roots: []string{filepath.Join(base, "lib", "python3*", "site-packages")}}
	p, err := f.FindPrompt()
	if err != nil {
		t.Fatal(err)
	}
	if p.Origin != path || p.Body != "from a glob\n" || p.Source != kompact.PromptKimiCLI {
		t.Errorf("FindPrompt = %+v, want the file at %s", p, path)
	}
}

func TestFindPromptNormalizesNewlines(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, pkgPrompt, "a\r\nb\rc\n")
	p, err := (&kimicli.Finder{Getenv: noEnv, Roots: []string{root}}).FindPrompt()
	if err != nil {
		t.Fatal(err)
	}
	if p.Body != "a\nb\nc\n" {
		t.Errorf("body = %q", p.Body)
	}
}

func TestFindPromptFirstOfTwoNonGenuine(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	p1 := writeFile(t, first, pkgPrompt, "first copy\n")
	writeFile(t, second, pkgPrompt, "second copy\n")
	p, err := (&kimicli.Finder{Getenv: noEnv, Roots: []string{first, second}}).FindPrompt()
	if err != nil {
		t.Fatal(err)
	}
	if p.Origin != p1 || p.Body != "first copy\n" {
		t.Errorf("FindPrompt = %+v, want the first root's copy %s", p, p1)
	}
}

func TestFindPromptSortedWithinOneGlob(t *testing.T) {
	base := t.TempDir()
	// Created in reverse order; the glob's matches are taken sorted.
	writeFile(t, base, "b/site-packages/"+pkgPrompt, "from b\n")
	want := writeFile(t, base, "a/site-packages/"+pkgPrompt, "from a\n")
	f := kimicli.Finder{Getenv: noEnv, Roots: []string{filepath.Join(base, "*", "site-packages")}}
	p, err := f.FindPrompt()
	if err != nil {
		t.Fatal(err)
	}
	if p.Origin != want || p.Body != "from a\n" {
		t.Errorf("FindPrompt = %+v, want %s", p, want)
	}
}

func TestFindPromptGenuineWins(t *testing.T) {
	genuine, _ := vectors.KimiPrompt(t)
	for _, order := range []string{"genuine second", "genuine first"} {
		t.Run(order, func(t *testing.T) {
			edited, real := t.TempDir(), t.TempDir()
			writeFile(t, edited, pkgPrompt, genuine+" edited")
			realPath := writeFile(t, real, pkgPrompt, genuine)
			roots := []string{edited, real}
			if order == "genuine first" {
				roots = []string{real, edited}
			}
			p, err := (&kimicli.Finder{Getenv: noEnv, Roots: roots}).FindPrompt()
			if err != nil {
				t.Fatal(err)
			}
			if p.Origin != realPath {
				t.Errorf("Origin = %s, want the genuine copy %s", p.Origin, realPath)
			}
			if p.Body != genuine || !p.Genuine() || p.Source != kompact.PromptKimiCLI {
				t.Errorf("got source %q, genuine %v, %d bytes", p.Source, p.Genuine(), len(p.Body))
			}
		})
	}
}

func TestFindPromptGenuineWithinOneGlob(t *testing.T) {
	genuine, _ := vectors.KimiPrompt(t)
	base := t.TempDir()
	// Sorted, "a" comes before "b": the edited copy is met first.
	writeFile(t, base, "a/site-packages/"+pkgPrompt, "not it\n")
	want := writeFile(t, base, "b/site-packages/"+pkgPrompt, genuine)
	f := kimicli.Finder{Getenv: noEnv, Roots: []string{filepath.Join(base, "*", "site-packages")}}
	p, err := f.FindPrompt()
	if err != nil {
		t.Fatal(err)
	}
	if p.Origin != want || !p.Genuine() {
		t.Errorf("FindPrompt = %s (genuine %v), want %s", p.Origin, p.Genuine(), want)
	}
}

func TestFindPromptSkipsUnusableCopies(t *testing.T) {
	empty, dirInstead, bad, good := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, empty, pkgPrompt, " \n\t\n")
	if err := os.MkdirAll(filepath.Join(dirInstead, "kimi_cli", "prompts", "compact.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, bad, pkgPrompt, "bad \xff\xfe bytes")
	want := writeFile(t, good, pkgPrompt, "usable\n")
	f := kimicli.Finder{Getenv: noEnv, Roots: []string{empty, dirInstead, bad, good}}
	p, err := f.FindPrompt()
	if err != nil {
		t.Fatalf("FindPrompt: %v", err)
	}
	if p.Origin != want || p.Body != "usable\n" {
		t.Errorf("FindPrompt = %+v, want %s", p, want)
	}
}

func TestFindPromptNotInstalled(t *testing.T) {
	emptyRoot := t.TempDir()
	// A root with the package but no compact.md.
	partial := t.TempDir()
	writeFile(t, partial, "kimi_cli/prompts/other.md", "x")
	for name, roots := range map[string][]string{
		"no roots":       {},
		"empty root":     {emptyRoot},
		"missing root":   {filepath.Join(emptyRoot, "does-not-exist")},
		"glob no match":  {filepath.Join(emptyRoot, "*", "site-packages")},
		"no compact.md":  {partial},
		"several misses": {emptyRoot, partial},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := (&kimicli.Finder{Getenv: noEnv, Roots: roots}).FindPrompt()
			if err != nil {
				t.Fatalf("err = %v, want nil", err)
			}
			if p != (kompact.Prompt{}) {
				t.Errorf("FindPrompt = %+v, want the zero Prompt", p)
			}
		})
	}
}

func TestFindPromptEnvPath(t *testing.T) {
	body := "explicit prompt\n"
	tests := []struct {
		name string
		// setup lays out files under dir and returns the KIMI_CLI_PATH value
		// and the compact.md it must lead to.
		setup func(t *testing.T, dir string) (env, want string)
	}{
		{"the file itself", func(t *testing.T, dir string) (string, string) {
			p := writeFile(t, dir, "anywhere/my-compact.md", body)
			return p, p
		}},
		{"a checkout", func(t *testing.T, dir string) (string, string) {
			p := writeFile(t, dir, "kimi-cli/src/"+pkgPrompt, body)
			return filepath.Join(dir, "kimi-cli"), p
		}},
		{"an installed package dir", func(t *testing.T, dir string) (string, string) {
			p := writeFile(t, dir, "site-packages/"+pkgPrompt, body)
			return filepath.Join(dir, "site-packages"), p
		}},
		{"the kimi_cli package", func(t *testing.T, dir string) (string, string) {
			p := writeFile(t, dir, pkgPrompt, body)
			return filepath.Join(dir, "kimi_cli"), p
		}},
		{"the prompts folder", func(t *testing.T, dir string) (string, string) {
			p := writeFile(t, dir, pkgPrompt, body)
			return filepath.Join(dir, "kimi_cli", "prompts"), p
		}},
		{"checkout wins over a stray compact.md", func(t *testing.T, dir string) (string, string) {
			writeFile(t, dir, "compact.md", "stray\n")
			p := writeFile(t, dir, "src/"+pkgPrompt, body)
			return dir, p
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			env, want := tt.setup(t, dir)
			// A copy in the roots must not be used when KIMI_CLI_PATH is set.
			other := t.TempDir()
			writeFile(t, other, pkgPrompt, "from roots\n")
			f := kimicli.Finder{Getenv: envWith(kimicli.PathEnv, env), Roots: []string{other}}
			p, err := f.FindPrompt()
			if err != nil {
				t.Fatalf("FindPrompt: %v", err)
			}
			if p.Origin != want || p.Body != body || p.Source != kompact.PromptKimiCLI {
				t.Errorf("FindPrompt = %+v, want body %q from %s", p, body, want)
			}
		})
	}
}

func TestFindPromptEnvPathGenuine(t *testing.T) {
	genuine, _ := vectors.KimiPrompt(t)
	dir := t.TempDir()
	path := writeFile(t, dir, "src/"+pkgPrompt, genuine)
	p, err := (&kimicli.Finder{Getenv: envWith(kimicli.PathEnv, dir), Roots: []string{}}).FindPrompt()
	if err != nil {
		t.Fatal(err)
	}
	if !p.Genuine() || p.Origin != path {
		t.Errorf("FindPrompt = %s (genuine %v), want the genuine prompt at %s", p.Origin, p.Genuine(), path)
	}
}

func TestFindPromptEnvPathErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string
	}{
		{"nonexistent path", func(t *testing.T, dir string) string {
			return filepath.Join(dir, "no", "such", "kimi-cli")
		}},
		{"directory without compact.md", func(t *testing.T, dir string) string {
			writeFile(t, dir, "src/kimi_cli/__init__.py", "")
			return dir
		}},
		{"empty file", func(t *testing.T, dir string) string {
			return writeFile(t, dir, "compact.md", "")
		}},
		{"non-UTF-8 file", func(t *testing.T, dir string) string {
			return writeFile(t, dir, "compact.md", "caf\xe9\n")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			env := tt.setup(t, dir)
			// A usable copy in the roots must not be a silent fallback.
			other := t.TempDir()
			writeFile(t, other, pkgPrompt, "from roots\n")
			p, err := (&kimicli.Finder{Getenv: envWith(kimicli.PathEnv, env), Roots: []string{other}}).FindPrompt()
			if err == nil {
				t.Fatalf("FindPrompt = %+v, want an error", p)
			}
			if p != (kompact.Prompt{}) {
				t.Errorf("prompt %+v returned with the error", p)
			}
			if code := kompact.ErrorCodeOf(err); code != kompact.EInvalid {
				t.Errorf("code = %q, want %q (err %v)", code, kompact.EInvalid, err)
			}
		})
	}
}

func TestFindPromptEnvPathMessages(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	_, err := (&kimicli.Finder{Getenv: envWith(kimicli.PathEnv, missing), Roots: []string{}}).FindPrompt()
	if err == nil {
		t.Fatal("no error for a nonexistent KIMI_CLI_PATH")
	}
	if kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("code = %q", kompact.ErrorCodeOf(err))
	}
	if msg := err.Error(); !strings.Contains(msg, "KIMI_CLI_PATH") || !strings.Contains(msg, missing) {
		t.Errorf("message %q should name KIMI_CLI_PATH and %s", msg, missing)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v does not wrap fs.ErrNotExist", err)
	}
	if len(kompact.ErrorFixes(err)) == 0 {
		t.Error("no fixes")
	}

	empty := t.TempDir()
	_, err = (&kimicli.Finder{Getenv: envWith(kimicli.PathEnv, empty), Roots: []string{}}).FindPrompt()
	if err == nil {
		t.Fatal("no error for a KIMI_CLI_PATH folder without compact.md")
	}
	if kompact.ErrorCodeOf(err) != kompact.EInvalid {
		t.Errorf("code = %q", kompact.ErrorCodeOf(err))
	}
	if msg := err.Error(); !strings.Contains(msg, "KIMI_CLI_PATH") || !strings.Contains(msg, "compact.md") {
		t.Errorf("message %q should name KIMI_CLI_PATH and compact.md", msg)
	}
	if len(kompact.ErrorFixes(err)) == 0 {
		t.Error("no fixes")
	}
}

func TestSitePackagePatterns(t *testing.T) {
	roots := []string{"/x/site-packages"}
	if got := (&kimicli.Finder{Roots: roots}).SitePackagePatterns(); len(got) != 1 || got[0] != roots[0] {
		t.Errorf("Roots not used: %v", got)
	}
	env := map[string]string{
		"VIRTUAL_ENV": "/venv",
		"PYTHONPATH":  "/pp1" + string(os.PathListSeparator) + string(os.PathListSeparator) + "/pp2",
	}
	f := kimicli.Finder{Getenv: func(k string) string { return env[k] }, Home: "/home/u"}
	got := f.SitePackagePatterns()
	if len(got) < 4 {
		t.Fatalf("patterns = %v", got)
	}
	want := []string{filepath.Join("/venv", "lib", "python3*", "site-packages"), "/pp1", "/pp2"}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("pattern %d = %q, want %q (all: %v)", i, got[i], w, got)
		}
	}
	home := 0
	for _, p := range got {
		if p == "" {
			t.Errorf("empty pattern in %v", got)
		}
		if strings.HasPrefix(p, "/home/u/") {
			home++
		}
	}
	if home == 0 {
		t.Errorf("no pattern under the home directory: %v", got)
	}
}

func TestReadPromptFile(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"lf kept", "line one\nline two\n", "line one\nline two\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"lone cr", "a\rb\r", "a\nb\n"},
		{"mixed", "a\r\nb\rc\nd\r\r\ne", "a\nb\nc\nd\n\ne"},
		{"cr cr lf", "x\r\r\ny", "x\n\ny"},
		{"nothing stripped", "  \n\tbody  \n\n", "  \n\tbody  \n\n"},
		{"unicode", "résumé 🚀\r\n", "résumé 🚀\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "prompt.md", tt.data)
			p, err := kimicli.ReadPromptFile(path)
			if err != nil {
				t.Fatalf("ReadPromptFile: %v", err)
			}
			want := kompact.Prompt{Body: tt.want, Source: kompact.PromptFile, Origin: path}
			if p != want {
				t.Errorf("ReadPromptFile = %+v, want %+v", p, want)
			}
		})
	}
}

func TestReadPromptFileGenuineCRLF(t *testing.T) {
	genuine, _ := vectors.KimiPrompt(t)
	path := writeFile(t, t.TempDir(), "compact.md", strings.ReplaceAll(genuine, "\n", "\r\n"))
	p, err := kimicli.ReadPromptFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Genuine() {
		t.Error("the genuine prompt saved with CRLF line ends is not recognised after normalization")
	}
}

func TestReadPromptFileErrors(t *testing.T) {
	for _, tt := range []struct {
		name, data string
	}{
		{"empty", ""},
		{"spaces", "   "},
		{"whitespace lines", "\n\n\t \r\n\r"},
		{"non-UTF-8 latin-1", "caf\xe9"},
		{"non-UTF-8 invalid byte", "ok text \xff more"},
		{"UTF-16", "\xff\xfeh\x00i\x00"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "prompt.md", tt.data)
			p, err := kimicli.ReadPromptFile(path)
			if err == nil {
				t.Fatalf("ReadPromptFile = %+v, want an error", p)
			}
			if p != (kompact.Prompt{}) {
				t.Errorf("prompt %+v returned with the error", p)
			}
			if code := kompact.ErrorCodeOf(err); code != kompact.EInvalid {
				t.Errorf("code = %q, want %q", code, kompact.EInvalid)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("message %q does not name the file", err)
			}
			if len(kompact.ErrorFixes(err)) == 0 {
				t.Error("no fixes")
			}
		})
	}
}

func TestReadPromptFileMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.md")
	p, err := kimicli.ReadPromptFile(path)
	if err == nil {
		t.Fatalf("ReadPromptFile = %+v, want an error", p)
	}
	if p != (kompact.Prompt{}) {
		t.Errorf("prompt %+v returned with the error", p)
	}
	if len(kompact.ErrorFixes(err)) == 0 {
		t.Error("no fixes")
	}
	if code := kompact.ErrorCodeOf(err); code != kompact.EInvalid {
		t.Errorf("code = %q, want %q", code, kompact.EInvalid)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v does not wrap fs.ErrNotExist", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("message %q does not name the file", err)
	}
}

func TestReadPromptFileDirectory(t *testing.T) {
	_, err := kimicli.ReadPromptFile(t.TempDir())
	if err == nil {
		t.Fatal("reading a directory as a prompt file succeeded")
	}
	if len(kompact.ErrorFixes(err)) == 0 {
		t.Error("no fixes")
	}
}

func TestAgentPromptOrder(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "site")
	if err := os.MkdirAll(filepath.Join(pkg, "kimi_cli", "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(pkg, "kimi_cli", "prompts", "compact.md"), []byte("KIMI"), 0o644)
	pf := filepath.Join(dir, "mine.md")
	os.WriteFile(pf, []byte("FILE"), 0o644)
	f := &kimicli.Finder{Getenv: func(string) string { return "" }, Roots: []string{pkg}}

	a := &kompact.Agent{Name: "x", Compaction: kompact.CompactionConfig{Prompt: "INLINE", PromptFile: pf}}
	if p, err := f.AgentPrompt(a); err != nil || p.Body != "INLINE" || p.Source != kompact.PromptInline {
		t.Errorf("inline: %+v %v", p, err)
	}
	a.Compaction.Prompt = ""
	if p, err := f.AgentPrompt(a); err != nil || p.Body != "FILE" || p.Source != kompact.PromptFile {
		t.Errorf("prompt_file: %+v %v", p, err)
	}
	a.Compaction.PromptFile = ""
	if p, err := f.AgentPrompt(a); err != nil || p.Body != "KIMI" || p.Source != kompact.PromptKimiCLI {
		t.Errorf("kimi-cli: %+v %v", p, err)
	}
	empty := &kimicli.Finder{Getenv: func(string) string { return "" }, Roots: []string{}}
	if p, err := empty.AgentPrompt(a); err != nil || p.Source != kompact.PromptBuiltin {
		t.Errorf("built-in: %+v %v", p, err)
	}
	a.Compaction.PromptFile = filepath.Join(dir, "missing.md")
	if _, err := f.AgentPrompt(a); err == nil || !strings.Contains(err.Error(), "prompt_file") {
		t.Errorf("missing prompt_file: %v", err)
	}
}

// TestPrefetchThenAgentPrompt: a search started by Prefetch is the one
// AgentPrompt uses (it waits for it), also when both run at once (the race
// detector checks), and the file found then is what a fresh search finds.
func TestPrefetchThenAgentPrompt(t *testing.T) {
	root := t.TempDir()
	path := writeFile(t, root, pkgPrompt, "Summarise the conversation.\n")
	f := &kimicli.Finder{Getenv: noEnv, Roots: []string{root}}
	f.Prefetch()
	got, err := f.AgentPrompt(&kompact.Agent{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != kompact.PromptKimiCLI || got.Origin != path {
		t.Errorf("AgentPrompt after Prefetch = %+v, want the file at %s", got, path)
	}
}
