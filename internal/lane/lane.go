// Package lane says in which of make test's two lines a test runs.
//
// make test runs every package under the race detector, then a second line
// without it for the tests that are too slow there (whole matches,
// tournaments, statistical tests). A test joins the second line by calling
// NoRace first thing; nothing else decides membership. The tool
// scripts/lanes reads the test files, lists the tests that call NoRace for
// the second line, and fails when a test skips itself under the race detector
// any other way (so a test can neither run in both lines nor in none):
//
//	func TestWholeTournament(t *testing.T) {
//		lane.NoRace(t)
//		...
//	}
//
// A test that only does less under the race detector (fewer cases, a
// stride) stays in the first line and reads Race.
package lane

import "testing"

// Race is true when the binary was built with the race detector.
const Race = raceOn

// NoRace puts the calling test in make test's no-race line: under the race
// detector it skips, with the reason. Call it as the test's first statement.
func NoRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("too slow under the race detector: make test runs it in its no-race line (internal/lane)")
	}
}

// RaceOnly puts the calling test in make test's race line alone: without the
// race detector it skips, because a NoRace test covers the same ground there
// (a match matrix runs a few cases under the race detector, the whole matrix
// without it). Call it as the test's first statement.
func RaceOnly(t testing.TB) {
	t.Helper()
	if !Race {
		t.Skip("the race detector's share of a no-race test: runs under -race only (internal/lane)")
	}
}
