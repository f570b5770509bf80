// Package gosrc finds the module's Go source directories, the one walk of
// the checks that read the sources themselves: scripts/lanes (which test
// runs in which line of make test) and internal/i18n's catalogue tests
// (every key given to i18n.T has its Turkish).
package gosrc

import (
	"go/ast"
	"io/fs"
	"path/filepath"
	"strings"
)

// Dirs returns root and the directories below it that hold Go files, in
// lexical order. It skips, below root, hidden directories (.git, .ci),
// testdata (data, not the module's code) and bin (a build's output).
func Dirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		n := d.Name()
		if path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "bin") {
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(path, "*.go")); len(m) > 0 {
			dirs = append(dirs, path)
		}
		return nil
	})
	return dirs, err
}

// PkgCall reports whether n is a call of the form X.Name(...), X an
// identifier (a package's name in the file, or a variable: the caller
// knows which), and returns X, Name and the call.
func PkgCall(n ast.Node) (x, name string, call *ast.CallExpr, ok bool) {
	call, ok = n.(*ast.CallExpr)
	if !ok {
		return "", "", nil, false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", "", nil, false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", "", nil, false
	}
	return id.Name, sel.Sel.Name, call, true
}
