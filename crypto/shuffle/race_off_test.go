//go:build !race

package shuffle

const raceEnabled = false
