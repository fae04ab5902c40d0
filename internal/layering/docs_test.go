package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The docs tests hold the prose to the code (issue 41 §7), as
// TestArchitectureMap holds the graph's table: every file README.md and
// docs/*.md name in a code span exists, and every kompact.<Name> the docs or
// a Go comment give is one of the root package's.

// notFiles are code spans of the docs that look like kompact's files and are
// not, each with why: the test names them so that a new one is a decision.
var notFiles = map[string]string{
	// docs/architecture.md, "Adding a compaction type": the files of a new
	// type, which the section says are new.
	"prune/":          "a new compaction type's folder (docs/architecture.md, Adding a compaction type)",
	"prune/type.go":   "a new compaction type's file (docs/architecture.md, Adding a compaction type)",
	"prune/*_test.go": "a new compaction type's tests (docs/architecture.md, Adding a compaction type)",
	"kompact/prune":   "a new compaction type's import path (docs/architecture.md, Adding a compaction type)",
	// docs/fidelity.md: paths an artifact scan finds in a session, a user's
	// files, not kompact's.
	"cmd/server/main.go":   "an artifact path in a session (docs/fidelity.md)",
	"./cmd/server/main.go": "an artifact path in a session (docs/fidelity.md)",
}

// repoRoot is the module's folder, from go list.
func repoRoot(t *testing.T) string {
	t.Helper()
	root := list(t)["kompact"].Dir
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the root package's folder %s has no go.mod: %v", root, err)
	}
	return root
}

// docFiles are README.md and docs/*.md, relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md under %s (%v)", root, err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(d, root+string(filepath.Separator))))
	}
	return files
}

// codeSpans yields each code span of a Markdown text outside its fenced
// blocks, with the line it starts on.
func codeSpans(text string, yield func(line int, span string)) {
	span := regexp.MustCompile("`([^`\n]+)`")
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range span.FindAllStringSubmatch(line, -1) {
			yield(i+1, m[1])
		}
	}
}

// repoFiles are the module's files, slash-separated and relative to root
// (.git and node_modules left out).
func repoFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// goIdent is a path's last segment that is a Go identifier of a package
// (internal/llmclient.Settings), not a file.
var goIdent = regexp.MustCompile(`^[a-z][a-z0-9_]*\.[A-Z]\w*(\.\w+)?$`)

// fileClaim says which of kompact's files, if any, a code span names, and
// how to find it: "path" (that path from the root: a file, a folder, a
// glob), "dir" (a folder: a Go identifier's package, an import path) or
// "anywhere" (a bare file name of a package the sentence is about: some
// folder holds it). It names none when it is not one of kompact's
// (a URL, a route, a media type, ../shared, a user's file).
func fileClaim(span string, top map[string]bool) (kind, path string) {
	if strings.ContainsAny(span, " \t<>{}$:?=@,;()") || strings.Contains(span, "//") || strings.HasPrefix(span, "..") {
		return "", ""
	}
	if rest, ok := strings.CutPrefix(span, "kompact/"); ok {
		if rest == "" {
			return "", ""
		}
		return "dir", rest
	}
	first, rest, slash := strings.Cut(strings.TrimPrefix(span, "./"), "/")
	if slash && top[first] {
		p := first + "/" + rest
		if i := strings.LastIndex(p, "/"); goIdent.MatchString(p[i+1:]) {
			pkg, _, _ := strings.Cut(p[i+1:], ".")
			return "dir", p[:i+1] + pkg
		}
		return "path", strings.TrimSuffix(p, "/")
	}
	if ext := filepath.Ext(span); ext == ".go" || ext == ".js" {
		return "anywhere", span
	}
	return "", ""
}

