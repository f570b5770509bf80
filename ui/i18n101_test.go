package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
)

// classicKeys are the strings the 101 table shares with the classic one:
// their Turkish is in the classic table's part of the catalogue.
var classicKeys = map[string]bool{
	"%d pts":                                 true,
	"%q does nothing here: ? lists the keys": true,
	"%s to play":                             true,
	", okey ":                                true,
	"any key":                                true,
	"arrows":                                 true,
	"close":                                  true,
	"continue":                               true,
	"deal":                                   true,
	"dealer %s: the tiles are being shuffled and dealt": true,
	"deals":                                 true,
	"discard ":                              true,
	"discard":                               true,
	"discards ":                             true,
	"draw":                                  true,
	"help":                                  true,
	"hint":                                  true,
	"it is not your turn: %s plays":         true,
	"leave (asks first during a match)":     true,
	"leave":                                 true,
	"mouse":                                 true,
	"move":                                  true,
	"no tiles to sort yet":                  true,
	"nothing to undo":                       true,
	"put the cursor on the tile to discard": true,
	"quit":                                  true,
	"rack move undone":                      true,
	"runs":                                  true,
	"scoring":                               true,
	"sets":                                  true,
	"sorted by runs":                        true,
	"sorted by sets":                        true,
	"space":                                 true,
	"start":                                 true,
	"starts":                                true,
	"stay":                                  true,
	"take ":                                 true,
	"take":                                  true,
	"takes ":                                true,
	"that tile is not on your rack":         true,
	"that tile is not open to you yet":      true,
	"the match is over":                     true,
	"undo the last rack move or sort":       true,
	"undo":                                  true,
	"wait until all your tiles are open":    true,
	"wait: the table is still working on the last move": true,
	"you": true,
}

// TestTurkish101: every string the 101 table shows (i18n.T and i18n.Mark in ui/*101*.go and ui/tablemodel/*101*.go)
// has its Turkish text, except the ones it shares with the classic table.
func TestTurkish101(t *testing.T) {
	files, _ := filepath.Glob("*101*.go")
	// The 101 model's files (tablemodel) hold its moves' and hints' words.
	model, _ := filepath.Glob(filepath.Join("tablemodel", "*101*.go"))
	files = append(files, model...)
	tr, en := i18n.Printer(i18n.Turkish), i18n.Printer(i18n.English)
	n := 0
	for _, f := range files {
		fs := token.NewFileSet()
		file, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "T" && sel.Sel.Name != "Mark" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "i18n" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				t.Errorf("%s: i18n.T with a key that is no string literal", fs.Position(call.Pos()))
				return true
			}
			key, _ := strconv.Unquote(lit.Value)
			n++
			if !classicKeys[key] && tr.Sprintf(key) == en.Sprintf(key) {
				t.Errorf("%s: no Turkish for %q", fs.Position(call.Pos()), key)
			}
			return true
		})
	}
	if n < 100 {
		t.Fatalf("only %d keys found in the 101 files", n)
	}
}
