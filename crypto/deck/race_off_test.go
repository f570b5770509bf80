//go:build !race

package deck

const raceEnabled = false