// TestDocsNameFilesThatExist holds every file README.md and docs/*.md give
// in a code span to the tree (issue 41 §7): a path from the root
// (`service/job.go`, `internal/testing/storetest`, `httpapi/web/*.js`) exists at
// that path, an import path (`kompact/kimi`) or a Go identifier's package
// (`internal/llmclient.Router`) is a folder, and a bare Go or JavaScript
// file name (`prepare.go`, beside the package it is about) is some
// folder's. In docs/architecture.md's table of packages ("| package |
// holds |"), a row's bare file names are its own package's files. Spans
// that look like kompact's files and are not are listed in notFiles.
func TestDocsNameFilesThatExist(t *testing.T) {
	root := repoRoot(t)
	files := repoFiles(t, root)
	top := map[string]bool{}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		top[e.Name()] = true
	}
	exists := func(p string) bool {
		if strings.ContainsAny(p, "*[") {
			m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
			return len(m) > 0
		}
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return err == nil
	}
	checked := 0
	for _, doc := range docFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		codeSpans(string(data), func(line int, span string) {
			kind, p := fileClaim(span, top)
			if kind == "" {
				return
			}
			if past[doc+" "+span] != "" {
				return
			}
			if _, ok := notFiles[span]; ok {
				if kind == "path" && exists(p) || kind == "dir" && exists(p) {
					t.Errorf("%s:%d: `%s` is listed in notFiles but exists now: take it out of notFiles", doc, line, span)
				}
				return
			}
			checked++
			switch kind {
			case "path", "dir":
				if !exists(p) {
					t.Errorf("%s:%d: `%s` names %s, which does not exist: name the file that holds it now (or, for a file the text means to be new, say so and add it to notFiles in internal/layering/docs_test.go)", doc, line, span, p)
				}
			case "anywhere":
				if !slices.ContainsFunc(files, func(f string) bool { return f == p || strings.HasSuffix(f, "/"+p) || matchBase(f, p) }) {
					t.Errorf("%s:%d: `%s` is no file of the module: name the file that holds it now, with its folder (`service/job.go`)", doc, line, span)
				}
			}
		})
	}
	if checked < 100 {
		t.Fatalf("checked %d file names in the docs; the docs name hundreds: is codeSpans or fileClaim broken?", checked)
	}
	checkPackageTable(t, root)
}

// matchBase says whether file f's base name matches the glob pattern p
// (`sessions_gateway*.go`).
func matchBase(f, p string) bool {
	if !strings.ContainsAny(p, "*[") {
		return false
	}
	ok, _ := filepath.Match(p, filepath.Base(f))
	return ok
}

// checkPackageTable holds docs/architecture.md's table of packages ("|
// package | holds |") to the packages' folders: a bare file name in a
// row is a file of that row's package (the root's for `kompact`).
func checkPackageTable(t *testing.T, root string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "| package | holds |\n| --- | --- |\n")
	if !ok {
		t.Fatal("docs/architecture.md has no table headed | package | holds |")
	}
	quoted := regexp.MustCompile("`([^`]+)`")
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 4 {
			break
		}
		rows++
		pkgs := quoted.FindAllStringSubmatch(cells[1], -1)
		if len(pkgs) != 1 {
			continue // a row of several packages names its files with their folders
		}
		dir := pkgs[0][1]
		if dir == "kompact" {
			dir = "."
		}
		for _, m := range quoted.FindAllStringSubmatch(cells[2], -1) {
			name := m[1]
			if strings.Contains(name, "/") || (filepath.Ext(name) != ".go" && filepath.Ext(name) != ".js") {
				continue
			}
			matches, _ := filepath.Glob(filepath.Join(root, dir, name))
			if len(matches) == 0 {
				t.Errorf("docs/architecture.md's table of packages: the row of %s names `%s`, which is not in %s/: name the file that holds it now (with its folder if it is another package's)", pkgs[0][1], name, dir)
			}
		}
	}
	if rows < 20 {
		t.Fatalf("docs/architecture.md's table of packages has %d rows; is it still headed | package | holds |?", rows)
	}
}

