//go:build race

package participant

// raceOn: the race detector slows a tournament's matches several times
// over; the whole-tournament test runs without it (make test's second list).
const raceOn = true
