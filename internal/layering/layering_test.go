// Package layering holds kompact's package graph (issue 30), in the style of
// pkgsite's internal/tests/deps: a table of what each package may import,
// checked against go list. docs/architecture.md draws the same graph, and
// TestArchitectureMap holds its table to this one.
package layering

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// allowed is the package graph: for each of kompact's packages (named
// without the module's "kompact/", the root as "kompact"), the kompact
// packages its non-test files import. The table is exact: an import not in
// it fails, and so does a row's entry the package no longer imports, so
// that the table, and the map in docs/architecture.md, stay the graph. A new
// package gets a row on purpose.
var allowed = map[string][]string{
	// The vocabulary and the ports: the standard library and pure helpers
	// (TestCoreDependencies in the root holds the rest of its rules).
	"kompact": {"internal/jsontext", "internal/jsonwrite"},

	// The rules every compaction type uses, and the kimi-cli engine, a
	// compaction type: the vocabulary only (and fidelity).
	"fidelity": {"kompact", "internal/artifacts"},
	"kimi":     {"kompact", "fidelity", "internal/pystr"},
	// Tool-output pruning: a rule on messages, like fidelity's.
	"toolprune": {"kompact", "fidelity", "internal/artifacts"},

	// The service: Sessions, the generic job, the gateway's workflow. It
	// names no compaction type: service/types.go links them with a blank
	// import (TestCompactionTypesImportedBlank).
	"service": {"kompact", "fidelity", "kimi", "kimicode", "toolprune", "internal/claudecode"},

	// Codecs and adapters.
	"sessionjson": {"kompact", "internal/jsonscan", "internal/jsontext", "internal/jsonwrite"},
	// openai is an adapter: no engine (which texts a request leaves out is
	// internal/pystr's rule, shared with kimi's answer checks).
	"openai": {"kompact", "sessionjson", "internal/backoff", "internal/bytesize", "internal/jsonscan", "internal/jsonwrite", "internal/llmclient", "internal/pystr", "internal/urlsecret"},
	// anthropic is the Messages API's adapter: the gateway's Messages face
	// and kompact's own calls for api: anthropic agents.
	"anthropic": {"kompact", "internal/jsonscan", "internal/llmclient", "internal/urlsecret"},
	// The LLM clients' one policy: their settings, the attempt loop, the
	// router cmd/kompact wires.
	"internal/llmclient": {"kompact", "internal/backoff"},
	// kimicli reads and writes kimi-cli's files; its prompt Finder makes
	// the kimi engine's prompt (kimi.NewPrompt, kimi.ResolvePrompt).
	"kimicli": {"kompact", "sessionjson", "kimi", "internal/atomicfile", "internal/jsonwrite"},
	"config":  {"kompact", "internal/didyoumean", "internal/urlsecret"},

	// The stores: one algorithm (internal/storeutil) over two dialects.
	"sqlite":   {"kompact", "internal/storeutil"},
	"postgres": {"kompact", "internal/storeutil", "internal/urlsecret"},
	// A new session's title is internal/title's, which the service shares.
	"internal/storeutil": {"kompact", "sessionjson", "internal/title"},

	// Surfaces: httpapi is a transport over the service (it reaches neither
	// config nor kimicli, nor a store, even indirectly: reachNever).
	"httpapi": {"kompact", "service", "anthropic", "openai", "sessionjson",
		"internal/bytesize", "internal/didyoumean", "internal/jsonscan", "internal/jsontext", "internal/title", "internal/urlsecret"},
	// Kimi Code's compaction (the type "kimi-code") and its session files.
	"kimicode": {"kompact", "fidelity", "internal/kcworkspace"},
	// cmd/kompact wires the packages together.
	"cmd/kompact": {"kompact", "anthropic", "config", "fidelity", "httpapi", "kimi", "kimicli", "kimicode", "openai", "postgres",
		"service", "sessionjson", "sqlite", "toolprune", "internal/atomicfile", "internal/didyoumean", "internal/jsontext", "internal/llmclient", "internal/urlsecret"},

	// Pure helpers.
	"internal/artifacts":       {"internal/jsonscan"},
	"internal/atomicfile":      {"kompact"},
	"internal/bytesize":        {},
	"internal/testing/cputime": {},
	"internal/didyoumean":      {},
	"internal/jsonscan":        {"internal/jsonwrite"},
	"internal/jsontext":        {},
	"internal/kcworkspace":     {},
	"internal/jsonwrite":       {},
	"internal/pystr":           {},
	"internal/title":           {"kompact", "internal/claudecode"},
	"internal/claudecode":      {"kompact"},
	"internal/urlsecret":       {},
	"internal/backoff":         {},

	// Test support: used by tests only.
	"internal/cmd/gotest": {},
	// The scripted, recording server the two streaming fakes share.
	"internal/testing/fakesse":       {},
	"internal/testing/fakeanthropic": {"internal/testing/fakesse"},
	"internal/testing/fakeresponses": {"internal/testing/fakesse"},
	// Runs a real Codex CLI and reads its texts from the binary.
	"internal/testing/codexcli": {"internal/testing/testenv"},
	"internal/testing/fakellm":  {"kompact"},
	"internal/testing/golden":   {},
	"internal/layering":         {},
	// kompact.Store in memory, for the layers above the store to test
	// without a database: storeutil's algorithm over maps.
	"internal/testing/memstore": {"kompact", "internal/storeutil"},
	"internal/testing/testmsg":  {"kompact"},
	// A scripted kompact.LLM, the agents it serves, and the real OpenAI
	// client set up for internal/testing/fakellm's server.
	"internal/testing/testllm": {"kompact", "openai"},
	// The kimi engine's plan and a model's answer, as kimi's and
	// internal/storeutil's tests build them.
	"internal/testing/testkimi": {"kompact", "kimi"},
	// The stores' conformance suite compacts with the kimi engine
	// (kimi.Options, kimi.Prepare) and checks the default title.
	"internal/testing/storetest":   {"kompact", "kimi", "internal/storeutil", "internal/title"},
	"internal/testing/testenv":     {},
	"internal/testing/testserver":  {"kompact", "postgres", "sqlite", "internal/testing/testenv"},
	"internal/testing/twoinstance": {},
	"internal/testing/vectors":     {"kompact", "openai", "internal/testing/testenv"},
	"internal/testing/kcvectors":   {"internal/testing/vectors", "internal/kcworkspace"},
	// The HTTP API's tests' shared support (httpapi's and integration's):
	// the OpenAPI checker, the gateway's fakes and fixtures.
	"internal/testing/openapicheck": {},
	"internal/testing/apitest": {"kompact", "anthropic", "config", "httpapi", "kimicode", "openai", "internal/llmclient",
		"internal/testing/fakeanthropic", "internal/testing/fakeresponses", "internal/testing/kcvectors", "internal/testing/openapicheck",
		"internal/testing/testserver"},
	// The slow suites (browser, Claude Code, Ollama): test files only.
	"integration": {},
}

