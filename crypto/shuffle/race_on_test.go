//go:build race

package shuffle

// raceEnabled: tests loop over fewer cases under the race detector.
const raceEnabled = true
