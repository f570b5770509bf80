//go:build !race

package engine

// raceScale divides the sizes of the slow randomized analysis tests under
// the race detector, which slows them about tenfold.
const raceScale = 1
