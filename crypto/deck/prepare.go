package deck

import (
	"sync"

	"github.com/okey-game/okey/crypto/shuffle"
)

// Prepare makes, once per process, the tables that a hand's lock proofs
// and their checks use (shuffle.Prepare for the deck's size), which the
// first lock of a match would otherwise make on its way, one seat after
// another. A peer calls it (in the background) when its table starts, so
// that its first hand starts as soon as the later ones. It changes no
// message and no check.
func Prepare() { prepareOnce.Do(func() { shuffle.Prepare(DeckSize) }) }

var prepareOnce sync.Once