// modules lists, for each package, the third-party modules its non-test
// files may import; a package not listed imports none. Like allowed, it is
// exact.
var modules = map[string][]string{
	"config":                        {"go.yaml.in/yaml/v3"},
	"httpapi":                       {"github.com/prometheus/client_golang"},
	"openai":                        {"github.com/openai/openai-go/v3"},
	"postgres":                      {"github.com/jackc/pgx/v5"},
	"sqlite":                        {"modernc.org/sqlite"},
	"internal/testing/testenv":      {"github.com/jackc/pgx/v5"},
	"internal/testing/apitest":      {"github.com/openai/openai-go/v3"},
	"internal/testing/openapicheck": {"github.com/pb33f/libopenapi", "github.com/pb33f/libopenapi-validator"},
}

// reachNever lists packages that must not depend on others even
// indirectly. The rules for every compaction type (those whose non-test
// files call kompact.RegisterCompactionType) are typeNever.
var reachNever = map[string][]string{
	"fidelity":  typeNever,
	"toolprune": typeNever,
	"httpapi":   {"config", "kimicli", "sqlite", "postgres", "internal/storeutil"},
}

// typeNever is what a compaction type, and fidelity, never depend on: the
// service, the surfaces, the adapters and the stores. A type reaches them
// through the vocabulary's ports.
var typeNever = []string{"service", "httpapi", "cmd/kompact", "openai", "anthropic", "config", "kimicli",
	"sqlite", "postgres", "internal/storeutil"}

// namesTypes lists the packages that may import a compaction type's
// package by name. Any other importer links it with a blank import in its
// types.go (TestCompactionTypesImportedBlank).
var namesTypes = map[string]bool{
	"cmd/kompact":                true, // the program may name a type it wires
	"internal/testing/storetest": true, // test support
	"internal/testing/testkimi":  true, // test support: kimi.Prepare
	"internal/testing/apitest":   true, // test support: Kimi Code's texts for an import
	"kimicli":                    true, // kimi-cli's files: the kimi engine's prompt
	"openai":                     true, // questionable: kimi.IsPythonBlank (see allowed)
}

const module = "kompact"

// pkg is what go list says of one of kompact's packages.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// short names p without the module's "kompact/" ("kompact" for the root).
func short(p string) string {
	if s, ok := strings.CutPrefix(p, module+"/"); ok {
		return s
	}
	return p
}