// rootNames are the root package's exported names (its non-test files'),
// and for each of its types the exported fields and methods it has,
// promoted ones included.
func rootNames(t *testing.T) (names map[string]bool, members map[string]map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	files := parse(t, fset, list(t)["kompact"], parser.SkipObjectResolution)
	names = map[string]bool{}
	own := map[string]map[string]bool{}
	embeds := map[string][]string{}
	add := func(typ, name string) {
		if own[typ] == nil {
			own[typ] = map[string]bool{}
		}
		if ast.IsExported(name) {
			own[typ][name] = true
		}
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = ast.IsExported(d.Name.Name)
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				if ix, ok := recv.(*ast.IndexExpr); ok {
					recv = ix.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					add(id.Name, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = ast.IsExported(s.Name.Name)
						add(s.Name.Name, "")
						var fields *ast.FieldList
						switch ty := s.Type.(type) {
						case *ast.StructType:
							fields = ty.Fields
						case *ast.InterfaceType:
							fields = ty.Methods
						}
						if fields == nil {
							continue
						}
						for _, field := range fields.List {
							for _, n := range field.Names {
								add(s.Name.Name, n.Name)
							}
							if len(field.Names) == 0 {
								ty := field.Type
								if st, ok := ty.(*ast.StarExpr); ok {
									ty = st.X
								}
								if id, ok := ty.(*ast.Ident); ok {
									add(s.Name.Name, id.Name)
									embeds[s.Name.Name] = append(embeds[s.Name.Name], id.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = ast.IsExported(n.Name)
						}
					}
				}
			}
		}
	}
	members = map[string]map[string]bool{}
	var collect func(typ string, into map[string]bool, depth int)
	collect = func(typ string, into map[string]bool, depth int) {
		if depth > 8 {
			return
		}
		for m := range own[typ] {
			into[m] = true
		}
		for _, e := range embeds[typ] {
			collect(e, into, depth+1)
		}
	}
	for typ := range own {
		members[typ] = map[string]bool{}
		collect(typ, members[typ], 0)
	}
	for n, exported := range names {
		if !exported {
			delete(names, n)
		}
	}
	if !names["Session"] || !names["Store"] || !members["Store"]["GetSession"] || !members["Session"]["AppendJSON"] {
		t.Fatalf("the root's exported names, as parsed, miss Session, Store, Store.GetSession or Session.AppendJSON: is rootNames broken?")
	}
	return names, members
}

// rootRef is kompact.<Name>, and kompact.<Type>.<Member>, in prose.
var rootRef = regexp.MustCompile(`(^|[^\w./-])kompact\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)

// TestDocsNameRootNamesThatExist holds every kompact.<Name> that README.md,
// docs/*.md and the module's Go comments give to the root package (issue 41
// §7): Name is one of the root's exported names (its non-test files', read
// with go/parser), and in kompact.<Type>.<Member>, Member is one of the type's
// exported fields or methods. A name that left the root is named where it
// lives now (service.X, kimi.X).
func TestDocsNameRootNamesThatExist(t *testing.T) {
	root := repoRoot(t)
	names, members := rootNames(t)
	elsewhere := exportedElsewhere(t)
	checked := 0
	check := func(where, text string) {
		for _, m := range rootRef.FindAllStringSubmatch(text, -1) {
			checked++
			name, member := m[2], m[3]
			switch {
			case past[where[:strings.LastIndex(where, ":")]+" kompact."+name] != "":
			case !names[name]:
				now := "name it by what it is called now"
				if pkgs := elsewhere[name]; len(pkgs) > 0 {
					now = "it is " + strings.Join(pkgs, " or ") + " now"
				}
				t.Errorf("%s: kompact.%s is not one of the root package's names: %s", where, name, now)
			case member != "" && members[name] != nil && !members[name][member]:
				t.Errorf("%s: kompact.%s.%s: %[2]s has no exported field or method %[3]s: name the one it has now", where, name, member)
			}
		}
	}
	for _, doc := range docFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			check(doc+":"+strconv.Itoa(i+1), line)
		}
	}
	fset := token.NewFileSet()
	for _, file := range repoFiles(t, root) {
		if !strings.HasSuffix(file, ".go") || strings.Contains(file, "testdata/") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, file), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, group := range f.Comments {
			for _, c := range group.List {
				pos := fset.Position(c.Pos())
				for i, line := range strings.Split(c.Text, "\n") {
					check(file+":"+strconv.Itoa(pos.Line+i), line)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d kompact names; the docs and comments give hundreds: is rootRef broken?", checked)
	}
}

// past are the docs' records of what a name or a file was when they were
// written (docs/benchmarks.md's log of measurements), which the text says
// has moved since: "doc kompact.<Name>" or "doc file", and why.
var past = map[string]string{
	"docs/benchmarks.md kompact.Verified": "issue 11's record: the name before issue 18 moved it to sessionjson, which the text says",
	"docs/benchmarks.md message_fast.go":  "issue 11's record: the root's file before issue 18 moved the decoder to sessionjson, which the text says",
	"docs/benchmarks.md message_scan.go":  "issue 11's record: the root's file before issue 18 moved the decoder to sessionjson, which the text says",
}

// exportedElsewhere maps each exported top-level name of the module's
// other packages (non-test files) to the packages that declare it, as
// pkg.Name (service.Sessions).
func exportedElsewhere(t *testing.T) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	where := map[string][]string{}
	pkgs := list(t)
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		if name == "kompact" {
			continue
		}
		for _, f := range parse(t, fset, pkgs[name], parser.SkipObjectResolution) {
			for _, decl := range f.Decls {
				var ids []*ast.Ident
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						ids = append(ids, d.Name)
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							ids = append(ids, s.Name)
						case *ast.ValueSpec:
							ids = append(ids, s.Names...)
						}
					}
				}
				for _, id := range ids {
					q := filepath.Base(name) + "." + id.Name
					if id.IsExported() && !slices.Contains(where[id.Name], q) {
						where[id.Name] = append(where[id.Name], q)
					}
				}
			}
		}
	}
	return where
}

// TestDocsDiagramsNameCodeThatExists holds the sequence diagrams of the
// docs (```mermaid blocks: docs/architecture.md's gateway turn) to the
// code, as the other docs tests hold the prose: every Go name a diagram
// gives (a word with a capital after its first letter, gatewayFind,
// GatewayTurn; or a qualified one, Job.Run, openai.Upstream) is declared
// in the module's non-test files: a function, type, variable or constant,
// or a method or field of the type (a package's name for a qualified
// one). A renamed function fails here until the diagram follows.
func TestDocsDiagramsNameCodeThatExists(t *testing.T) {
	root := repoRoot(t)
	plain, qualified := declaredNames(t)
	packages := map[string]bool{}
	for name := range list(t) {
		packages[filepath.Base(name)] = true
	}
	word := regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)?`)
	code := func(w string) bool {
		name := w[strings.LastIndex(w, ".")+1:]
		lower, innerUpper := false, false
		for i, r := range name {
			lower = lower || unicode.IsLower(r)
			innerUpper = innerUpper || (i > 0 && unicode.IsUpper(r))
		}
		if left, _, ok := strings.Cut(w, "."); ok {
			return unicode.IsUpper([]rune(left)[0]) || packages[left]
		}
		return lower && innerUpper
	}
	checked := 0
	for _, doc := range docFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		in := false
		for i, line := range strings.Split(string(data), "\n") {
			switch {
			case strings.TrimSpace(line) == "```mermaid":
				in = true
				continue
			case trimmed(line, "```"):
				in = false
			}
			if !in || trimmed(line, "participant") || trimmed(line, "sequenceDiagram") {
				continue
			}
			// The arrows' and notes' keywords are Mermaid's, and a
			// route's or a header's words are not Go.
			line = regexp.MustCompile(`(/[^\s:,()]+|X-[A-Za-z-]+)`).ReplaceAllString(line, "")
			for _, w := range word.FindAllString(line, -1) {
				if !code(w) {
					continue
				}
				checked++
				if strings.Contains(w, ".") && !qualified[w] || !strings.Contains(w, ".") && !plain[w] {
					t.Errorf("%s:%d: the diagram names %s, which no non-test file of the module declares: name the function that does the step now", doc, i+1, w)
				}
			}
		}
	}
	if checked < 40 {
		t.Fatalf("checked %d names in the docs' diagrams; docs/architecture.md's gateway turn gives dozens: is the check broken?", checked)
	}
}

