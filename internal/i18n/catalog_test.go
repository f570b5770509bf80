package i18n

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/gosrc"
)

// sourceDirs are the module's directories with Go files (relative to this
// package), but this one and testdata: wherever a user-facing string goes
// through T, its key is checked.
var sourceDirs = moduleDirs("../..")

// frontDirs are the packages that write for a person (the front ends and
// the verdict's words): no bare string with words reaches the screen or
// the output from them (TestNoBareStrings). A package that writes for a
// person joins this list.
var frontDirs = []string{"../../engine/analysis", "../../stats/collect", "../../table/sim", "../../ui", "../../ui/tablemodel", "../../cmd/okey", "../../verdict", "../../verdict/page", "../../verdict/folder", "../../web"}

// moduleDirs are root's Go source directories (gosrc.Dirs) but this
// package's own. A walk that fails finds too few keys, and the catalogue
// test says the walk is broken.
func moduleDirs(root string) []string {
	dirs, _ := gosrc.Dirs(root)
	return slices.DeleteFunc(dirs, func(d string) bool {
		return filepath.Base(d) == "i18n" && filepath.Base(filepath.Dir(d)) == "internal"
	})
}

var dumpMissing = flag.String("missing", "", "write the keys missing from the Turkish catalogue to this file, as Go map entries")

// use is one key found in the sources.
type use struct {
	key string
	pos string
}

// collectKeys parses the non-test Go files of dirs and returns every key
// given to i18n.T, i18n.Sprintf and i18n.Mark, and the calls whose key is not
// a literal (or a package constant holding one).
func collectKeys(t *testing.T, dirs []string) (keys []use, bad []string) {
	t.Helper()
	for _, dir := range dirs {
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s: %v", dir, err)
		}
		var parsed []*ast.File
		consts := map[string]string{}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, f)
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, sp := range g.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								v, _ := strconv.Unquote(lit.Value)
								consts[n.Name] = v
							}
						}
					}
				}
			}
		}
		for _, f := range parsed {
			ast.Inspect(f, func(n ast.Node) bool {
				x, name, c, ok := gosrc.PkgCall(n)
				if !ok || x != "i18n" {
					return true
				}
				arg := 0
				switch name {
				case "T", "Mark":
				case "Sprintf":
					arg = 1
				default:
					return true
				}
				pos := fset.Position(c.Pos()).String()
				if len(c.Args) <= arg {
					bad = append(bad, pos+": no key")
					return true
				}
				switch a := c.Args[arg].(type) {
				case *ast.BasicLit:
					if a.Kind == token.STRING {
						v, _ := strconv.Unquote(a.Value)
						keys = append(keys, use{v, pos})
						return true
					}
				case *ast.Ident:
					if v, ok := consts[a.Name]; ok {
						keys = append(keys, use{v, pos})
						return true
					}
				}
				bad = append(bad, pos+": i18n."+name+" with a key that is not a string literal (use i18n.Mark for a table and i18n.TKey to translate it)")
				return true
			})
		}
	}
	return keys, bad
}

// TestCatalogueComplete: every key the interface uses has a Turkish entry,
// every key is a literal, and every Turkish entry is used.
func TestCatalogueComplete(t *testing.T) {
	keys, bad := collectKeys(t, sourceDirs)
	for _, b := range bad {
		t.Error(b)
	}
	if len(keys) < 50 {
		t.Fatalf("found only %d keys in %v: is the source walk broken?", len(keys), sourceDirs)
	}
	all, _ := trEntries()
	used := map[string]bool{}
	var missing []use
	for _, k := range keys {
		used[k.key] = true
		if _, ok := all[k.key]; !ok && !slices.ContainsFunc(missing, func(u use) bool { return u.key == k.key }) {
			missing = append(missing, k)
			t.Errorf("%s: no Turkish for %q", k.pos, k.key)
		}
	}
	if *dumpMissing != "" {
		var b strings.Builder
		for _, k := range missing {
			fmt.Fprintf(&b, "%s\t%s: %s,\n", filepath.Base(filepath.Dir(k.pos)), strconv.Quote(k.key), strconv.Quote(k.key))
		}
		os.WriteFile(*dumpMissing, []byte(b.String()), 0o644)
	}
	// Entries of the other parts of the catalogue (tr_101.go) are used by
	// files this test also reads once they are merged; each part's keys
	// must be used somewhere in ui/ or cmd/okey.
	for k := range all {
		if !used[k] {
			t.Errorf("Turkish entry %q is used by no code", k)
		}
	}
}

var verbRE = regexp.MustCompile(`%(\[(\d+)\])?[-+# 0]*(\d+|\*)?(\.(\d+|\*))?([a-zA-Z%])`)

// verbs returns, for a fmt format, the verb used for each argument (1-based),
// following explicit indexes as fmt does; "%%" uses none.
func verbs(format string) (map[int]string, error) {
	out := map[int]string{}
	next := 1
	for _, m := range verbRE.FindAllStringSubmatch(format, -1) {
		if m[6] == "%" {
			continue
		}
		if m[3] == "*" || m[5] == "*" {
			return nil, fmt.Errorf("a * width in %q", format)
		}
		if m[2] != "" {
			next, _ = strconv.Atoi(m[2])
		}
		if v, ok := out[next]; ok && v != m[6] {
			return nil, fmt.Errorf("argument %d used as %%%s and %%%s", next, v, m[6])
		}
		out[next] = m[6]
		next++
	}
	return out, nil
}

// TestVerbsMatch: every Turkish entry uses its key's arguments with the same
// verbs (in any order, through explicit indexes), and no others.
func TestVerbsMatch(t *testing.T) {
	all, _ := trEntries()
	for k, v := range all {
		kv, err := verbs(k)
		if err != nil {
			t.Errorf("key %q: %v", k, err)
			continue
		}
		vv, err := verbs(v)
		if err != nil {
			t.Errorf("Turkish for %q: %v", k, err)
			continue
		}
		if fmt.Sprint(kv) != fmt.Sprint(vv) {
			t.Errorf("verbs differ:\n key     %q %v\n Turkish %q %v", k, kv, v, vv)
		}
	}
	for k, one := range englishPlurals {
		kv, _ := verbs(k)
		ov, _ := verbs(one)
		if kv[1] != "d" {
			t.Errorf("English plural %q: its first argument is not a %%d count", k)
		}
		delete(kv, 1)
		if fmt.Sprint(kv) != fmt.Sprint(ov) && len(ov) > 0 {
			t.Errorf("English plural %q and its singular %q use different arguments", k, one)
		}
	}
}

func TestVerbsParser(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"%d tiles", "map[1:d]"},
		{"%s has %ds left", "map[1:s 2:d]"},
		{"%[2]d saniye %[1]s", "map[1:s 2:d]"},
		{"100%% %-9s %5.2f", "map[1:s 2:f]"},
	} {
		got, err := verbs(c.in)
		if err != nil || fmt.Sprint(got) != c.want {
			t.Errorf("verbs(%q) = %v, %v; want %s", c.in, got, err, c.want)
		}
	}
	if _, err := verbs("%s and %[1]d"); err == nil {
		t.Error("an argument used as two verbs is not caught")
	}
}