// isKompact says whether import path p is one of kompact's packages.
func isKompact(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }

// isStandard says whether import path p is the standard library's: its
// first element has no dot.
func isStandard(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".") && !isKompact(p)
}

// list runs go list over the module's packages, keyed by short name.
func list(t *testing.T) map[string]*pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,Imports", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		pkgs[short(p.ImportPath)] = p
	}
	if len(pkgs) < 10 || pkgs["kompact"] == nil || pkgs["service"] == nil {
		t.Fatalf("go list listed %d packages, not kompact's", len(pkgs))
	}
	return pkgs
}

// TestPackageLayering holds every kompact package's non-test imports of
// kompact packages to allowed, and its third-party imports to modules.
func TestPackageLayering(t *testing.T) {
	pkgs := list(t)
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		p := pkgs[name]
		want, ok := allowed[name]
		if !ok {
			t.Errorf("%s is not in the layering table: add its row (the kompact packages it may import) to allowed in internal/layering and to docs/architecture.md's map", name)
			continue
		}
		var got []string
		for _, imp := range p.Imports {
			switch {
			case isKompact(imp):
				got = append(got, short(imp))
				if !slices.Contains(want, short(imp)) {
					t.Errorf("%s imports %s, which the layering table does not allow (%s may import %v)", name, short(imp), name, want)
				}
			case !isStandard(imp):
				if !slices.ContainsFunc(modules[name], func(m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }) {
					t.Errorf("%s imports %s, a module the layering table does not allow it (%s may import %v)", name, imp, name, modules[name])
				}
			}
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s no longer imports %s: remove it from its row in internal/layering and from docs/architecture.md's map", name, w)
			}
		}
		for _, m := range modules[name] {
			if !slices.ContainsFunc(p.Imports, func(imp string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }) {
				t.Errorf("%s no longer imports the module %s: remove it from modules in internal/layering", name, m)
			}
		}
	}
	for name := range allowed {
		if pkgs[name] == nil {
			t.Errorf("the layering table has a row for %s, which go list does not list", name)
		}
	}
	for name := range modules {
		if pkgs[name] == nil {
			t.Errorf("the layering table's modules has a row for %s, which go list does not list", name)
		}
	}
}

// TestPackageReach keeps the root on the standard library and
// kompact/internal, and the compaction types, fidelity and httpapi from
// depending on what they must not (reachNever, typeNever), even
// indirectly, naming the chain of imports that does.
func TestPackageReach(t *testing.T) {
	pkgs := list(t)
	types := compactionTypes(t, pkgs)
	never := map[string][]string{}
	for name, n := range reachNever {
		never[name] = n
	}
	for _, name := range types {
		never[name] = typeNever
	}
	root := reach(pkgs, "kompact")
	for _, dep := range slices.Sorted(maps.Keys(root)) {
		if chain := root[dep]; !strings.HasPrefix(dep, "internal/") {
			t.Errorf("the root depends on %s (%s); it may use only the standard library and kompact/internal", dep, strings.Join(chain, " → "))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(never)) {
		forbidden := never[name]
		if pkgs[name] == nil {
			t.Errorf("reachNever names %s, which go list does not list", name)
			continue
		}
		chains := reach(pkgs, name)
		for _, dep := range slices.Sorted(maps.Keys(chains)) {
			if chain := chains[dep]; slices.Contains(forbidden, dep) {
				t.Errorf("%s depends on %s (%s); it must not, even indirectly", name, dep, strings.Join(chain, " → "))
			}
		}
	}
}

// reach returns every kompact package and third-party package that from
// depends on, each with the chain of imports from from to it.
func reach(pkgs map[string]*pkg, from string) map[string][]string {
	chains := map[string][]string{}
	queue := [][]string{{from}}
	for len(queue) > 0 {
		chain := queue[0]
		queue = queue[1:]
		p := pkgs[chain[len(chain)-1]]
		if p == nil {
			continue
		}
		for _, imp := range p.Imports {
			if isStandard(imp) {
				continue
			}
			dep := short(imp)
			if _, seen := chains[dep]; seen || dep == from {
				continue
			}
			next := append(slices.Clone(chain), dep)
			chains[dep] = next
			queue = append(queue, next)
		}
	}
	return chains
}

// compactionTypes returns the packages whose non-test files call
// kompact.RegisterCompactionType: the compaction types. The kimi engine is
// one.
func compactionTypes(t *testing.T, pkgs map[string]*pkg) []string {
	t.Helper()
	var types []string
	for name, p := range pkgs {
		for _, f := range parse(t, token.NewFileSet(), p, 0) {
			registers := false
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "RegisterCompactionType" {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "kompact" {
						registers = true
					}
				}
				return !registers
			})
			if registers {
				types = append(types, name)
				break
			}
		}
	}
	if !slices.Contains(types, "kimi") {
		t.Fatalf("the compaction types found are %v; kimi (kimi/type.go's init) should be one", types)
	}
	return types
}

