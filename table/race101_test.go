//go:build race

package table

// raceDetector: the 4-seat 101 matches run without the race detector only
// (make test's non-race line), so that the race suite stays short.
const raceDetector = true
