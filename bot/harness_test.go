package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/okey-game/okey/engine"
)

// dealer is the test's omniscient table: it knows which tile every slot
// holds and opens faces as the cryptography would.
type dealer struct {
	tile [engine.DeckSize]engine.Tile
}

func newDealer(rng *rand.Rand) *dealer {
	d := &dealer{}
	for i := range d.tile {
		d.tile[i] = engine.Tile(i)
	}
	if rng != nil {
		rng.Shuffle(engine.DeckSize, func(i, j int) { d.tile[i], d.tile[j] = d.tile[j], d.tile[i] })
	}
	return d
}

func (d *dealer) face(s engine.Slot) engine.Face { return d.tile[s].Face() }

func (d *dealer) open(slots ...engine.Slot) []engine.SlotFace {
	out := make([]engine.SlotFace, len(slots))
	for i, s := range slots {
		out[i] = engine.SlotFace{Slot: s, Face: d.face(s)}
	}
	return out
}

// place makes the given slots hold the given faces by swapping tiles with
// slots that nobody has seen (no public face, not placed here): the public
// state stays consistent.
func (d *dealer) place(t testing.TB, h *engine.Hand, want []engine.SlotFace) {
	t.Helper()
	var fixed [engine.DeckSize]bool
	for _, sf := range want {
		if h != nil && h.PublicFace(sf.Slot) != engine.NoFace {
			t.Fatalf("place: slot %d is public", sf.Slot)
		}
		if d.face(sf.Slot) != sf.Face {
			found := false
			for s := engine.Slot(0); s < engine.DeckSize; s++ {
				if fixed[s] || s == sf.Slot || d.face(s) != sf.Face || h != nil && h.PublicFace(s) != engine.NoFace {
					continue
				}
				d.tile[s], d.tile[sf.Slot] = d.tile[sf.Slot], d.tile[s]
				found = true
				break
			}
			if !found {
				t.Fatalf("place: no free %v for slot %d", sf.Face, sf.Slot)
			}
		}
		fixed[sf.Slot] = true
	}
}

// table drives a match in-process: the dealer, one view per seat.
type table struct {
	t     testing.TB
	m     *engine.Match
	d     *dealer
	rng   *rand.Rand
	views []*engine.View
}

func newTable(t testing.TB, rules string, n, dealer int, seed uint64) *table {
	t.Helper()
	r, err := engine.ParseRuleset(rules)
	if err != nil {
		t.Fatal(err)
	}
	m, err := engine.NewMatch(r, n, dealer)
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, m: m, rng: rand.New(rand.NewPCG(seed, 7))}
	tb.d = newDealer(tb.rng)
	tb.resetViews()
	return tb
}

func (tb *table) h() *engine.Hand { return tb.m.Hand() }

func (tb *table) resetViews() {
	tb.views = make([]*engine.View, tb.m.Players())
	for i := range tb.views {
		tb.views[i] = engine.NewView(i)
	}
}

// settle applies die rolls (from the table's rng) and reveals until play.
func (tb *table) settle() {
	tb.t.Helper()
	for tb.h().Phase() != engine.PhasePlay {
		need := tb.h().Need()
		var a engine.Action
		switch need.Kind {
		case engine.ActRoll:
			a = engine.Action{Kind: engine.ActRoll, Value: 1 + tb.rng.IntN(6)}
		case engine.ActReveal:
			a = engine.Action{Kind: engine.ActReveal, Faces: tb.d.open(need.Slots...)}
		default:
			tb.t.Fatalf("unexpected need %+v in phase %v", need, tb.h().Phase())
		}
		if err := tb.m.Apply(a); err != nil {
			tb.t.Fatalf("deal: %v", err)
		}
	}
	tb.learn()
}

// learn opens every seat's rack to that seat alone.
func (tb *table) learn() {
	h := tb.h()
	if h.Phase() < engine.PhasePlay {
		return
	}
	for _, v := range tb.views {
		for _, s := range h.Rack(v.Seat) {
			v.Learn(s, tb.d.face(s))
		}
	}
}

// apply applies a move and opens the racks' new tiles to their holders.
func (tb *table) apply(a engine.Action) error {
	if err := tb.m.Apply(a); err != nil {
		return err
	}
	tb.learn()
	return nil
}

// next starts the next hand with a fresh shuffle.
func (tb *table) next() {
	tb.t.Helper()
	if err := tb.m.NextHand(); err != nil {
		tb.t.Fatal(err)
	}
	tb.d = newDealer(tb.rng)
	tb.resetViews()
}

// moveCheck is called with every move a bot chose, before it is applied.
type moveCheck func(h *engine.Hand, v *engine.View, bot Strategy, a engine.Action)

// play plays the current hand (dealt already) to its end with one strategy
// per seat; every move must be accepted.
func (tb *table) play(bots []Strategy, check moveCheck) engine.HandResult {
	tb.t.Helper()
	for steps := 0; tb.h().Phase() != engine.PhaseOver; steps++ {
		if steps > 3000 {
			tb.t.Fatal("hand does not end")
		}
		h := tb.h()
		seat, _ := h.Turn()
		v := tb.views[seat]
		a, err := bots[seat].Move(h, v)
		if err != nil {
			tb.t.Fatalf("%s seat %d: %v", bots[seat].Name(), seat, err)
		}
		if a.Seat != seat {
			tb.t.Fatalf("%s seat %d returned a move for seat %d", bots[seat].Name(), seat, a.Seat)
		}
		if check != nil {
			check(h, v, bots[seat], a)
		}
		if err := tb.apply(a); err != nil {
			tb.t.Fatalf("%s: %s seat %d: move %v slot %d refused: %v", tb.m.Rules(), bots[seat].Name(), seat, a.Kind, a.Slot, err)
		}
	}
	res, _ := tb.h().Result()
	return res
}

// faces parses notation for tests.
func faces(s string) []engine.Face { return engine.MustParseFaces(s) }

// fill returns SlotFaces for slots and faces, index for index.
func fill(slots []engine.Slot, fs []engine.Face) []engine.SlotFace {
	out := make([]engine.SlotFace, len(fs))
	for i := range fs {
		out[i] = engine.SlotFace{Slot: slots[i], Face: fs[i]}
	}
	return out
}

func mustBot(t testing.TB, name string, seed uint64) Strategy {
	t.Helper()
	s, err := New(name, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
