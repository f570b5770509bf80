package bot

import (
	"math/rand/v2"

	"github.com/okey-game/okey/engine"
)

// Random plays any legal move: it picks a move kind uniformly among the
// legal ones, then a tile uniformly where the kind needs one. Two exceptions
// keep games finite: it always declares a win when it holds one (the one
// that pays most), and when the stock is empty it ends the hand (exhaust)
// rather than taking the previous discard.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a random strategy seeded with seed (math/rand/v2 PCG):
// the same seed and the same positions give the same moves.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x6f6b6579))}
}

// Name returns "random".
func (r *Random) Name() string { return "random" }

// Move returns a legal move for the seat to play.
func (r *Random) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	p, err := read(h, v)
	if err != nil {
		return engine.Action{}, err
	}
	if ws := p.wins(); len(ws) > 0 {
		return bestWin(ws).action, nil
	}
	if !p.drawn && p.stock == 0 {
		return p.exhaust(), nil
	}
	type kind uint8
	const (
		kShow kind = iota
		kDraw
		kTake
		kDiscard
	)
	shows := p.showSlots()
	var kinds []kind
	if len(shows) > 0 {
		kinds = append(kinds, kShow)
	}
	if p.drawn {
		kinds = append(kinds, kDiscard)
	} else {
		kinds = append(kinds, kDraw)
		if p.topOK {
			kinds = append(kinds, kTake)
		}
	}
	switch kinds[r.rng.IntN(len(kinds))] {
	case kShow:
		return p.open(engine.ActShow, shows[r.rng.IntN(len(shows))]), nil
	case kDraw:
		return p.draw(), nil
	case kTake:
		return p.take(), nil
	default:
		return p.open(engine.ActDiscard, p.slots[r.rng.IntN(len(p.slots))]), nil
	}
}
