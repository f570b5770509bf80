package engine

import (
	"math/rand"
	"testing"
)

// FuzzParseRuleset101: the 101 options parse to a canonical text that
// round-trips; nothing panics.
func FuzzParseRuleset101(f *testing.F) {
	for _, s := range []string{"101", "101:rounds=3", "101:partnerships,rounds=11,timer=60", "101:no-joker-doubles,swap-before-open",
		"101:rounds=4", "101:rounds=3,rounds=5", "101:,,no-cancel", "101:no-cancel=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRuleset(s)
		if err != nil {
			return
		}
		c := r.String()
		r2, err := ParseRuleset(c)
		if err != nil || r2 != r || r2.String() != c {
			t.Fatalf("%q: canonical %q does not round-trip (%v)", s, c, err)
		}
	})
}

// FuzzGame101Apply: actions decoded from bytes (true faces, any kind, seat,
// meld, position and face played as), applied to a round dealt
// from a shuffled deck, never panic; a refused one changes nothing; an
// accepted one keeps every slot in one place.
func FuzzGame101Apply(f *testing.F) {
	f.Add(int64(1), []byte{8, 0, 3, 0, 0, 2, 1, 0, 0, 0, 5, 1, 30, 4, 0})
	f.Add(int64(7), []byte{2, 1, 0, 0, 0, 8, 1, 50, 9, 0, 6, 1, 40, 40, 2})
	f.Fuzz(func(t *testing.T, seed int64, data []byte) {
		r := rand.New(rand.NewSource(seed))
		n := 2 + r.Intn(3)
		m, err := NewMatch101(MustRuleset("101", "swap-before-open"), n, r.Intn(n))
		if err != nil {
			t.Fatal(err)
		}
		p := &randomPlayer101{t: t, r: r, m: m}
		for i, k := range r.Perm(DeckSize) {
			p.deck[i] = Tile(k).Face()
		}
		for m.Game().Phase() == Phase101Indicator {
			p.reveal()
		}
		for len(data) >= 5 && m.Game().Phase() == Phase101Play {
			k, seat, x, y, z := data[0], data[1], data[2], data[3], data[4]
			data = data[5:]
			g := m.Game()
			s := Slot(x % DeckSize)
			if rk := g.Rack(int(seat) % n); x&0x80 != 0 && len(rk) > 0 {
				s = rk[int(x)%len(rk)]
			}
			// Faces are true: the table opens them with the cryptography of
			// section 4, so a lie about a face never reaches the engine
			// (lies about what a tile plays as do).
			face := p.deck[s]
			a := Action101{Kind: Act101(k % 11), Seat: int(seat) % (n + 1), Meld: int(z % 8), Pos: int(z>>3) % 5}
			switch a.Kind {
			case Act101Discard, Act101Swap, Act101Reveal:
				a.Faces = []SlotFace{{s, face}}
			case Act101Lay, Act101Add:
				as := natural(g.Okey(), face)
				if y&0x40 != 0 {
					as = Face(z % 53)
				}
				a.Melds = []MeldPlay{{Tiles: []SlotFace{{s, face}}, As: []Face{as}}}
			}
			p.apply(a) // checks: refused changes nothing, accepted keeps invariants
			if a.Kind == Act101Take && m.Game().Phase() == Phase101Play {
				if seat, _, taken := m.Game().Turn(); taken != NoSlot {
					p.useTaken(seat)
				}
			}
		}
	})
}