// declaredNames are the names the module's non-test files declare: plain
// (every function, type, variable, constant, method and field) and
// qualified (Type.Method, Type.Field, and pkg.Name for exported ones).
func declaredNames(t *testing.T) (plain, qualified map[string]bool) {
	t.Helper()
	plain, qualified = map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	for name, p := range list(t) {
		pkgName := filepath.Base(name)
		for _, f := range parse(t, fset, p, parser.SkipObjectResolution) {
			top := func(id *ast.Ident) {
				plain[id.Name] = true
				if id.IsExported() {
					qualified[pkgName+"."+id.Name] = true
				}
			}
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						top(d.Name)
						continue
					}
					plain[d.Name.Name] = true
					if recv := receiverName(d.Recv.List[0].Type); recv != "" {
						qualified[recv+"."+d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							top(s.Name)
							var fields *ast.FieldList
							switch ty := s.Type.(type) {
							case *ast.StructType:
								fields = ty.Fields
							case *ast.InterfaceType:
								fields = ty.Methods
							}
							if fields == nil {
								continue
							}
							for _, field := range fields.List {
								for _, n := range field.Names {
									plain[n.Name] = true
									qualified[s.Name.Name+"."+n.Name] = true
								}
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								top(n)
							}
						}
					}
				}
			}
		}
	}
	return plain, qualified
}

