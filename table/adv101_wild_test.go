package table

import (
	"math/rand/v2"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// wild101 is an adversary that plays only legal moves but picks them at
// random from everything the rules allow: takes and gives back, lays every
// group it can, adds any tile (an okey playing as any face) to any meld,
// swaps whatever it can, discards anything. It builds table states no bot
// would, for the honest seats' bots to face.
type wild101 struct {
	rng *rand.Rand
	m   *Machine // its own peer's machine, to try moves on a copy
}

// legal reports whether the rules take a now.
func (w *wild101) legal(a engine.Action101) bool {
	return w.m.Match101().Clone().Apply(a) == nil
}

func (w *wild101) Move(*engine.Hand, *engine.View) (engine.Action, error) {
	return engine.Action{}, errNot101
}

var errNot101 = errorString("wild101 plays only 101")

type errorString string

func (e errorString) Error() string { return string(e) }

func (w *wild101) Move101(g *engine.Game101, v *engine.View) (engine.Action101, error) {
	seat, drawn, _ := g.Turn()
	slots, faces := v.Rack(g)
	okey := g.Okey()
	var cands []engine.Action101
	if !drawn {
		cands = append(cands, engine.Action101{Kind: engine.Act101Take, Seat: seat},
			engine.Action101{Kind: engine.Act101Draw, Seat: seat}, engine.Action101{Kind: engine.Act101Exhaust, Seat: seat})
	} else {
		cands = append(cands, engine.Action101{Kind: engine.Act101GiveBack, Seat: seat})
		if o, err := engine.BestOpening101(okey, faces, !g.Rules().Game101.NoJokerDoubles); err == nil {
			for _, gs := range [][]engine.Group{o.Groups, o.Pairs} {
				for k := len(gs); k > 0; k-- {
					if a, ok := engine.LayAction101(seat, slots, faces, gs[:k]); ok {
						cands = append(cands, a)
					}
				}
			}
		}
		melds := g.Melds()
		for i := range slots {
			sf := engine.SlotFace{Slot: slots[i], Face: faces[i]}
			as := []engine.Face{faces[i]}
			switch faces[i] {
			case okey:
				as = []engine.Face{engine.Face(w.rng.IntN(52)), engine.Face(w.rng.IntN(52)), okey}
			case engine.FalseJoker:
				as = []engine.Face{okey}
			}
			for mi, m := range melds {
				for _, f := range as {
					cands = append(cands, engine.Action101{Kind: engine.Act101Add, Seat: seat, Meld: mi,
						Melds: []engine.MeldPlay{{Tiles: []engine.SlotFace{sf}, As: []engine.Face{f}}}})
				}
				for pos := range m.Tiles {
					cands = append(cands, engine.Action101{Kind: engine.Act101Swap, Seat: seat, Meld: mi, Pos: pos,
						Faces: []engine.SlotFace{sf}})
				}
			}
		}
		w.rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		// A discard last, most of the time: a turn goes on while melds can.
		k := w.rng.IntN(len(slots))
		cands = append(cands, engine.Action101{Kind: engine.Act101Discard, Seat: seat,
			Faces: []engine.SlotFace{{Slot: slots[k], Face: faces[k]}}})
		if w.rng.IntN(4) == 0 {
			cands[0], cands[len(cands)-1] = cands[len(cands)-1], cands[0]
		}
	}
	if !drawn {
		w.rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	}
	for _, a := range cands {
		if !refusedSurely(g, a) && w.legal(a) {
			return a, nil
		}
	}
	// Nothing else: any discard that is legal (the taken tile first).
	for i := range slots {
		a := engine.Action101{Kind: engine.Act101Discard, Seat: seat, Faces: []engine.SlotFace{{Slot: slots[i], Face: faces[i]}}}
		if w.legal(a) {
			return a, nil
		}
	}
	return engine.Action101{Kind: engine.Act101GiveBack, Seat: seat}, nil
}

// refusedSurely is a cheap test for moves the rules certainly refuse (an
// add or swap before opening, a plain tile added where it fits no meld, a
// swap of a tile that is no okey), so that the wild player tries fewer
// moves on a copy; it never calls a legal move refused, so the player's
// choices are the same as without it.
func refusedSurely(g *engine.Game101, a engine.Action101) bool {
	opened := g.Opened(a.Seat) != engine.NotOpened
	switch a.Kind {
	case engine.Act101Add:
		if !opened {
			return true
		}
		f := a.Melds[0].Tiles[0].Face
		if len(a.Melds[0].Tiles) != 1 || f == g.Okey() {
			return false
		}
		add, _ := g.AddTargets(f)
		for _, i := range add {
			if i == a.Meld {
				return false
			}
		}
		return true
	case engine.Act101Swap:
		if !opened && !g.Rules().Game101.SwapBeforeOpen {
			return true
		}
		m := g.Melds()
		return a.Meld < len(m) && a.Pos < len(m[a.Meld].Tiles) && !g.IsOkeySlot(m[a.Meld].Tiles[a.Pos])
	}
	return false
}

// TestHonestBotsFaceAWildPlayer101: an honest B101 seat plays whole rounds
// against an adversary that makes every kind of legal move at random (okeys
// added as any face, swaps, takes and give-backs). Every honest move is
// one the rules take (the lockstep driver fails on any refused move; live,
// the peer would not send it and the table would stall), checkSecrecy101
// holds at every step, and the transcript verifies honest.
func TestHonestBotsFaceAWildPlayer101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	seeds := []uint64{21, 22, 23, 24, 25, 26}
	if raceDetector {
		seeds = seeds[:1]
	}
	kinds := map[engine.Act101]int{}
	for i, seed := range seeds {
		n := 2 + i%3
		if raceDetector {
			n = 2
		}
		l := newLockstep(t, "101:rounds=3,swap-before-open", n, seed)
		w := &wild101{rng: rand.New(rand.NewPCG(seed, 1)), m: l.peers[1].n.m}
		l.peers[1].c.Mover = w
		// Under the race detector one round (the match stays unfinished).
		for !l.m().Done() && !(raceDetector && l.m().HandNumber() > 0) {
			w.m = l.peers[1].n.m
			seat, kind, body := l.honest()
			if kind == KindMove && seat == 1 {
				kinds[engine.Act101(body[0])]++
			}
			l.send(seat, kind, body)
			checkSecrecy101(t, l)
		}
		if rep := Verify(l.transcript()); !rep.Honest && !(raceDetector && rep.Status() == StatusUnfinished) {
			t.Fatalf("seed %d: verify: status %v violation %v invalid %v", seed, rep.Status(), rep.Violation, rep.Invalid)
		}
	}
	t.Logf("the wild player's moves: %v", kinds)
	if !raceDetector && (kinds[engine.Act101Swap] == 0 || kinds[engine.Act101Add] == 0 || kinds[engine.Act101GiveBack] == 0) {
		t.Errorf("the wild player never swapped, added or gave back: %v", kinds)
	}
}
