package deck_test

import (
	"fmt"

	"github.com/okey-game/okey/crypto/deck"
)

// A two-player hand in one process: each seat locks and shuffles, then
// re-keys with proofs; tile position 0 is opened to seat 1 (seat 0
// publishes its share); after the hand the seeds are revealed and audited.
// Production code passes nil (crypto/rand) for every io.Reader.
func Example() {
	session := []byte("table-42")
	const hand = 1
	h, _ := deck.NewHand(session, hand, 2)
	var secrets []*deck.Secret
	for seat := 0; seat < 2; seat++ {
		s, _ := deck.NewSecret(session, hand, 2, seat, nil)
		secrets = append(secrets, s)
	}
	for seat := 0; seat < 2; seat++ {
		msg, _, _ := h.Lock(secrets[seat])
		var err error
		if h, err = h.ApplyLock(seat, msg); err != nil { // what every other seat runs
			panic(err)
		}
	}
	for seat := 0; seat < 2; seat++ {
		msg, _, _ := h.Rekey(secrets[seat], nil)
		var err error
		if h, err = h.ApplyRekey(seat, msg, nil); err != nil {
			panic(err)
		}
	}
	fromSeat0, _ := h.Share(secrets[0], 0) // published
	own, _ := h.Share(secrets[1], 0)       // kept by seat 1
	tile, err := h.Open(0, [][]byte{fromSeat0, own})
	fmt.Println(err == nil && tile >= 0 && tile < deck.DeckSize)

	tiles, err := h.Audit([][]byte{secrets[0].Seed(), secrets[1].Seed()}, nil)
	fmt.Println(err == nil && tiles[0] == tile)
	// Output:
	// true
	// true
}
