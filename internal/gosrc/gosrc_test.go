package gosrc

import (
	"go/parser"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDirs: the directories with Go files, root included, in lexical
// order; hidden ones, testdata and bin below root are skipped, as are
// directories with no Go file.
func TestDirs(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"a.go", "b/b_test.go", "b/c/c.go", "d/readme.md", "d/e/e.go",
		".git/x.go", "testdata/t.go", "bin/bin.go", "b/testdata/t.go", "b/.hidden/h.go",
	} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Dirs(root)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range []string{"", "b", "b/c", "d/e"} {
		want = append(want, filepath.Join(root, d))
	}
	if !slices.Equal(got, want) {
		t.Errorf("Dirs = %q, want %q", got, want)
	}
	if _, err := Dirs(filepath.Join(root, "missing")); err == nil {
		t.Error("Dirs of a missing root: no error")
	}
}

// TestPkgCall: X.Name(...) with X an identifier is a call, with its X and
// Name; a plain call, a method of an expression and a non-call are not.
func TestPkgCall(t *testing.T) {
	for src, want := range map[string][2]string{
		`i18n.T("a", 1)`: {"i18n", "T"},
		`lane.NoRace(t)`: {"lane", "NoRace"},
		`f(x)`:           {},
		`a.b.C()`:        {},
		`x.y`:            {},
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		x, name, call, ok := PkgCall(e)
		if ok != (want[0] != "") || x != want[0] || name != want[1] || ok && call != e {
			t.Errorf("%s: %q %q %v (call %v), want %q", src, x, name, ok, call != nil, want)
		}
	}
}
