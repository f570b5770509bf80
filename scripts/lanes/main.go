// Command lanes lists the tests of make test's no-race line and checks that
// every test runs in exactly one of its two lines (see internal/lane).
//
//	go run ./scripts/lanes          # prints: -run ^(TestA|TestB)$ ./pkg1 ./pkg2
//	go run ./scripts/lanes -list    # one package and test a line
//	go run ./scripts/lanes -check   # only the checks
//	go run ./scripts/lanes -first './pkg2 ./pkg1'   # these packages first, in this order
//
// The first line runs every package under the race detector; a test that
// calls lane.NoRace(t) as its first statement skips there and is listed
// here for the second line. A test that skips itself under the race
// detector any other way would run in neither line: lanes fails on it, as on
// a NoRace test whose name is also a first-line test's name in another
// listed package (the -run pattern would take both).
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/okey-game/okey/internal/gosrc"
)

const (
	module   = "github.com/okey-game/okey"
	lanePath = module + "/internal/lane"
)

// raceNames are the identifiers that say "the race detector is on".
var raceNames = map[string]bool{"raceEnabled": true, "raceOn": true, "raceDetector": true, "Race": true}

type test struct {
	pkg, name, pos string
	noRace         bool
}

func main() {
	list := flag.Bool("list", false, "print each no-race test as PACKAGE TEST")
	check := flag.Bool("check", false, "only check the lanes")
	root := flag.String("root", ".", "the module's root")
	first := flag.String("first", "", "no-race packages to list first, in this order (space-separated): go test starts packages in the order given")
	flag.Parse()
	tests, problems := scan(*root)
	problems = append(problems, collisions(tests)...)
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "lanes:", p)
		}
		os.Exit(1)
	}
	var pkgs, names []string
	seenPkg, seenName := map[string]bool{}, map[string]bool{}
	for _, t := range tests {
		if !t.noRace {
			continue
		}
		if *list {
			fmt.Println(t.pkg, t.name)
		}
		if !seenPkg[t.pkg] {
			seenPkg[t.pkg] = true
			pkgs = append(pkgs, t.pkg)
		}
		if !seenName[t.name] {
			seenName[t.name] = true
			names = append(names, t.name)
		}
	}
	pkgs, err := ordered(pkgs, strings.Fields(*first))
	if err != nil {
		fmt.Fprintln(os.Stderr, "lanes:", err)
		os.Exit(1)
	}
	if *list || *check {
		return
	}
	if len(names) == 0 {
		fmt.Fprintln(os.Stderr, "lanes: no test calls lane.NoRace")
		os.Exit(1)
	}
	sort.Strings(names)
	fmt.Printf("-run ^(%s)$ %s\n", strings.Join(names, "|"), strings.Join(pkgs, " "))
}

// ordered puts first's packages at the head of pkgs, in first's order, the
// others after them in pkgs' order. go test starts a line's packages in the
// order it is given them, as many at a time as it has cores: make test names
// each line's longest packages first, so that none starts last and lengthens
// the line. A package of first that pkgs lacks is an error: a package moved,
// renamed or without no-race tests any more would drop out of the order
// unseen.
func ordered(pkgs, first []string) ([]string, error) {
	out := make([]string, 0, len(pkgs))
	taken := map[string]bool{}
	for _, p := range first {
		if !slices.Contains(pkgs, p) {
			return nil, fmt.Errorf("-first names %s, which has no no-race test", p)
		}
		if !taken[p] {
			taken[p] = true
			out = append(out, p)
		}
	}
	for _, p := range pkgs {
		if !taken[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// scan parses every _test.go file of root's Go source directories
// (gosrc.Dirs, as internal/i18n's tests walk them) and returns its tests, in
// package then name order, with what is wrong with them.
func scan(root string) ([]test, []string) {
	var tests []test
	var problems []string
	fset := token.NewFileSet()
	dirs, err := gosrc.Dirs(root)
	if err != nil {
		problems = append(problems, err.Error())
	}
	var files []string
	for _, dir := range dirs {
		m, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		files = append(files, m...)
	}
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		pkg := "./" + filepath.ToSlash(rel)
		if rel == "." {
			pkg = "."
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "race") && c.Pos() < f.Package {
					if hasTests(f) {
						problems = append(problems, fmt.Sprintf("%s: tests in a file built only with or without the race detector: call lane.NoRace(t) or lane.RaceOnly(t) first instead", path))
					}
				}
			}
		}
		laneName := importName(f, lanePath)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			pos := fset.Position(fn.Pos()).String()
			if raceSkip(fn.Body) {
				problems = append(problems, fmt.Sprintf("%s: %s skips under the race detector by hand: call lane.NoRace(t) first instead (it would run in neither line)", pos, fn.Name.Name))
			}
			if !isTest(fn) {
				continue
			}
			t := test{pkg: pkg, name: fn.Name.Name, pos: pos}
			for i, st := range fn.Body.List {
				for _, mark := range []string{"NoRace", "RaceOnly"} {
					if laneName == "" || !isCall(st, laneName, mark) {
						continue
					}
					if i != 0 {
						problems = append(problems, fmt.Sprintf("%s: %s calls lane.%s after other statements: call it first", pos, t.name, mark))
					}
					t.noRace = mark == "NoRace"
				}
			}
			tests = append(tests, t)
		}
	}
	sort.Slice(tests, func(i, j int) bool {
		if tests[i].pkg != tests[j].pkg {
			return tests[i].pkg < tests[j].pkg
		}
		return tests[i].name < tests[j].name
	})
	return tests, problems
}

// collisions: the second line's -run pattern names tests, not packages, so a
// no-race test's name must not be a first-line test's name in another package
// of that line.
func collisions(tests []test) []string {
	noRacePkgs := map[string]bool{}
	noRaceNames := map[string]bool{}
	for _, t := range tests {
		if t.noRace {
			noRacePkgs[t.pkg], noRaceNames[t.name] = true, true
		}
	}
	var out []string
	for _, t := range tests {
		if !t.noRace && noRacePkgs[t.pkg] && noRaceNames[t.name] {
			out = append(out, fmt.Sprintf("%s: %s shares its name with a no-race test of another package: rename one", t.pos, t.name))
		}
	}
	return out
}

func hasTests(f *ast.File) bool {
	for _, decl := range f.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && isTest(fn) {
			return true
		}
	}
	return false
}

func isTest(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if !strings.HasPrefix(name, "Test") || name == "TestMain" {
		return false
	}
	ps := fn.Type.Params.List
	if len(ps) != 1 {
		return false
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// importName is the name the file uses for path, or "" when it does not
// import it.
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil || p != path {
			continue
		}
		if im.Name != nil {
			return im.Name.Name
		}
		return p[strings.LastIndex(p, "/")+1:]
	}
	return ""
}

func isCall(st ast.Stmt, x, sel string) bool {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return false
	}
	px, name, _, ok := gosrc.PkgCall(es.X)
	return ok && px == x && name == sel
}

// raceSkip reports whether body holds an if statement whose condition reads
// a race-detector constant and whose branch skips the test.
func raceSkip(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		if mentionsRace(ifs.Cond) && skips(ifs.Body) {
			found = true
		}
		return true
	})
	return found
}

func mentionsRace(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if raceNames[x.Name] {
				found = true
			}
		case *ast.SelectorExpr:
			if raceNames[x.Sel.Name] {
				found = true
			}
			return false
		}
		return !found
	})
	return found
}

func skips(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if s, ok := call.Fun.(*ast.SelectorExpr); ok && strings.HasPrefix(s.Sel.Name, "Skip") {
				found = true
			}
		}
		return !found
	})
	return found
}
