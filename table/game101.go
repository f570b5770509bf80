package table

import (
	"fmt"

	"github.com/okey-game/okey/engine"
)

// game101 drives a match of Okey 101 (protocol.md 5.8).
type game101 struct{ m *engine.Match101 }

func (g *game101) need() engine.Need { return g.m.Game().Need() }
func (g *game101) roll(int) error {
	return fmt.Errorf("%w: Okey 101 rolls no dice", engine.ErrBadAction)
}
func (g *game101) reveal(faces []engine.SlotFace) error {
	return g.m.Apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1, Faces: faces})
}
func (g *game101) playing() bool                        { return g.m.Game().Phase() >= engine.Phase101Play }
func (g *game101) rack(seat int) []engine.Slot          { return g.m.Game().Rack(seat) }
func (g *game101) publicFace(s engine.Slot) engine.Face { return g.m.Game().PublicFace(s) }
func (g *game101) viewFace(v *engine.View, s engine.Slot) engine.Face {
	return v.Face(g.m.Game(), s)
}
func (g *game101) over() bool                  { return g.m.Over() }
func (g *game101) nextHand() error             { return g.m.NextHand() }
func (g *game101) appendState(b []byte) []byte { return g.m.AppendState(b) }
func (g *game101) ranking() []engine.Standing  { return g.m.Ranking() }
func (g *game101) scores() []int               { return g.m.Scores() }
func (g *game101) clone() game                 { return &game101{m: g.m.Clone()} }

func (g *game101) settle(tiles []int) (HandLog, error) {
	res, ok := g.m.Game().Result()
	if !ok {
		return HandLog{}, fmt.Errorf("table: internal error: a 101 round audited before its result")
	}
	opened := make([]engine.Opened, len(g.m.Scores()))
	for s := range opened {
		opened[s] = g.m.Game().Opened(s)
	}
	return HandLog{Result101: &res, Opened101: opened, Scores: g.m.Scores(), Tiles: tiles}, nil
}

func (g *game101) parseMove(seat int, body []byte) (move, error) {
	b, err := decodeMove101(body)
	if err != nil {
		return move{}, err
	}
	mv := move{shares: b.shares, open: b.slots()}
	mv.apply = func(faces []engine.SlotFace) (engine.Slot, error) {
		face := map[engine.Slot]engine.Face{}
		for _, sf := range faces {
			face[sf.Slot] = sf.Face
		}
		a := engine.Action101{Kind: b.kind, Seat: seat, Meld: b.meld, Pos: b.pos}
		switch b.kind {
		case engine.Act101Discard, engine.Act101Swap:
			a.Faces = []engine.SlotFace{{Slot: b.slot, Face: face[b.slot]}}
		case engine.Act101Lay, engine.Act101Add:
			for _, p := range b.melds {
				var mp engine.MeldPlay
				for i, s := range p.tiles {
					mp.Tiles = append(mp.Tiles, engine.SlotFace{Slot: s, Face: face[s]})
					mp.As = append(mp.As, p.as[i])
				}
				a.Melds = append(a.Melds, mp)
			}
		}
		gm := g.m.Game()
		drawn := engine.NoSlot
		if b.kind == engine.Act101Draw {
			if st := gm.Stock(); len(st) > 0 {
				drawn = st[0]
			}
		}
		if err := g.m.Apply(a); err != nil {
			return engine.NoSlot, err
		}
		return drawn, nil
	}
	return mv, nil
}

// move101Body is a decoded 101 move (protocol.md 5.8, "Move bodies").
type move101Body struct {
	kind   engine.Act101
	meld   int         // add, swap
	pos    int         // swap
	slot   engine.Slot // discard, swap
	melds  []meldBody  // lay: the new melds; add: one
	shares []byte
}

type meldBody struct {
	tiles []engine.Slot
	as    []engine.Face
}

// slots returns the slots the move opens, ascending.
func (b move101Body) slots() []engine.Slot {
	var out []engine.Slot
	switch b.kind {
	case engine.Act101Discard, engine.Act101Swap:
		out = []engine.Slot{b.slot}
	case engine.Act101Lay, engine.Act101Add:
		for _, m := range b.melds {
			out = append(out, m.tiles...)
		}
	}
	sortSlots(out)
	return out
}

// Limits of a 101 move body.
const (
	maxMelds101  = 35 // 106 tiles make at most 35 melds of three
	maxMeldTiles = 13 // a run is at most 1..13
)

