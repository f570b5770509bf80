package engine

import (
	"errors"
	"math/rand"
	"testing"
)

// randomPlayer101 plays 101 for every seat from the true deck: it opens when
// it can (sets first, then doubles), lays and adds what it can, swaps okeys
// at times, and discards a random tile (mostly one that costs no penalty).
// Now and then it tries a random move, which must be refused without a
// change or be legal.
type randomPlayer101 struct {
	t    *testing.T
	r    *rand.Rand
	m    *Match101
	deck [DeckSize]Face
	log  []Action101
	// counts of what happened, to check that the test exercises the rules
	opens, doubles, finishes, exhausts, cancels, penalties, swaps, givebacks, refusedOK int
}

func (p *randomPlayer101) apply(a Action101) error {
	before := p.m.Hash()
	err := p.m.Apply(a)
	if err != nil {
		if p.m.Hash() != before {
			p.t.Fatalf("refused %v (%v) changed the state", a.Kind, err)
		}
		return err
	}
	p.log = append(p.log, a)
	p.check()
	return nil
}

func (p *randomPlayer101) must(a Action101) {
	p.t.Helper()
	if err := p.apply(a); err != nil {
		p.t.Fatalf("%v by seat %d: %v", a.Kind, a.Seat, err)
	}
}

// check: every slot is in exactly one place, public faces are true, the
// hash is a pure function of the state.
func (p *randomPlayer101) check() {
	g := p.m.Game()
	var where [DeckSize]int
	mark := func(ss []Slot) {
		for _, s := range ss {
			where[s]++
		}
	}
	mark(g.Stock())
	for s := 0; s < g.n; s++ {
		mark(g.Rack(s))
		mark(g.Pile(s))
	}
	for _, m := range g.Melds() {
		mark(m.Tiles)
	}
	if ind, _ := g.Indicator(); ind != NoSlot {
		where[ind]++
	}
	for s, c := range where {
		if c != 1 {
			p.t.Fatalf("slot %d is in %d places", s, c)
		}
		if f := g.PublicFace(Slot(s)); f != NoFace && f != p.deck[s] {
			p.t.Fatalf("slot %d public %v, true %v", s, f, p.deck[s])
		}
	}
	if p.m.Clone().Hash() != p.m.Hash() {
		p.t.Fatal("a clone hashes differently")
	}
}

func (p *randomPlayer101) reveal() {
	a := Action101{Kind: Act101Reveal}
	for _, s := range p.m.Game().Pending() {
		a.Faces = append(a.Faces, SlotFace{s, p.deck[s]})
	}
	p.must(a)
}

// rack returns seat's slots and faces, with slot first if it is there.
func (p *randomPlayer101) rack(seat int, first Slot) ([]Slot, []Face) {
	var slots []Slot
	if first != NoSlot {
		slots = append(slots, first)
	}
	for _, s := range p.m.Game().Rack(seat) {
		if s != first {
			slots = append(slots, s)
		}
	}
	faces := make([]Face, len(slots))
	for i, s := range slots {
		faces[i] = p.deck[s]
	}
	return slots, faces
}

func (p *randomPlayer101) turn() {
	g := p.m.Game()
	seat, drawn, _ := g.Turn()
	okey := g.Okey()
	jd := !g.opt.NoJokerDoubles
	if p.r.Intn(8) == 0 {
		p.randomMove(seat)
		if g = p.m.Game(); g.Phase() != Phase101Play {
			return
		}
		seat, drawn, _ = g.Turn()
	}
	if !drawn {
		canTake := g.LastDiscard() >= 0 && !g.gaveBack
		switch {
		case canTake && (p.r.Intn(3) == 0 || len(g.Stock()) == 0):
			p.must(Action101{Kind: Act101Take, Seat: seat})
			p.useTaken(seat)
			if g = p.m.Game(); g.Phase() != Phase101Play {
				return
			}
			if _, drawn, _ = g.Turn(); !drawn {
				if len(g.Stock()) == 0 {
					p.t.Fatal("gave back with an empty bank and the round goes on")
				}
				p.must(Action101{Kind: Act101Draw, Seat: seat})
			}
		case len(g.Stock()) > 0:
			p.must(Action101{Kind: Act101Draw, Seat: seat})
		default:
			p.must(Action101{Kind: Act101Exhaust, Seat: seat})
			return
		}
	}
	if g.Turns() > 0 {
		p.layAndAdd(seat, okey, jd)
		if g = p.m.Game(); g.Phase() != Phase101Play {
			return
		}
	}
	p.discard(seat)
}

