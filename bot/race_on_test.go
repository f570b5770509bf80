//go:build race

package bot

// raceOn: the race detector slows the expert about tenfold.
const raceOn = true
