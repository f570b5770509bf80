package okey

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the module's path; the tests run at its root.
const module = "github.com/okey-game/okey"

// cryptoDeps are the third-party modules the cryptography is built on, and
// golang.org/x/sys/cpu, which says whether the processor has the
// instructions crypto/group's eight-lane field arithmetic uses (as
// golang.org/x/crypto's own assembly asks it).
var cryptoDeps = []string{"github.com/gtank/ristretto255", "filippo.io/edwards25519", "golang.org/x/crypto", "golang.org/x/sys/cpu"}

// TestLayers keeps the architecture's dependency rules (ARCHITECTURE.md,
// README "Layout"), counting every import a package reaches through the
// module's own packages (test files aside):
//   - engine imports only the standard library; crypto/... only the standard
//     library, crypto/... and the modules the cryptography is built on;
//   - ui and table never reach p2p;
//   - a package under internal/ reaches nothing of the module outside
//     internal/ (leaves only: the protocol is above them);
//   - rating imports only the standard library, and stats only the
//     standard library and rating: a player's record is pure arithmetic on
//     verified matches, below everything that verifies them;
//   - p2p/relay, the relay service any host can run, reaches nothing of
//     the module but the wire helpers it shares with the node
//     (p2p/internal/wire);
//   - the node (p2p) knows none of the services built on it: it reaches
//     neither p2p/lobby nor p2p/tournament;
//   - only the front ends' wiring (cmd/okey) imports both a front end (ui)
//     and the network play package (netplay): neither reaches the other;
//   - the test helpers (testHelpers: the browser tests' Chromium) are for
//     _test.go files alone: no package reaches them.
func TestLayers(t *testing.T) {
	imports := moduleImports(t, ".")
	if len(imports[module+"/engine"]) == 0 || len(imports[module+"/ui"]) == 0 {
		t.Fatalf("found %d packages, no engine or ui: is the walk broken?", len(imports))
	}
	for _, v := range layerViolations(imports) {
		t.Error(v)
	}
}

// testHelpers are packages for _test.go files alone.
var testHelpers = []string{module + "/internal/browsertest"}

// TestLayersCanFail: the rules name a forbidden import, direct or reached
// through another package.
func TestLayersCanFail(t *testing.T) {
	imports := map[string][]string{
		module + "/engine":            {"fmt", module + "/internal/i18n"},
		module + "/crypto/group":      {"github.com/gtank/ristretto255", "golang.org/x/crypto/sha3", "example.com/x"},
		module + "/ui":                {module + "/netplay"},
		module + "/netplay":           {module + "/p2p"},
		module + "/p2p":               {module + "/p2p/lobby"},
		module + "/p2p/lobby":         {},
		module + "/p2p/relay":         {module + "/p2p/internal/wire", module + "/p2p/invite"},
		module + "/p2p/internal/wire": {},
		module + "/table":             {module + "/engine"},
		module + "/internal/i18n":     {"golang.org/x/text/language"},
		module + "/internal/atomicfs": {module + "/table"},
		module + "/rating":            {"math", module + "/engine"},
		module + "/stats":             {module + "/rating", module + "/table"},
		module + "/netplay/x":         {module + "/ui"},
		module + "/cmd/okey":          {module + "/ui", module + "/netplay"},
		module + "/tournament":        {module + "/engine", "filippo.io/edwards25519", module + "/table"},
		module + "/web":               {module + "/web/x"},
		module + "/web/x":             {module + "/internal/browsertest"},
	}
	got := strings.Join(layerViolations(imports), "\n")
	for _, want := range []string{
		"engine reaches " + module + "/internal/i18n",
		"crypto/group reaches example.com/x",
		"ui reaches " + module + "/p2p",
		"p2p/relay reaches " + module + "/p2p/invite",
		"p2p reaches " + module + "/p2p/lobby",
		"internal/atomicfs reaches " + module + "/table",
		"rating reaches " + module + "/engine",
		"stats reaches " + module + "/table",
		"netplay/x reaches " + module + "/ui",
		"ui reaches " + module + "/netplay",
		"tournament reaches " + module + "/table",
		"web reaches " + module + "/internal/browsertest",
		"web/x reaches " + module + "/internal/browsertest",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	for _, no := range []string{"sha3", "ristretto", "internal/i18n reaches", "table reaches", "stats reaches " + module + "/rating", "cmd/okey reaches",
		"tournament reaches " + module + "/engine", "tournament reaches filippo.io", "p2p/relay reaches " + module + "/p2p/internal/wire"} {
		if strings.Contains(got, no) {
			t.Errorf("%q named, but allowed:\n%s", no, got)
		}
	}
}

// layerViolations checks the rules over imports (package -> its direct
// imports, the module's packages as keys) and says what breaks them.
func layerViolations(imports map[string][]string) []string {
	var out []string
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p, module+"/")
		top, _, _ := strings.Cut(rel, "/")
		for _, dep := range reach(imports, p) {
			var bad bool
			switch {
			case rel == "engine":
				bad = !stdlib(dep)
			case top == "crypto":
				bad = !stdlib(dep) && !strings.HasPrefix(dep, module+"/crypto/") && !cryptoDep(dep)
			case top == "internal":
				bad = strings.HasPrefix(dep, module+"/") && !strings.HasPrefix(dep, module+"/internal/")
			case rel == "rating":
				bad = !stdlib(dep)
			case rel == "stats":
				bad = !stdlib(dep) && dep != module+"/rating"
			case rel == "p2p":
				bad = within(dep, "p2p/lobby") || within(dep, "p2p/tournament")
			case rel == "p2p/relay":
				bad = strings.HasPrefix(dep, module+"/") && dep != module+"/p2p/internal/wire"
			case rel == "tournament":
				// pure: the rules engine and the key check's curve only
				bad = !stdlib(dep) && dep != module+"/engine" && dep != "filippo.io/edwards25519"
			}
			if (top == "ui" || top == "table") && (dep == module+"/p2p" || strings.HasPrefix(dep, module+"/p2p/")) {
				bad = true
			}
			// A front end and network play meet only in the wiring.
			if rel != "cmd/okey" && (frontEnd(rel) && within(dep, "netplay") || within(rel, "netplay") && frontEnd(strings.TrimPrefix(dep, module+"/"))) {
				bad = true
			}
			// A test helper is for tests alone.
			if slices.Contains(testHelpers, dep) {
				bad = true
			}
			if bad {
				out = append(out, rel+" reaches "+dep)
			}
		}
	}
	return out
}

// reach returns every package p imports, directly or through the module's
// packages, sorted.
func reach(imports map[string][]string, p string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(q string) {
		for _, d := range imports[q] {
			if !seen[d] {
				seen[d] = true
				walk(d)
			}
		}
	}
	walk(p)
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// frontEnd reports whether the module's package rel is a front end.
func frontEnd(rel string) bool { return within(rel, "ui") }

// within reports whether p (a package of the module, by its path or
// relative to the module) is dir or below it.
func within(p, dir string) bool {
	p = strings.TrimPrefix(p, module+"/")
	return p == dir || strings.HasPrefix(p, dir+"/")
}

func stdlib(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

func cryptoDep(p string) bool {
	for _, m := range cryptoDeps {
		if p == m || strings.HasPrefix(p, m+"/") {
			return true
		}
	}
	return false
}

// moduleImports parses the imports of every non-test Go file of the module
// under root (testdata and hidden directories aside), whatever its build
// tags: package path -> its direct imports.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	imports := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := path.Join(module, filepath.ToSlash(rel))
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = []string{}
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			imports[pkg] = append(imports[pkg], ip)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return imports
}
