//go:build race

package main

// raceOn: the race detector slows a tournament's matches several times
// over; the whole-tournament tests run without it (make test's second list).
const raceOn = true
