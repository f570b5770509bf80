package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// dealer is a test oracle that knows which tile every slot holds: what the
// table's cryptography opens, slot by slot.
type dealer struct {
	tile [DeckSize]Tile
}

func newDealer(rng *rand.Rand) *dealer {
	d := &dealer{}
	for i := range d.tile {
		d.tile[i] = Tile(i)
	}
	rng.Shuffle(DeckSize, func(i, j int) { d.tile[i], d.tile[j] = d.tile[j], d.tile[i] })
	return d
}

func (d *dealer) face(s Slot) Face { return d.tile[s].Face() }

func (d *dealer) open(slots ...Slot) []SlotFace {
	out := make([]SlotFace, len(slots))
	for i, s := range slots {
		out[i] = SlotFace{s, d.face(s)}
	}
	return out
}

// setFaces makes the given slots hold the given faces; the other slots get
// the remaining tiles in index order.
func (d *dealer) setFaces(t *testing.T, want map[Slot]Face) {
	t.Helper()
	var used [DeckSize]bool
	var fixed [DeckSize]bool
	for s := Slot(0); s < DeckSize; s++ {
		f, ok := want[s]
		if !ok {
			continue
		}
		found := false
		for _, tile := range TilesOf(f) {
			if !used[tile] {
				d.tile[s], used[tile], fixed[s], found = tile, true, true, true
				break
			}
		}
		if !found {
			t.Fatalf("setFaces: no free %v", f)
		}
	}
	next := 0
	for s := 0; s < DeckSize; s++ {
		if fixed[s] {
			continue
		}
		for used[next] {
			next++
		}
		d.tile[s] = Tile(next)
		used[next] = true
	}
}

// settle applies the deal's rolls and reveals until the hand is in play.
func settle(t *testing.T, m *Match, d *dealer, rolls ...int) {
	t.Helper()
	for m.Hand().Phase() != PhasePlay {
		need := m.Hand().Need()
		var a Action
		switch need.Kind {
		case ActRoll:
			v := 3
			if len(rolls) > 0 {
				v, rolls = rolls[0], rolls[1:]
			}
			a = Action{Kind: ActRoll, Value: v}
		case ActReveal:
			a = Action{Kind: ActReveal, Faces: d.open(need.Slots...)}
		default:
			t.Fatalf("unexpected need %+v in phase %v", need, m.Hand().Phase())
		}
		if err := m.Apply(a); err != nil {
			t.Fatalf("deal: %v", err)
		}
	}
}