func (b move101Body) encode() []byte {
	out := []byte{byte(b.kind)}
	switch b.kind {
	case engine.Act101Discard:
		out = append(out, byte(b.slot))
	case engine.Act101Swap:
		out = append(out, byte(b.meld), byte(b.pos), byte(b.slot))
	case engine.Act101Add:
		out = append(out, byte(b.meld))
		out = appendMeldBody(out, b.melds[0])
	case engine.Act101Lay:
		out = append(out, byte(len(b.melds)))
		for _, m := range b.melds {
			out = appendMeldBody(out, m)
		}
	}
	return append(out, b.shares...)
}

func appendMeldBody(out []byte, m meldBody) []byte {
	out = append(out, byte(len(m.tiles)))
	for i, s := range m.tiles {
		out = append(out, byte(s), byte(m.as[i]))
	}
	return out
}

// decodeMove101 decodes a 101 move body. It checks the layout only: counts
// in range, slots below 106 and no slot twice, faces valid, a share list
// exactly when the move opens tiles. The rules are the engine's.
func decodeMove101(p []byte) (move101Body, error) {
	bad := func(format string, a ...any) (move101Body, error) {
		return move101Body{}, fmt.Errorf("%w: 101 move: "+format, append([]any{ErrMalformed}, a...)...)
	}
	if len(p) < 1 {
		return bad("empty body")
	}
	r := reader{b: p[1:]}
	b := move101Body{kind: engine.Act101(p[0]), slot: engine.NoSlot}
	seen := map[engine.Slot]bool{}
	slot := func() engine.Slot {
		s := engine.Slot(r.u8())
		if int(s) >= engine.DeckSize || seen[s] {
			r.err = fmt.Errorf("slot %d out of range or twice", s)
		}
		seen[s] = true
		return s
	}
	meld := func() meldBody {
		k := int(r.u8())
		if k < 1 || k > maxMeldTiles {
			r.err = fmt.Errorf("a meld of %d tiles", k)
			return meldBody{}
		}
		var m meldBody
		for i := 0; i < k && r.err == nil; i++ {
			m.tiles = append(m.tiles, slot())
			f := engine.Face(r.u8())
			if !f.Valid() || f == engine.FalseJoker {
				r.err = fmt.Errorf("face %d", f)
			}
			m.as = append(m.as, f)
		}
		return m
	}
	switch b.kind {
	case engine.Act101Draw, engine.Act101Take, engine.Act101GiveBack, engine.Act101Exhaust:
		if len(p) != 1 {
			return bad("%v carries nothing", b.kind)
		}
		return b, nil
	case engine.Act101Discard:
		b.slot = slot()
	case engine.Act101Swap:
		b.meld, b.pos = int(r.u8()), int(r.u8())
		b.slot = slot()
	case engine.Act101Add:
		b.meld = int(r.u8())
		b.melds = []meldBody{meld()}
	case engine.Act101Lay:
		n := int(r.u8())
		if n < 1 || n > maxMelds101 {
			return bad("a lay of %d melds", n)
		}
		for i := 0; i < n && r.err == nil; i++ {
			b.melds = append(b.melds, meld())
		}
	default:
		return bad("action %d", p[0])
	}
	if r.err != nil {
		return bad("%v", r.err)
	}
	if len(r.b) == 0 {
		return bad("%v without its shares", b.kind)
	}
	b.shares = r.b
	return b, nil
}

// body101 turns a 101 action into its move body (without the shares).
func body101(a engine.Action101) (move101Body, error) {
	b := move101Body{kind: a.Kind, slot: engine.NoSlot, meld: a.Meld, pos: a.Pos}
	switch a.Kind {
	case engine.Act101Draw, engine.Act101Take, engine.Act101GiveBack, engine.Act101Exhaust:
	case engine.Act101Discard, engine.Act101Swap:
		if len(a.Faces) != 1 {
			return b, fmt.Errorf("table: a %v opens one tile, not %d", a.Kind, len(a.Faces))
		}
		b.slot = a.Faces[0].Slot
	case engine.Act101Lay, engine.Act101Add:
		for _, mp := range a.Melds {
			var m meldBody
			for i, sf := range mp.Tiles {
				m.tiles = append(m.tiles, sf.Slot)
				if i < len(mp.As) {
					m.as = append(m.as, mp.As[i])
				}
			}
			if len(m.as) != len(m.tiles) || len(m.tiles) == 0 {
				return b, fmt.Errorf("table: a meld of %d tiles and %d faces", len(m.tiles), len(m.as))
			}
			b.melds = append(b.melds, m)
		}
		if len(b.melds) == 0 || a.Kind == engine.Act101Add && len(b.melds) != 1 {
			return b, fmt.Errorf("table: a %v of %d melds", a.Kind, len(b.melds))
		}
	default:
		return b, fmt.Errorf("table: no move body for %v", a.Kind)
	}
	return b, nil
}
