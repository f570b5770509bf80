package table

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
)

// TestConfigRefuses101: until the table drives Okey 101, a 101 config is
// refused with a clear error (and a classic one with the same seats is not).
func TestConfigRefuses101(t *testing.T) {
	var seats []Seat
	for i := 0; i < 4; i++ {
		pub, _, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		seat := Seat{ID: PeerID("peer" + string(rune('a'+i))), Name: "p" + string(rune('a'+i)), Key: pub}
		seat.Nonce[0] = byte(1 + i)
		seats = append(seats, seat)
	}
	c := Config{Ruleset: "classic", Seats: seats}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Ruleset = "101"
	err := c.Validate()
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "101") {
		t.Fatalf("101 config: %v", err)
	}
}