func TestStackDealExample(t *testing.T) {
	// okey-classic.txt: the dealer threw a 5 and then a 2.
	d := &dealer{}
	for i := range d.tile {
		d.tile[i] = Tile(i)
	}
	d.setFaces(t, map[Slot]Face{21: NewFace(Red, 4)})
	m, err := NewMatch(MustRuleset("classic", ""), 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	settle(t, m, d, 5, 2)
	h := m.Hand()
	if s, f := h.Indicator(); s != 21 || f != NewFace(Red, 4) {
		t.Fatalf("indicator = %d %v, want slot 21 R4", s, f)
	}
	if h.Okey() != NewFace(Red, 5) {
		t.Fatalf("okey = %v, want R5", h.Okey())
	}
	stack := func(s int) []Slot { return stackSlots(s) }
	cat := func(parts ...[]Slot) []Slot {
		var out []Slot
		for _, p := range parts {
			out = append(out, p...)
		}
		slices.Sort(out)
		return out
	}
	// Stacks 'a'.. are the ones after the 5th (index 4): a=5, b=6, ...
	want := map[int][]Slot{
		1: cat(stack(5), stack(9), stack(13)),
		2: cat(stack(6), stack(10), []Slot{74, 73, 72, 71}),
		3: cat(stack(7), stack(11), []Slot{70}, []Slot{79, 78, 77}),
		0: cat(stack(8), stack(12), []Slot{76, 75}, []Slot{84, 83}),
	}
	for seat, w := range want {
		if got := h.Rack(seat); !slices.Equal(got, w) {
			t.Errorf("seat %d rack = %v, want %v", seat, got, w)
		}
	}
	stock := h.Stock()
	if len(stock) != 48 {
		t.Fatalf("stock has %d tiles, want 48", len(stock))
	}
	if !slices.Equal(stock[:3], []Slot{82, 81, 80}) {
		t.Errorf("stock starts %v, want the rest of stack l: 82 81 80", stock[:3])
	}
	if !slices.Equal(stock[len(stock)-5:], []Slot{105, 24, 23, 22, 20}) {
		t.Errorf("stock ends %v, want the six-stack without the face-up tile", stock[len(stock)-5:])
	}
	if seat, drawn := h.Turn(); seat != 1 || !drawn {
		t.Errorf("turn = %d drawn=%v, want seat 1 (dealer's right) to discard first", seat, drawn)
	}
}

func TestSecondRollRepeatsOnFalseJoker(t *testing.T) {
	d := &dealer{}
	for i := range d.tile {
		d.tile[i] = Tile(i)
	}
	// Stack 2 (the die shows 3): its 4th tile from the bottom is a false joker.
	d.setFaces(t, map[Slot]Face{13: FalseJoker, 11: NewFace(Black, 13)})
	m, _ := NewMatch(MustRuleset("classic", ""), 3, 1)
	settle(t, m, d, 3, 4, 2)
	h := m.Hand()
	if s, f := h.Indicator(); s != 11 || f != NewFace(Black, 13) {
		t.Fatalf("indicator = %d %v, want 11 K13", s, f)
	}
	if h.Okey() != NewFace(Black, 1) {
		t.Fatalf("okey after K13 = %v, want K1", h.Okey())
	}
	if got := h.Dice(); !slices.Equal(got, []int{3, 4, 2}) {
		t.Fatalf("dice = %v", got)
	}
	if h.PublicFace(13) != FalseJoker {
		t.Fatalf("the false joker stays known to all")
	}
}

func TestGermanDeal(t *testing.T) {
	d := &dealer{}
	for i := range d.tile {
		d.tile[i] = Tile(i)
	}
	d.setFaces(t, map[Slot]Face{15: NewFace(Yellow, 6)})
	m, _ := NewMatch(MustRuleset("german", ""), 4, 2)
	settle(t, m, d, 4, 1) // stack index 3; bottom tile 15
	h := m.Hand()
	order := h.Order()
	if !slices.Equal(order, []int{3, 0, 1, 2}) {
		t.Fatalf("order = %v", order)
	}
	sizes := []int{14, 13, 13, 13}
	for i, seat := range order {
		if got := len(h.Rack(seat)); got != sizes[i] {
			t.Errorf("seat %d holds %d, want %d", seat, got, sizes[i])
		}
	}
	// First player: towers 1 and 5 after the six-stack, i.e. stacks 4 and 8.
	r := h.Rack(3)
	for _, s := range append(stackSlots(4), stackSlots(8)...) {
		if !slices.Contains(r, s) {
			t.Errorf("first player lacks slot %d of towers 1 and 5", s)
		}
	}
	if h.StockLen() != 106-53-1 {
		t.Errorf("stock = %d", h.StockLen())
	}
}

func TestOrderDrawTies(t *testing.T) {
	d := &dealer{}
	for i := range d.tile {
		d.tile[i] = Tile(i)
	}
	// Seats 0..2 draw slots 105, 104, 103: K9, R9 (tie), B2. Then the tied
	// seats 0 and 1 draw 102, 101: Y3, FJ.
	d.setFaces(t, map[Slot]Face{105: NewFace(Black, 9), 104: NewFace(Red, 9), 103: NewFace(Blue, 2),
		102: NewFace(Yellow, 3), 101: FalseJoker})
	m, err := NewMatch(MustRuleset("turkish-rummy", ""), 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	settle(t, m, d)
	h := m.Hand()
	if got := h.Order(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("order = %v, want [0 1 2]", got)
	}
	if got := len(h.Rack(0)); got != 15 {
		t.Fatalf("first player holds %d", got)
	}
	stock := h.Stock()
	if !slices.Equal(stock[len(stock)-5:], []Slot{105, 104, 103, 102, 101}) {
		t.Fatalf("order-draw tiles go to the bottom of the stock: %v", stock[len(stock)-5:])
	}
}

func TestApplyErrorsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := newDealer(rng)
	m, _ := NewMatch(MustRuleset("classic", ""), 4, 0)
	settle(t, m, d, 2, 2)
	h := m.Hand()
	first, _ := h.Turn()
	other := (first + 1) % 4
	before := m.Hash()
	r := h.Rack(first)
	cases := []struct {
		name string
		a    Action
		want error
	}{
		{"draw with 15 tiles", Action{Kind: ActDraw, Seat: first}, ErrDrawn},
		{"out of turn", Action{Kind: ActDraw, Seat: other}, ErrTurn},
		{"discard not held", Action{Kind: ActDiscard, Seat: first, Slot: h.Rack(other)[0], Faces: d.open(h.Rack(other)[0])}, ErrNotHeld},
		{"discard without face", Action{Kind: ActDiscard, Seat: first, Slot: r[0]}, ErrBadAction},
		{"discard wrong slot face", Action{Kind: ActDiscard, Seat: first, Slot: r[0], Faces: d.open(r[1])}, ErrBadAction},
		{"take with no discard", Action{Kind: ActTake, Seat: first}, ErrDrawn},
		{"roll in play", Action{Kind: ActRoll, Value: 3}, ErrPhase},
		{"exhaust with stock", Action{Kind: ActExhaust, Seat: first}, ErrDrawn},
		{"unknown kind", Action{Kind: 99}, ErrBadAction},
		{"win not winning", func() Action {
			a := Action{Kind: ActWin, Seat: first, Slot: r[0]}
			a.Faces = d.open(r...)
			return a
		}(), nil},
	}
	for _, c := range cases {
		err := m.Apply(c.a)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
		if m.Hash() != before {
			t.Errorf("%s: state changed on error", c.name)
		}
	}
}

func TestPublicFacesStayConsistent(t *testing.T) {
	h, err := NewHand(MustRuleset("classic", ""), 2, []int{0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	r5 := NewFace(Red, 5)
	if err := h.setPublic(SlotFace{7, r5}); err != nil {
		t.Fatal(err)
	}
	if err := h.setPublic(SlotFace{7, r5}); err != nil {
		t.Fatalf("re-opening with the same face: %v", err)
	}
	if err := h.setPublic(SlotFace{7, NewFace(Red, 6)}); !errors.Is(err, ErrFace) {
		t.Fatalf("a slot changing its face: %v", err)
	}
	if err := h.setPublic(SlotFace{8, r5}); err != nil {
		t.Fatalf("the second copy: %v", err)
	}
	if err := h.setPublic(SlotFace{9, r5}); !errors.Is(err, ErrFace) {
		t.Fatalf("a third copy: %v", err)
	}
	if err := h.setPublic(SlotFace{200, r5}); !errors.Is(err, ErrBadAction) {
		t.Fatalf("slot out of range: %v", err)
	}
}

// TestHandCloneIsIndependent: a clone has the hand's state, and moves
// applied to it leave the hand as it was (and the other way round).
func TestHandCloneIsIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := newDealer(rng)
	m, _ := NewMatch(MustRuleset("classic", ""), 4, 0)
	settle(t, m, d, 2, 2)
	h := m.Hand()
	c := h.Clone()
	state := func(x *Hand) string { return string(x.appendState(nil)) }
	before := state(h)
	if state(c) != before {
		t.Fatal("the clone's state differs from the hand's")
	}
	first, _ := h.Turn()
	s := c.Rack(first)[0]
	if err := c.Apply(Action{Kind: ActDiscard, Seat: first, Slot: s, Faces: d.open(s)}); err != nil {
		t.Fatal(err)
	}
	next, _ := c.Turn()
	if err := c.Apply(Action{Kind: ActDraw, Seat: next}); err != nil {
		t.Fatal(err)
	}
	if state(h) != before || h.PublicFace(s) != NoFace || len(h.Rack(first)) != len(c.Rack(first))+1 {
		t.Fatal("moves on the clone changed the hand")
	}
	after := state(c)
	if err := h.Apply(Action{Kind: ActDiscard, Seat: first, Slot: h.Rack(first)[1], Faces: d.open(h.Rack(first)[1])}); err != nil {
		t.Fatal(err)
	}
	if state(c) != after {
		t.Fatal("a move on the hand changed the clone")
	}
}