// parse parses p's non-test Go files, keyed by file name.
func parse(t *testing.T, fset *token.FileSet, p *pkg, mode parser.Mode) map[string]*ast.File {
	t.Helper()
	files := map[string]*ast.File{}
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	return files
}

// TestCompactionTypesImportedBlank keeps the compaction types behind the
// seam: a package not in namesTypes imports a type's package only with a
// blank import in its types.go (service/types.go: one line per type), and
// service/types.go links every type.
func TestCompactionTypesImportedBlank(t *testing.T) {
	pkgs := list(t)
	types := compactionTypes(t, pkgs)
	fset := token.NewFileSet()
	for name, p := range pkgs {
		if namesTypes[name] {
			continue
		}
		for file, f := range parse(t, fset, p, parser.ImportsOnly) {
			for _, spec := range f.Imports {
				path, _ := strconv.Unquote(spec.Path.Value)
				if !slices.Contains(types, short(path)) {
					continue
				}
				blank := spec.Name != nil && spec.Name.Name == "_"
				if !blank || file != "types.go" {
					t.Errorf("%s: %s imports the compaction type %s by name; reach it through kompact.CompactionType (a blank import in %s/types.go links it)", fset.Position(spec.Pos()), name, short(path), name)
				}
			}
		}
	}
	linked := map[string]bool{}
	if f := parse(t, fset, pkgs["service"], parser.ImportsOnly)["types.go"]; f != nil {
		for _, spec := range f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			linked[short(path)] = true
		}
	}
	for _, typ := range types {
		if !linked[typ] {
			t.Errorf("service/types.go does not import the compaction type %s: add `_ \"kompact/%s\"`", typ, typ)
		}
	}
}

// TestArchitectureMap holds the graph's table in docs/architecture.md
// ("| package | imports |") to allowed and modules: each row's packages
// import exactly the kompact packages and modules its second column names
// (notes in parentheses aside), and every package has a row.
func TestArchitectureMap(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "| package | imports |\n| --- | --- |\n")
	if !ok {
		t.Fatal("docs/architecture.md has no table headed | package | imports |")
	}
	note := regexp.MustCompile(`\([^)]*\)`)
	quoted := regexp.MustCompile("`([^`]+)`")
	drawn := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 4 {
			break
		}
		var kompact, mods []string
		for _, m := range quoted.FindAllStringSubmatch(note.ReplaceAllString(cells[2], ""), -1) {
			if first, _, _ := strings.Cut(m[1], "/"); strings.Contains(first, ".") {
				mods = append(mods, m[1])
			} else {
				kompact = append(kompact, m[1])
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[1], -1) {
			name := m[1]
			drawn[name] = true
			want, ok := allowed[name]
			if !ok {
				t.Errorf("docs/architecture.md's map has a row for %s, which the layering table has not", name)
				continue
			}
			if !sameSet(kompact, want) || !sameSet(mods, modules[name]) {
				t.Errorf("docs/architecture.md's map says %s imports %v and the modules %v; the layering table says %v and %v", name, kompact, mods, want, modules[name])
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(allowed)) {
		if !drawn[name] {
			t.Errorf("docs/architecture.md's map has no row for %s", name)
		}
	}
}

// sameSet says whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// testingDir holds the packages that only tests import (issue 41 §7, as
// pkgsite's internal/testing): fakes, fixtures, the conformance suite.
const testingDir = "internal/testing/"

// TestTestSupportKeptApart holds internal/ by kind: no package outside
// internal/testing imports one inside it from a non-test file, so that
// the program never links test support; and a package that only tests
// import lives there.
func TestTestSupportKeptApart(t *testing.T) {
	pkgs := list(t)
	usedByProgram := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		for _, imp := range pkgs[name].Imports {
			dep := short(imp)
			if !isKompact(imp) || !strings.HasPrefix(dep, testingDir) {
				usedByProgram[dep] = usedByProgram[dep] || !strings.HasPrefix(name, testingDir)
				continue
			}
			if !strings.HasPrefix(name, testingDir) {
				t.Errorf("%s imports %s, test support: only tests and other test support may (move what the program needs out of %s)", name, dep, testingDir)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		if strings.HasPrefix(name, "internal/") && !strings.HasPrefix(name, testingDir) && !strings.HasPrefix(name, "internal/cmd/") &&
			name != "internal/layering" && !usedByProgram[name] {
			t.Errorf("%s is imported by no package of the program: if only tests use it, move it under %s", name, testingDir)
		}
	}
}
