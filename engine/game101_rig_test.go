package engine

import (
	"errors"
	"strings"
	"testing"
)

// rig101 plays a match of 101 on rigged decks: the test names the tiles that
// matter (racks, indicator, bank) and the rest of each rack and bank is
// filled from the unused tiles in a fixed order, okeys and false jokers last.
type rig101 struct {
	t    *testing.T
	m    *Match101
	deck [DeckSize]Face // slot -> face of the current hand
}

// deal101 describes one hand: racks by seat (the dealer's is 22 tiles, the
// others 21; missing tiles are filled), the indicator, the bank's first
// draws.
type deal101 struct {
	racks     []string
	indicator string
	bank      string
}

func newRig101(t *testing.T, rules string, n, dealer int, d deal101) *rig101 {
	t.Helper()
	r, err := ParseRuleset(rules)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch101(r, n, dealer)
	if err != nil {
		t.Fatal(err)
	}
	rg := &rig101{t: t, m: m}
	rg.setDeck(d)
	return rg
}

func (rg *rig101) g() *Game101 { return rg.m.Game() }

// setDeck rigs the current hand's deck and opens the indicator.
func (rg *rig101) setDeck(d deal101) {
	t := rg.t
	t.Helper()
	g := rg.g()
	ind := MustParseFaces(d.indicator)[0]
	okey, _ := OkeyFor(ind)
	var left [NumFaces]int
	for f := range left {
		left[f] = 2
	}
	take := func(f Face) {
		if left[f] == 0 {
			t.Fatalf("rig: a third %v", f)
		}
		left[f]--
	}
	racks := make([][]Face, g.n)
	for s := 0; s < g.n; s++ {
		if s < len(d.racks) {
			racks[s] = MustParseFaces(d.racks[s])
		}
		for _, f := range racks[s] {
			take(f)
		}
	}
	take(ind)
	bank := MustParseFaces(d.bank)
	for _, f := range bank {
		take(f)
	}
	// Filler: plain faces in a scattered order, then okeys and false jokers.
	var fill []Face
	for k := 0; k < 2; k++ {
		for i := 0; i < 52; i++ {
			f := Face(i * 23 % 52)
			if f != okey && left[f] > 0 {
				left[f]--
				fill = append(fill, f)
			}
		}
	}
	for left[okey] > 0 {
		left[okey]--
		fill = append(fill, okey)
	}
	for left[FalseJoker] > 0 {
		left[FalseJoker]--
		fill = append(fill, FalseJoker)
	}
	next := func() Face {
		f := fill[0]
		fill = fill[1:]
		return f
	}
	slot := 0
	for i, seat := range g.order {
		size := g.rules.HandSize
		if i == 0 {
			size++
		}
		if len(racks[seat]) > size {
			t.Fatalf("rig: seat %d has %d tiles, holds %d", seat, len(racks[seat]), size)
		}
		for k := 0; k < size; k++ {
			if k < len(racks[seat]) {
				rg.deck[slot] = racks[seat][k]
			} else {
				rg.deck[slot] = next()
			}
			slot++
		}
	}
	rg.deck[slot] = ind
	slot++
	for _, f := range bank {
		rg.deck[slot] = f
		slot++
	}
	for ; slot < DeckSize; slot++ {
		rg.deck[slot] = next()
	}
	rg.reveal()
	if g.Phase() != Phase101Play || g.Okey() != okey {
		t.Fatalf("rig: phase %v okey %v", g.Phase(), g.Okey())
	}
}

// reveal opens the pending slots with the rigged faces.
func (rg *rig101) reveal() {
	rg.t.Helper()
	a := Action101{Kind: Act101Reveal}
	for _, s := range rg.g().Pending() {
		a.Faces = append(a.Faces, SlotFace{s, rg.deck[s]})
	}
	rg.ok(a)
}

// ok applies an action that must succeed.
func (rg *rig101) ok(a Action101) {
	rg.t.Helper()
	if err := rg.m.Apply(a); err != nil {
		rg.t.Fatalf("%v by seat %d: %v", a.Kind, a.Seat, err)
	}
}

