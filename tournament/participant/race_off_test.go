//go:build !race

package participant

const raceOn = false
