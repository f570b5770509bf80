package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// shows are the functions and methods of ui/ and cmd/okey whose string
// arguments a person reads: a literal with words given to one of them
// (directly, concatenated, or through fmt.Sprintf) bypasses the catalogue.
var shows = map[string]bool{
	// ui: drawing and messages
	"put": true, "say": true, "refuse": true, "Say": true, "panel": true, "add": true,
	// tablemodel: the message line, and the sentence a move sent reads as
	"Refuse": true, "Send": true, "Send101": true,
	"txt": true, "txtf": true, "Choose": true, "SetLeaveNote": true, "wrap": true, "wrap2": true,
	// tview
	"SetText": true, "SetTitle": true, "SetLabel": true, "AddButton": true, "AddItem": true,
	"SetBorder": true,
	// cmd: what the commands print
	"Fprint": true, "Fprintf": true, "Fprintln": true, "Print": true, "Printf": true, "Println": true,
	"usageErr": true,
}

// lintAllowed are literals with words that are not language: the game's
// notation and names that are the same in every language. Each says why.
var lintAllowed = map[string]string{
	"OKEY":               "a tile's face: the okey drawn on the rack",
	" FJ ":               "tile notation: the false joker",
	"  %s\n":             "a line of tiles in notation",
	"%s\n":               "JSON, already encoded",
	"u ctrl-z":           "key names",
	"x delete":           "key names",
	" · (gösterme)":      "gösterme is the game's own word in both languages",
	"(gösterme)":         "gösterme is the game's own word in both languages",
	" (gösterme)":        "gösterme is the game's own word in both languages",
	", okey ":            "okey is the game's own word in both languages",
	"okey %s, %s\n":      "okey version: program name, version, Go version",
	" okey":              "the title bar: the program's name",
	"okey: %s\n":         "a message already translated, after the program's name",
	"okey: %s: %s\n":     "a file name and a message already translated",
	"okey: bot: %s\n":    "a message already translated",
	"okey: relay: %s\n":  "a message already translated",
	"relay: %s/p2p/%s\n": "okey relay's address lines, read by players and scripts: the same in every language",
	"relay line: %s\n":   "okey relay's line (with its key), read by players and scripts: the same in every language",
	"okey: %s: %s%s\n":   "a file name, a verdict and a note already translated",
}

var wordRE = regexp.MustCompile(`[A-Za-z]{2,}`)
var fmtVerbRE = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

// hasWords reports whether a string literal holds words to translate: not
// only verbs, punctuation, tile notation or the program's name.
func hasWords(s string) bool {
	s = fmtVerbRE.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "okey", "")
	return wordRE.MatchString(s)
}

// TestNoBareStrings: no string literal with words reaches the screen or the
// commands' output without i18n.T (a short allowlist, above, for notation).
func TestNoBareStrings(t *testing.T) {
	var bare []string
	for _, dir := range frontDirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn := ""
				switch x := c.Fun.(type) {
				case *ast.Ident:
					fn = x.Name
				case *ast.SelectorExpr:
					fn = x.Sel.Name
					if id, ok := x.X.(*ast.Ident); ok && id.Name == "i18n" {
						return false // the catalogue's own calls
					}
				}
				if !shows[fn] {
					return true
				}
				for _, a := range c.Args {
					for _, lit := range bareLiterals(a) {
						v, _ := strconv.Unquote(lit.Value)
						if _, ok := lintAllowed[v]; ok || !hasWords(v) {
							continue
						}
						bare = append(bare, fset.Position(lit.Pos()).String()+": "+fn+"("+lit.Value+")")
					}
				}
				return true
			})
		}
	}
	for _, b := range bare {
		t.Errorf("a string for a person bypasses i18n.T: %s", b)
	}
}

// bareLiterals returns the string literals of e that are not inside an i18n
// call: e itself, the parts of a concatenation, fmt.Sprintf's format.
func bareLiterals(e ast.Expr) []*ast.BasicLit {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			return []*ast.BasicLit{x}
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return append(bareLiterals(x.X), bareLiterals(x.Y)...)
		}
	case *ast.ParenExpr:
		return bareLiterals(x.X)
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "fmt" && sel.Sel.Name == "Sprintf" && len(x.Args) > 0 {
				return bareLiterals(x.Args[0])
			}
		}
	}
	return nil
}

func TestHasWords(t *testing.T) {
	for s, want := range map[string]bool{
		"%d tiles": true, "%s: %v": false, "okey: %s\n": false, " · ": false, "R7": false,
		"q quit": true, "the stock": true, "  %s\n": false,
	} {
		if got := hasWords(s); got != want {
			t.Errorf("hasWords(%q) = %v, want %v", s, got, want)
		}
	}
}