// receiverName is the type name of a method's receiver (T for *T, T[K]).
func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// trimmed says whether line, without its leading blanks, starts with
// prefix.
func trimmed(line, prefix string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), prefix)
}

// TestDocsNameCodeWhereItIs holds the docs' "`file.go` (`Name`, …)" to
// the code (docs/architecture.md's tables of workflows and rules write a
// workflow's home so): every Go name in the parentheses after a Go file is
// declared in that file's package (a function, type, variable, constant,
// method or field; Type.Method; the package's own pkg.Name). A bare file
// name (`span.go`) is that of any folder that has it. Names with an
// underscore are another program's (kimi-cli's `should_auto_compact`) and
// are left alone, and so are a test file's parentheses.
func TestDocsNameCodeWhereItIs(t *testing.T) {
	root := repoRoot(t)
	pkgs := list(t)
	byDir := map[string]*pkg{}
	for _, p := range pkgs {
		byDir[p.Dir] = p
	}
	files := repoFiles(t, root)
	decls := map[string]map[string]bool{} // by package folder
	declsOf := func(dir string) map[string]bool {
		if d, ok := decls[dir]; ok {
			return d
		}
		p := byDir[filepath.Join(root, filepath.FromSlash(dir))]
		if p == nil {
			decls[dir] = nil
			return nil
		}
		d := packageDecls(t, p)
		decls[dir] = d
		return d
	}
	home := regexp.MustCompile("`([A-Za-z0-9_./*-]+\\.go)` \\(([^()]*)\\)")
	ident := regexp.MustCompile("`([A-Za-z][A-Za-z0-9]*(\\.[A-Za-z][A-Za-z0-9]*)?)`")
	checked := 0
	for _, doc := range docFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range home.FindAllStringSubmatch(line, -1) {
				if strings.HasSuffix(m[1], "_test.go") {
					continue // a test file's parentheses name its tests and their imports
				}
				var dirs []string
				for _, f := range files {
					if namesFile(m[1], f) {
						if d := filepath.ToSlash(filepath.Dir(f)); !slices.Contains(dirs, d) && declsOf(d) != nil {
							dirs = append(dirs, d)
						}
					}
				}
				if len(dirs) == 0 {
					continue // TestDocsNameFilesThatExist's to report
				}
				for _, id := range ident.FindAllStringSubmatch(m[2], -1) {
					name := id[1]
					checked++
					if !slices.ContainsFunc(dirs, func(d string) bool {
						return declsOf(d)[name] || declsOf(d)[pathBase(d)+"."+name] ||
							strings.HasPrefix(name, pathBase(d)+".") && declsOf(d)[strings.TrimPrefix(name, pathBase(d)+".")]
					}) {
						t.Errorf("%s:%d: `%s` (`%s`): %s declares no %s: name what the file holds now", doc, i+1, m[1], name, strings.Join(dirs, " or "), name)
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d names after the docs' files; docs/architecture.md's tables give dozens: is the check broken?", checked)
	}
}

// pathBase is a package folder's last element, its package's name ("kompact" for the root).
func pathBase(dir string) string {
	if dir == "." {
		return module
	}
	return filepath.Base(dir)
}

// packageDecls are the names package p's non-test files declare: every
// function, type, variable, constant, method and field, and Type.Method
// and Type.Field.
func packageDecls(t *testing.T, p *pkg) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, f := range parse(t, token.NewFileSet(), p, parser.SkipObjectResolution) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch d := n.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
				if d.Recv != nil {
					names[receiverName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
				}
				return false
			case *ast.TypeSpec:
				names[d.Name.Name] = true
				var fields *ast.FieldList
				switch ty := d.Type.(type) {
				case *ast.StructType:
					fields = ty.Fields
				case *ast.InterfaceType:
					fields = ty.Methods
				}
				if fields != nil {
					for _, field := range fields.List {
						for _, n := range field.Names {
							names[n.Name] = true
							names[d.Name.Name+"."+n.Name] = true
						}
					}
				}
			case *ast.ValueSpec:
				for _, n := range d.Names {
					names[n.Name] = true
				}
			}
			return true
		})
	}
	return names
}