// useTaken uses a taken discard (in an opening or a meld) or gives it back.
func (p *randomPlayer101) useTaken(seat int) {
	g := p.m.Game()
	_, _, taken := g.Turn()
	f := p.deck[taken]
	if g.Opened(seat) == NotOpened {
		slots, faces := p.rack(seat, taken)
		o, err := BestOpening101With(g.Okey(), faces, !g.opt.NoJokerDoubles, f)
		if err != nil {
			p.t.Fatal(err)
		}
		var groups []Group
		if o.Value >= 101 {
			groups = o.Groups
		} else if o.Doubles >= 5 {
			groups = o.Pairs
		}
		if groups != nil {
			if a, ok := LayAction101(seat, slots, faces, groups); ok && p.apply(a) == nil {
				p.opens++
				return
			}
		}
	} else if f != g.Okey() {
		for i, m := range g.Melds() {
			if m.Kind == Pair {
				continue
			}
			a := Action101{Kind: Act101Add, Seat: seat, Meld: i,
				Melds: []MeldPlay{{Tiles: []SlotFace{{taken, f}}, As: []Face{natural(g.Okey(), f)}}}}
			if p.apply(a) == nil {
				return
			}
		}
	}
	p.must(Action101{Kind: Act101GiveBack, Seat: seat})
	p.givebacks++
}

func (p *randomPlayer101) layAndAdd(seat int, okey Face, jd bool) {
	g := p.m.Game()
	slots, faces := p.rack(seat, NoSlot)
	o, err := BestOpening101(okey, faces, jd)
	if err != nil {
		p.t.Fatal(err)
	}
	var groups []Group
	was := g.Opened(seat)
	switch was {
	case NotOpened:
		if o.Value >= 101 {
			groups = o.Groups
		} else if o.Doubles >= 5 {
			groups = o.Pairs
		}
	case OpenedSets:
		groups = o.Groups
	case OpenedDoubles:
		groups = o.Pairs
	}
	if len(groups) > 0 {
		if a, ok := LayAction101(seat, slots, faces, groups); ok {
			err := p.apply(a)
			if err == nil && was == NotOpened {
				p.opens++
				if g.Opened(seat) == OpenedDoubles {
					p.doubles++
				}
			}
			if err != nil && !errors.Is(err, ErrKeepTile) {
				p.t.Fatalf("lay %v: %v", groups, err)
			}
			if g = p.m.Game(); g.Phase() != Phase101Play {
				return
			}
		}
	}
	if g.Opened(seat) == NotOpened {
		return
	}
	// Swap an okey on the table for the tile it stands for, at times.
	for i, m := range g.Melds() {
		for k, t := range m.Tiles {
			if !g.IsOkeySlot(t) || p.r.Intn(2) == 0 {
				continue
			}
			for _, s := range g.Rack(seat) {
				if f := p.deck[s]; f != okey && natural(okey, f) == m.As[k] {
					if p.apply(Action101{Kind: Act101Swap, Seat: seat, Meld: i, Pos: k, Faces: []SlotFace{{s, f}}}) == nil {
						p.swaps++
					}
					break
				}
			}
		}
	}
	// Add every tile that fits, keeping one to discard.
	for changed := true; changed; {
		changed = false
		for _, s := range g.Rack(seat) {
			f := p.deck[s]
			if len(g.Rack(seat)) == 1 || f == okey || !g.Fits(f) {
				continue
			}
			for i := range g.Melds() {
				a := Action101{Kind: Act101Add, Seat: seat, Meld: i,
					Melds: []MeldPlay{{Tiles: []SlotFace{{s, f}}, As: []Face{natural(okey, f)}}}}
				if p.apply(a) == nil {
					changed = true
					break
				}
			}
		}
	}
}

func (p *randomPlayer101) discard(seat int) {
	g := p.m.Game()
	rack := g.Rack(seat)
	pick := rack[p.r.Intn(len(rack))]
	if p.r.Intn(5) != 0 {
		for _, k := range p.r.Perm(len(rack)) {
			if f := p.deck[rack[k]]; f != g.Okey() && !g.Fits(f) {
				pick = rack[k]
				break
			}
		}
	}
	before := len(g.Penalties())
	p.must(Action101{Kind: Act101Discard, Seat: seat, Faces: []SlotFace{{pick, p.deck[pick]}}})
	p.penalties += len(p.m.Game().Penalties()) - before
}

// randomMove tries a move built at random; a refused one must change
// nothing (apply checks), an accepted one is legal and logged.
func (p *randomPlayer101) randomMove(seat int) {
	g := p.m.Game()
	s := Slot(p.r.Intn(DeckSize))
	if p.r.Intn(2) == 0 && len(g.Rack(seat)) > 0 {
		rack := g.Rack(seat)
		s = rack[p.r.Intn(len(rack))]
	}
	f := p.deck[s]
	if p.r.Intn(4) == 0 {
		f = Face(p.r.Intn(NumFaces)) // a lie about a face
	}
	a := Action101{Kind: Act101(1 + p.r.Intn(9)), Seat: seat}
	if p.r.Intn(6) == 0 {
		a.Seat = p.r.Intn(g.n)
	}
	switch a.Kind {
	case Act101Discard, Act101Swap:
		a.Faces = []SlotFace{{s, f}}
		a.Meld, a.Pos = p.r.Intn(3), p.r.Intn(3)
	case Act101Lay, Act101Add:
		a.Melds = []MeldPlay{{Tiles: []SlotFace{{s, f}}, As: []Face{natural(g.Okey(), f)}}}
		a.Meld = p.r.Intn(3)
	case Act101Reveal:
		a.Faces = []SlotFace{{s, f}}
	}
	if err := p.apply(a); err != nil {
		p.refusedOK++
		return
	}
	if a.Kind == Act101Take {
		p.useTaken(a.Seat)
	}
}

