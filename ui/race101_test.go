//go:build race

package ui

// raceDetector: the replay of a whole 101 match runs without the race
// detector only (make test's non-race line), so that the race suite stays
// short.
const raceDetector = true
