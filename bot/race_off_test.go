//go:build !race

package bot

const raceOn = false
