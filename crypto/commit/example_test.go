package commit_test

import (
	"fmt"

	"github.com/okey-game/okey/crypto/commit"
)

// Three seats roll a die together. Production code passes nil (crypto/rand).
func Example() {
	session := []byte("table-42")
	const round = 1
	var commitments, openings [][]byte
	for seat := 0; seat < 3; seat++ {
		c, o, _ := commit.Commit("okey/die", session, round, seat, nil)
		commitments, openings = append(commitments, c), append(openings, o)
	}
	// Everyone checks that no commitment was copied before anyone reveals.
	if err := commit.CheckDistinct([]int{0, 1, 2}, commitments); err != nil {
		panic(err)
	}
	for seat := range openings {
		if err := commit.Check("okey/die", session, round, seat, commitments[seat], openings[seat]); err != nil {
			panic(err) // err names the seat to blame
		}
	}
	v, _ := commit.Combine("okey/die", session, round, openings)
	roll := commit.Die(v)
	dealer, _ := commit.Choice(v, 3)
	fmt.Println(roll >= 1 && roll <= 6, dealer >= 0 && dealer < 3)
	// Output: true true
}
