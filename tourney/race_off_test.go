//go:build !race

package tourney

const raceOn = false
