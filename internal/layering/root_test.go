package layering

import (
	"go/ast"
	"go/token"
	"slices"
	"testing"
)

// TestRootHoldsVocabulary measures the root package by the kinds of code it
// holds, not by its lines (issue 41 §2): types, constants, validation and
// the reference codec, and the ports' interfaces. Its non-test files hold
// no goroutine and no channel (concurrency is a workflow's: service), use
// package context only in the ports' method signatures (no function takes
// or makes a context: whatever waits on the world is a workflow's), and
// call no method of a port (the store's, the LLM's, a compaction type's
// Reply: the service calls them). Which packages it imports is
// TestPackageLayering's and the root's TestCoreDependencies.
func TestRootHoldsVocabulary(t *testing.T) {
	fset := token.NewFileSet()
	files := parse(t, fset, list(t)["kompact"], 0)
	ports := portMethods(files)
	for _, m := range []string{"Complete", "GetSession", "CommitCompaction", "SwapGatewayRecord", "Reply"} {
		if !slices.Contains(ports, m) {
			t.Fatalf("the ports' methods found are %v; %s should be one", ports, m)
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			why := ""
			switch n := n.(type) {
			case *ast.InterfaceType:
				return false // a port's method set: its signatures name context
			case *ast.GoStmt:
				why = "starts a goroutine"
			case *ast.ChanType, *ast.SendStmt, *ast.SelectStmt:
				why = "uses a channel"
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					why = "receives from a channel"
				}
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "context" {
					why = "uses context." + n.Sel.Name + " outside a port's method set"
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && slices.Contains(ports, sel.Sel.Name) {
					why = "calls " + sel.Sel.Name + ", a port's method"
				}
			}
			if why != "" {
				t.Errorf("%s: the root %s; the root holds the vocabulary and the ports (types, constants, validation, the reference codec): move the workflow to service, the engine to its type's package (docs/architecture.md)", fset.Position(n.Pos()), why)
			}
			return true
		})
	}
}

// portMethods are the names of the methods of the root's interfaces whose
// first parameter is a context.Context: the store's, the LLM's, a
// compaction type's Reply.
func portMethods(files map[string]*ast.File) []string {
	var names []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			it, ok := n.(*ast.InterfaceType)
			if !ok {
				return true
			}
			for _, m := range it.Methods.List {
				ft, ok := m.Type.(*ast.FuncType)
				if !ok || len(ft.Params.List) == 0 {
					continue
				}
				if sel, ok := ft.Params.List[0].Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
					for _, name := range m.Names {
						names = append(names, name.Name)
					}
				}
			}
			return false
		})
	}
	slices.Sort(names)
	return slices.Compact(names)
}