// refused applies an action that must fail with want and change nothing.
func (rg *rig101) refused(a Action101, want error) {
	rg.t.Helper()
	before := rg.m.Hash()
	err := rg.m.Apply(a)
	if !errors.Is(err, want) {
		rg.t.Fatalf("%v by seat %d: error %v, want %v", a.Kind, a.Seat, err, want)
	}
	if rg.m.Hash() != before {
		rg.t.Fatalf("%v by seat %d: refused but the state changed", a.Kind, a.Seat)
	}
}

// slots finds tiles of the given faces in seat's rack (each slot once).
func (rg *rig101) slots(seat int, faces []Face) []SlotFace {
	rg.t.Helper()
	var out []SlotFace
	for _, f := range faces {
		found := false
		for _, s := range rg.g().Rack(seat) {
			dup := false
			for _, o := range out {
				dup = dup || o.Slot == s
			}
			if !dup && rg.deck[s] == f {
				out = append(out, SlotFace{s, f})
				found = true
				break
			}
		}
		if !found {
			rg.t.Fatalf("seat %d has no %v (rack %s)", seat, f, FormatFaces(rg.rackFaces(seat)))
		}
	}
	return out
}

func (rg *rig101) rackFaces(seat int) []Face {
	var fs []Face
	for _, s := range rg.g().Rack(seat) {
		fs = append(fs, rg.deck[s])
	}
	return fs
}

// plays parses "R10 R11 R12 | K5 Y5 R5=B5": melds split by |, a tile X=Y is
// tile X playing as Y (an okey; without =, a tile plays as itself, a false
// joker as the okey).
func (rg *rig101) plays(seat int, text string) []MeldPlay {
	rg.t.Helper()
	var out []MeldPlay
	for _, part := range strings.Split(text, "|") {
		var faces, as []Face
		for _, tok := range strings.Fields(part) {
			x, y, eq := strings.Cut(tok, "=")
			f := MustParseFaces(x)[0]
			faces = append(faces, f)
			switch {
			case eq:
				as = append(as, MustParseFaces(y)[0])
			default:
				as = append(as, natural(rg.g().Okey(), f))
			}
		}
		out = append(out, MeldPlay{Tiles: rg.slots(seat, faces), As: as})
	}
	return out
}

func (rg *rig101) draw(seat int) Action101 { return Action101{Kind: Act101Draw, Seat: seat} }
func (rg *rig101) take(seat int) Action101 { return Action101{Kind: Act101Take, Seat: seat} }
func (rg *rig101) giveBack(seat int) Action101 {
	return Action101{Kind: Act101GiveBack, Seat: seat}
}
func (rg *rig101) exhaust(seat int) Action101 { return Action101{Kind: Act101Exhaust, Seat: seat} }
func (rg *rig101) lay(seat int, text string) Action101 {
	return Action101{Kind: Act101Lay, Seat: seat, Melds: rg.plays(seat, text)}
}
func (rg *rig101) add(seat, meld int, text string) Action101 {
	return Action101{Kind: Act101Add, Seat: seat, Meld: meld, Melds: rg.plays(seat, text)}
}
func (rg *rig101) swap(seat, meld, pos int, tile string) Action101 {
	return Action101{Kind: Act101Swap, Seat: seat, Meld: meld, Pos: pos, Faces: rg.slots(seat, MustParseFaces(tile))}
}
func (rg *rig101) discard(seat int, tile string) Action101 {
	return Action101{Kind: Act101Discard, Seat: seat, Faces: rg.slots(seat, MustParseFaces(tile))}
}

// result returns the finished round's result (after the racks are opened).
func (rg *rig101) result() Result101 {
	rg.t.Helper()
	g := rg.g()
	if g.Phase() == Phase101Reveal {
		rg.reveal()
	}
	res, ok := g.Result()
	if !ok {
		rg.t.Fatalf("round not over: phase %v", g.Phase())
	}
	return res
}

// sum is the face value of a seat's rack (okeys aside, false jokers as the
// okey's number).
func (rg *rig101) sum(seat int) int {
	s := 0
	for _, f := range rg.rackFaces(seat) {
		if f != rg.g().Okey() {
			s += natural(rg.g().Okey(), f).Number()
		}
	}
	return s
}
