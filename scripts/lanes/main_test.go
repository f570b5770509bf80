package main

import (
	"slices"
	"strings"
	"testing"
)

// TestScan: the lanes of a small tree with every case scripts/lanes knows:
// a no-race test, a race-only one, a plain one, one that skips by hand, one
// that marks itself late, a file built without the race detector and a name
// the no-race pattern would take in two packages.
func TestScan(t *testing.T) {
	tests, problems := scan("testdata/tree")
	problems = append(problems, collisions(tests)...)
	var noRace []string
	for _, tc := range tests {
		if tc.noRace {
			noRace = append(noRace, tc.pkg+" "+tc.name)
		}
	}
	if got, want := strings.Join(noRace, ","), "./a TestLate,./a TestShared,./a TestSlow"; got != want {
		t.Errorf("no-race tests %q, want %q", got, want)
	}
	wants := []string{
		"TestByHand skips under the race detector by hand",
		"TestLate calls lane.NoRace after other statements",
		"b_test.go: tests in a file built only with or without the race detector",
	}
	joined := strings.Join(problems, "\n")
	for _, w := range wants {
		if !strings.Contains(joined, w) {
			t.Errorf("no problem %q in:\n%s", w, joined)
		}
	}
	if len(problems) != len(wants) {
		t.Errorf("%d problems, want %d:\n%s", len(problems), len(wants), joined)
	}
}

// TestScanCollision: a no-race test's name that is a first-line test in
// another package of the no-race line is refused.
func TestScanCollision(t *testing.T) {
	tests := []test{
		{pkg: "./a", name: "TestX", noRace: true},
		{pkg: "./b", name: "TestY", noRace: true},
		{pkg: "./b", name: "TestX", pos: "b_test.go:3"},
		{pkg: "./c", name: "TestX", pos: "c_test.go:3"},
	}
	got := collisions(tests)
	if len(got) != 1 || !strings.Contains(got[0], "b_test.go:3: TestX shares its name") {
		t.Fatalf("collisions %q", got)
	}
}

// TestTreeLanes: the project's own tests pass the checks.
func TestTreeLanes(t *testing.T) {
	tests, problems := scan("../..")
	problems = append(problems, collisions(tests)...)
	if len(problems) > 0 {
		t.Fatalf("%s", strings.Join(problems, "\n"))
	}
}

// TestOrdered: the packages named first come first, in their order, the
// others after them in theirs; a name that is not a no-race package fails.
func TestOrdered(t *testing.T) {
	pkgs := []string{"./a", "./b", "./c", "./d"}
	got, err := ordered(pkgs, []string{"./c", "./a", "./c"})
	if err != nil || !slices.Equal(got, []string{"./c", "./a", "./b", "./d"}) {
		t.Fatalf("ordered: %q, %v", got, err)
	}
	if got, err := ordered(pkgs, nil); err != nil || !slices.Equal(got, pkgs) {
		t.Fatalf("no first: %q, %v", got, err)
	}
	if _, err := ordered(pkgs, []string{"./b", "./gone"}); err == nil || !strings.Contains(err.Error(), "./gone") {
		t.Fatalf("a package not in the line: %v", err)
	}
}
