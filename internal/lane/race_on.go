//go:build race

package lane

const raceOn = true
