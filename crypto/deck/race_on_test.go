//go:build race

package deck

// raceEnabled: the statistical tests take minutes under the race detector;
// `make test` runs them in a second pass without it.
const raceEnabled = true