// TestRandomPlay101 plays whole matches at random under several rulesets and
// checks after every step that tiles are conserved, faces are true and the
// hash is a function of the state; then replays each match's log on a fresh
// match to the same hash, and checks the totals.
func TestRandomPlay101(t *testing.T) {
	rulesets := []string{"101:rounds=3", "101:no-joker-doubles,rounds=3", "101:rounds=3,swap-before-open",
		"101:no-joker-swap,rounds=3", "101:joker-finish-single-sums,rounds=3,unopened-joker-penalty"}
	matches := 15
	if testing.Short() {
		matches = 5
	}
	var total randomPlayer101
	for seed := 0; seed < matches; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		n := 2 + seed%3
		rules := MustRuleset("101", "")
		rules, _ = ParseRuleset(rulesets[seed%len(rulesets)])

		if n == 4 && seed%2 == 0 {
			rules.Partnerships = true
		}
		dealer := r.Intn(n)
		m, err := NewMatch101(rules, n, dealer)
		if err != nil {
			t.Fatal(err)
		}
		p := &randomPlayer101{t: t, r: r, m: m}
		for hand := 0; !m.Over(); hand++ {
			if hand > 0 {
				if err := m.NextHand(); err != nil {
					t.Fatal(err)
				}
			}
			perm := r.Perm(DeckSize)
			for i, k := range perm {
				p.deck[i] = Tile(k).Face()
			}
			p.reveal()
			for g := m.Game(); g.Phase() == Phase101Indicator; g = m.Game() {
				p.reveal()
			}
			for steps := 0; m.Game().Phase() == Phase101Play; steps++ {
				if steps > 500 {
					t.Fatalf("seed %d: the round does not end", seed)
				}
				p.turn()
			}
			if m.Game().Phase() == Phase101Reveal {
				p.reveal()
			}
			if _, ok := m.Game().Result(); !ok {
				t.Fatalf("seed %d: round not over: %v", seed, m.Game().Phase())
			}
			if hand > rules.Rounds+4*MaxReplays101 {
				t.Fatalf("seed %d: %d hands", seed, hand)
			}
		}
		// Totals: the sum of the counted rounds' points.
		sums := make([]int, n)
		counted := 0
		for _, res := range m.Results() {
			switch res.End {
			case EndFinish:
				p.finishes++
			case EndExhausted:
				p.exhausts++
			case EndCancelled:
				p.cancels++
				continue
			}
			counted++
			for s, v := range res.Points {
				sums[s] += v
			}
		}
		if counted != rules.Rounds {
			t.Fatalf("seed %d: %d rounds counted, want %d", seed, counted, rules.Rounds)
		}
		for s := range sums {
			if sums[s] != m.Scores()[s] {
				t.Fatalf("seed %d: scores %v, results add to %v", seed, m.Scores(), sums)
			}
		}
		rk := m.Ranking()
		for i := 1; i < len(rk); i++ {
			if rk[i].Score < rk[i-1].Score {
				t.Fatalf("seed %d: ranking %v", seed, rk)
			}
		}
		// Replay: the same actions on a fresh match give the same hash.
		m2, _ := NewMatch101(rules, n, dealer)
		for _, a := range p.log {
			if a.Kind == Act101Reveal && m2.Game().Phase() == Phase101Over {
				if err := m2.NextHand(); err != nil {
					t.Fatal(err)
				}
			}
			if err := m2.Apply(a); err != nil {
				t.Fatalf("seed %d: replay: %v: %v", seed, a.Kind, err)
			}
		}
		if m2.Hash() != m.Hash() {
			t.Fatalf("seed %d: the replay ends at another hash", seed)
		}
		total.opens += p.opens
		total.doubles += p.doubles
		total.finishes += p.finishes
		total.exhausts += p.exhausts
		total.penalties += p.penalties
		total.swaps += p.swaps
		total.givebacks += p.givebacks
		total.refusedOK += p.refusedOK
		total.cancels += p.cancels
	}
	t.Logf("opens %d (doubles %d), finishes %d, exhausted %d, cancels %d, penalties %d, swaps %d, give-backs %d, random moves refused %d",
		total.opens, total.doubles, total.finishes, total.exhausts, total.cancels, total.penalties, total.swaps, total.givebacks, total.refusedOK)
	if total.opens == 0 || total.finishes == 0 || total.exhausts == 0 || total.givebacks == 0 || total.refusedOK == 0 {
		t.Fatal("the random play does not reach every kind of step")
	}
}
