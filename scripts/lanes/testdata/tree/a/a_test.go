package a

import (
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

var raceEnabled = false

func TestSlow(t *testing.T) {
	lane.NoRace(t)
}

func TestShared(t *testing.T) {
	lane.NoRace(t)
}

func TestRaced(t *testing.T) {
	lane.RaceOnly(t)
}

func TestPlain(t *testing.T) {}

func TestByHand(t *testing.T) {
	if raceEnabled {
		t.Skip("slow")
	}
}

func TestLate(t *testing.T) {
	t.Log("first")
	lane.NoRace(t)
}
