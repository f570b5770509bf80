//go:build race

package commit

// raceEnabled: the statistical tests take minutes under the race detector;
// `make test` runs them in a second pass without it.
const raceEnabled = true