// namesFile says whether the docs' pattern (a path from the root, or a
// bare file name of any folder; either may be a glob) names file f.
func namesFile(pattern, f string) bool {
	if !strings.Contains(pattern, "/") {
		f = filepath.Base(f)
	}
	ok, _ := filepath.Match(pattern, f)
	return ok
}

// exampleTests are test names the docs give as examples of a session's
// text (docs/fidelity.md: what the artifact scan finds), not kompact's.
var exampleTests = map[string]bool{"TestApply": true, "TestName": true}

// TestDocsNameTestsThatExist holds the tests the docs name (docs/
// requirements.md's map names the test that proves each requirement) to
// the module's test files: `TestX`, `FuzzX` or `BenchmarkX` is declared in
// some _test.go file, and `pkg: TestX` in one of package pkg's folder.
func TestDocsNameTestsThatExist(t *testing.T) {
	root := repoRoot(t)
	declared := declaredTests(t, root)
	checked := 0
	for _, doc := range docFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range namedTest.FindAllStringSubmatch(line, -1) {
				pkgDir, name := m[1], m[2]
				if exampleTests[name] {
					continue
				}
				checked++
				switch dirs := testDirs(declared[name]); {
				case len(dirs) == 0:
					t.Errorf("%s:%d: `%s` is no test of the module: name the test as it is called now", doc, i+1, name)
				case pkgDir != "" && !slices.Contains(dirs, pkgDir):
					t.Errorf("%s:%d: `%s: %s`: the test is in %s, not %s: name its package as it is now", doc, i+1, pkgDir, name, strings.Join(dirs, ", "), pkgDir)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d test names in the docs; docs/requirements.md gives dozens: is the check broken?", checked)
	}
}

// namedTest is a test the docs name in a code span: `TestX`, or `pkg: TestX` with the folder of
// its package (the root's tests without one).
var namedTest = regexp.MustCompile("`(?:([a-z][a-z/]*): )?((?:Test|Fuzz|Benchmark)[A-Z]\\w*)`")

// testDecl is one declaration of a test function: the folder of its file ("." for the root)
// and the doc comment above it.
type testDecl struct{ dir, doc string }

// declaredTests are the module's Test, Fuzz and Benchmark functions, by name (testdata left
// out).
func declaredTests(t *testing.T, root string) map[string][]testDecl {
	t.Helper()
	declared := map[string][]testDecl{}
	fn := regexp.MustCompile(`(?m)((?:^//.*\n)*)^func ((?:Test|Fuzz|Benchmark)\w*)\(`)
	for _, f := range repoFiles(t, root) {
		if !strings.HasSuffix(f, "_test.go") || strings.Contains(f, "testdata/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fn.FindAllStringSubmatch(string(data), -1) {
			declared[m[2]] = append(declared[m[2]], testDecl{dir: filepath.ToSlash(filepath.Dir(f)), doc: m[1]})
		}
	}
	return declared
}

// testDirs are the folders of decls.
func testDirs(decls []testDecl) []string {
	dirs := make([]string, len(decls))
	for i, d := range decls {
		dirs[i] = d.dir
	}
	return dirs
}

// TestRequirementsNameTestsWhereTheyAre holds docs/requirements.md's test column to the tests
// (issue 41: ~35 tests moved out of the root, and the column still named them as the root's):
// a test named without a package is the root's, one of any other package is named
// `pkg: TestX`; and a test whose name or doc comment names a KCP id stands in that id's row.
func TestRequirementsNameTestsWhereTheyAre(t *testing.T) {
	root := repoRoot(t)
	declared := declaredTests(t, root)
	rows := requirementRows(t, root)
	seen := map[int]bool{} // "KCP-016, 019" is one row of two ids
	for id, row := range rows {
		if seen[row.line] {
			continue
		}
		seen[row.line] = true
		for _, m := range namedTest.FindAllStringSubmatch(row.tests, -1) {
			if dirs := testDirs(declared[m[2]]); m[1] == "" && len(dirs) > 0 && !slices.Contains(dirs, ".") {
				t.Errorf("docs/requirements.md:%d (%s): `%s` is no test of the root but of %s: write `%s: %s`", row.line, id, m[2], strings.Join(dirs, ", "), dirs[0], m[2])
			}
		}
	}
	for name, decls := range declared {
		for _, d := range decls {
			for _, id := range kcpIDs(name, d.doc) {
				checkRowNames(t, rows, id, d.dir, name)
			}
		}
	}
}

// requirementRow is a row of docs/requirements.md's table: its line and its tests column.
type requirementRow struct {
	line  int
	tests string
}

// requirementRows are docs/requirements.md's rows by KCP id: "KCP-016, 019" is the row of
// both, "KCP-D01 (was deferred)" of KCP-D01.
func requirementRows(t *testing.T, root string) map[string]requirementRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "docs", "requirements.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]requirementRow{}
	for i, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| KCP-") || len(cells) < 4 {
			continue
		}
		ids, _, _ := strings.Cut(strings.TrimPrefix(cells[0], "| KCP-"), " (")
		for _, id := range strings.Split(ids, ", ") {
			rows["KCP-"+id] = requirementRow{line: i + 1, tests: cells[len(cells)-1]}
		}
	}
	if len(rows) < 20 {
		t.Fatalf("docs/requirements.md has %d KCP rows; is the table's form changed?", len(rows))
	}
	return rows
}

// kcpIDs are the KCP ids a test's name (TestKCP001…, TestKCPD01…) or doc comment (KCP-011)
// names.
func kcpIDs(name, doc string) []string {
	var ids []string
	for _, m := range regexp.MustCompile(`KCP(D\d\d|\d{3})`).FindAllStringSubmatch(name, -1) {
		ids = append(ids, "KCP-"+m[1])
	}
	for _, m := range regexp.MustCompile(`KCP-(D\d\d|\d{3})`).FindAllStringSubmatch(doc, -1) {
		ids = append(ids, "KCP-"+m[1])
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// checkRowNames checks that the row of id names the test name of folder dir.
func checkRowNames(t *testing.T, rows map[string]requirementRow, id, dir, name string) {
	t.Helper()
	want := "`" + dir + ": " + name + "`"
	if dir == "." {
		want = "`" + name + "`"
	}
	row, ok := rows[id]
	switch {
	case !ok:
		t.Errorf("%s/%s names %s, which has no row in docs/requirements.md: add the row, or name the id the test proves", dir, name, id)
	case !strings.Contains(row.tests, want):
		t.Errorf("docs/requirements.md:%d: the row of %s names no %s, whose name or comment names the id: add it to the row's tests", row.line, id, want)
	}
}
