//go:build race

package table

// raceDetector: the 4-seat 101 matches (and most of the match matrix) run without the race detector only
// (make test's non-race line), so that the race suite stays short.
const raceDetector = true
