package httpapi

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The web page's modules (web/*.js, as embedded) import each other
// without a cycle: the panels share web/state.js and tell each other what
// happened through web/events.js, and neither imports anything.

// importRE matches the module specifiers of a JavaScript file's static
// imports and re-exports (import … from "x", import "x", export … from "x"),
// each starting a line, and of its dynamic imports (import("x")).
var importRE = regexp.MustCompile(`(?m)^[ \t]*(?:import[ \t]*["']([^"']+)["']|(?:import|export)\b[^"';]*?\bfrom[ \t\r\n]*["']([^"']+)["'])|\bimport\([ \t\r\n]*["']([^"']+)["'][ \t\r\n]*\)`)

// moduleImports returns the relative specifiers ("./x.js") src imports, in
// order.
func moduleImports(src string) []string {
	var out []string
	for _, m := range importRE.FindAllStringSubmatch(src, -1) {
		spec := m[1] + m[2] + m[3]
		if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
			out = append(out, spec)
		}
	}
	return out
}

// moduleGraph reads the page's modules (the .js files at the top of the
// embedded web folder; vendor/ holds the generated markdown-it bundle) and
// returns, for each, the files it imports, as paths in the folder.
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	web, err := fs.Sub(webFiles, "web")
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(web, "*.js")
	if err != nil {
		t.Fatal(err)
	}
	graph := make(map[string][]string, len(names))
	for _, name := range names {
		src, err := fs.ReadFile(web, name)
		if err != nil {
			t.Fatal(err)
		}
		var deps []string
		for _, spec := range moduleImports(string(src)) {
			dep := path.Join(path.Dir(name), spec)
			if _, err := fs.Stat(web, dep); err != nil {
				t.Errorf("%s imports %q: no such file in the embedded page (%v)", name, spec, err)
			}
			deps = append(deps, dep)
		}
		graph[name] = deps
	}
	return graph
}

// importCycles returns cycles of graph, each as the path of modules that
// leads from one back to itself ("a.js → b.js → a.js"): one for each import
// that a depth-first walk (in name order) finds pointing back up its own
// path. The list is empty exactly when the graph has no cycle.
func importCycles(graph map[string][]string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := make(map[string]int, len(graph))
	var stack []string
	var cycles []string
	var visit func(string)
	visit = func(n string) {
		state[n] = onPath
		stack = append(stack, n)
		for _, d := range graph[n] {
			switch state[d] {
			case unseen:
				visit(d)
			case onPath:
				at := slices.Index(stack, d)
				cycles = append(cycles, strings.Join(append(slices.Clone(stack[at:]), d), " → "))
			}
		}
		stack = stack[:len(stack)-1]
		state[n] = done
	}
	names := make([]string, 0, len(graph))
	for n := range graph {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if state[n] == unseen {
			visit(n)
		}
	}
	return cycles
}

func TestWebModulesHaveNoImportCycle(t *testing.T) {
	graph := moduleGraph(t)
	if len(graph) < 20 {
		t.Fatalf("found %d modules in the embedded page; expected the page's modules (app.js and its imports)", len(graph))
	}
	for _, c := range importCycles(graph) {
		t.Errorf("import cycle among the page's modules: %s", c)
	}
}

// TestWebStateImportsNothing: state.js and events.js are the page's shared
// ground, so they import no module, and every panel may import them.
func TestWebStateImportsNothing(t *testing.T) {
	graph := moduleGraph(t)
	for _, name := range []string{"state.js", "events.js"} {
		deps, ok := graph[name]
		if !ok {
			t.Errorf("%s is missing from the embedded page", name)
		}
		if len(deps) > 0 {
			t.Errorf("%s imports %v; it must import nothing", name, deps)
		}
	}
}

// TestWebAppImportsEveryPanel: app.js wires the page, so every module is
// reachable from it (a module nothing imports would not load).
func TestWebAppImportsEveryPanel(t *testing.T) {
	graph := moduleGraph(t)
	seen := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, d := range graph[n] {
			walk(d)
		}
	}
	walk("app.js")
	for n := range graph {
		if !seen[n] {
			t.Errorf("%s is not imported by app.js or any module it imports", n)
		}
	}
}

func TestModuleImports(t *testing.T) {
	src := `// a comment that says import { x } from "./not.js" is not an import
import { $, h } from "./dom.js";
import MarkdownIt from "./vendor/markdown-it.js";
import * as all from './state.js';
import {
  a,
  b as c,
} from "./multi.js";
import "./side.js";
export { on } from "./events.js";
export * from "./star.js";
export function f() { return import("./lazy.js"); }
export const notAnImport = "./constant.js";
const s = "import { y } from './string.js'";
import { ext } from "https://example.com/x.js";
`
	got := moduleImports(src)
	want := []string{"./dom.js", "./vendor/markdown-it.js", "./state.js", "./multi.js", "./side.js", "./events.js", "./star.js", "./lazy.js"}
	if !slices.Equal(got, want) {
		t.Errorf("moduleImports:\n got %q\nwant %q", got, want)
	}
}

func TestImportCycles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		graph map[string][]string
		want  []string
	}{
		{"none", map[string][]string{"a.js": {"b.js", "c.js"}, "b.js": {"c.js"}, "c.js": nil}, nil},
		{"self", map[string][]string{"a.js": {"a.js"}}, []string{"a.js → a.js"}},
		{"two", map[string][]string{"a.js": {"b.js"}, "b.js": {"a.js"}}, []string{"a.js → b.js → a.js"}},
		{
			"through shared state",
			map[string][]string{
				"app.js":          {"conversation.js", "compaction.js"},
				"conversation.js": {"compaction.js", "dom.js"},
				"compaction.js":   {"range.js", "dom.js"},
				"range.js":        {"conversation.js"},
				"dom.js":          nil,
			},
			[]string{"conversation.js → compaction.js → range.js → conversation.js"},
		},
		{
			"two cycles",
			map[string][]string{"a.js": {"b.js", "c.js"}, "b.js": {"a.js"}, "c.js": {"d.js"}, "d.js": {"c.js"}},
			[]string{"a.js → b.js → a.js", "c.js → d.js → c.js"},
		},
	} {
		if got := importCycles(tc.graph); !slices.Equal(got, tc.want) {
			t.Errorf("%s: importCycles = %q, want %q", tc.name, got, tc.want)
		}
	}
}
