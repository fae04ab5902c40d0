package httpapi_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTTPAPICallsNoStore keeps httpapi a transport over the service: every
// store read and write of a route goes through service.Sessions, so no
// non-test file calls a method on the store (a selector chain ending in
// .Store.M( but the health ping (Ping), outside the metrics decorator's
// own methods (receiver measuredStore); the health check's write check is
// a role of its own (Server.writes, CheckWrite).
func TestHTTPAPICallsNoStore(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && decorates(fn) {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				m, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := m.X.(*ast.SelectorExpr); ok && x.Sel.Name == "Store" && m.Sel.Name != "Ping" {
					t.Errorf("%s: httpapi calls the store's %s itself; call service.Sessions", fset.Position(call.Pos()), m.Sel.Name)
				}
				return true
			})
		}
	}
	if checked == 0 {
		t.Fatal("no non-test Go file in httpapi")
	}
}

// decorates says whether fn is a method of the metrics decorator
// (measuredStore), which calls the store it wraps.
func decorates(fn *ast.FuncDecl) bool {
	if fn.Recv == nil || len(fn.Recv.List) != 1 {
		return false
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.Name == "measuredStore"
}
