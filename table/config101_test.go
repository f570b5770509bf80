package table

import (
	"testing"
)

// TestConfigAccepts101: the table plays Okey 101, with 2 to 4 players.
func TestConfigAccepts101(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		if _, _, err := LocalConfig("101", n, 7); err != nil {
			t.Fatalf("101 with %d players: %v", n, err)
		}
	}
}
