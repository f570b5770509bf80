package tablemodel

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneWayToSend: a move reaches the seat's peer one way only, through
// Table.Send and Table.Send101, which try it on a copy of the engine state
// first: answer (the only send on a request's channel) is called from
// those two alone, and no other code of the model or of the terminal front
// end sends on a request's Reply.
func TestOneWayToSend(t *testing.T) {
	var files []string
	for _, dir := range []string{".", ".."} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no Go files in %s: %v", dir, err)
		}
		files = append(files, fs...)
	}
	callers := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "answer" && filepath.Dir(name) == "." {
						callers[fn.Name.Name] = true
					}
				case *ast.SendStmt:
					if sel, ok := x.Chan.(*ast.SelectorExpr); ok && sel.Sel.Name == "Reply" &&
						(filepath.Dir(name) != "." || fn.Name.Name != "answer") {
						t.Errorf("%s: %s sends a move on a request's channel", fset.Position(x.Pos()), fn.Name.Name)
					}
				}
				return true
			})
		}
	}
	if len(callers) != 2 || !callers["Send"] || !callers["Send101"] {
		t.Errorf("answer is called from %v, want Send and Send101 only", callers)
	}
}
