package deck

import (
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

func TestHonestHand(t *testing.T) {
	lane.NoRace(t) // a whole hand of locks, re-keys and openings, one goroutine: the batch's parallel terms run under the race detector in the ProofBatch tests
	for _, n := range []int{2, 4} {
		tab := newTable(t, n, "honest")
		if !tab.hand.Ready() {
			t.Fatal("hand not ready")
		}
		tiles, err := tab.hand.Audit(tab.seeds(), newFixedRand("audit"))
		if err != nil {
			t.Fatalf("n=%d: audit: %v", n, err)
		}
		seen := make([]bool, DeckSize)
		positions := DeckSize
		if n != 4 {
			positions = 12 // every position is opened for 4 players
		}
		for pos := 0; pos < positions; pos++ {
			j, err := tab.hand.Open(pos, tab.shares(t, pos))
			if err != nil {
				t.Fatalf("n=%d: open %d: %v", n, pos, err)
			}
			if j != tiles[pos] {
				t.Fatalf("n=%d: position %d opened to %d, audit says %d", n, pos, j, tiles[pos])
			}
			if seen[j] {
				t.Fatalf("n=%d: tile %d opened twice", n, j)
			}
			seen[j] = true
		}
	}
}
