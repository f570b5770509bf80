package bot

import (
	"fmt"

	"github.com/okey-game/okey/engine"
)

// B101 plays Okey 101 (protocol.md 3.6): it opens as soon as its rack
// allows (engine.BestOpening101), lays more melds and adds to the melds on
// the table once open, takes an okey off the table when it can, keeps its
// okeys, avoids a penalty discard whenever another tile will do, and
// finishes when its rack allows. It is deterministic and keeps no state.
type B101 struct{}

// NewB101 returns the Okey 101 bot.
func NewB101() *B101 { return &B101{} }

// Name101 is the 101 bot's name (okey sim --preset 101 --bots b101).
const Name101 = "b101"

// Name returns "b101".
func (b *B101) Name() string { return Name101 }

// Move refuses: B101 plays only Okey 101 (Move101).
func (b *B101) Move(*engine.Hand, *engine.View) (engine.Action, error) {
	return engine.Action{}, fmt.Errorf("%w: b101 plays only Okey 101", ErrNotToMove)
}

// pos101 is what the bot reads at its turn.
type pos101 struct {
	g      *engine.Game101
	seat   int
	okey   engine.Face
	slots  []engine.Slot
	faces  []engine.Face
	opened engine.Opened
	jd     bool // an okey may stand in a double
}

// plain is the face a tile plays as when it plays as itself (a false
// joker plays as the okey's face).
func (p *pos101) plain(f engine.Face) engine.Face {
	if f == engine.FalseJoker {
		return p.okey
	}
	return f
}

// Move101 returns the seat's next action in a 101 round: one step of its
// turn (draw or take, then lays and adds one at a time, then the discard).
func (b *B101) Move101(g *engine.Game101, v *engine.View) (engine.Action101, error) {
	seat, drawn, taken := g.Turn()
	if seat != v.Seat {
		return engine.Action101{}, fmt.Errorf("%w: seat %d, turn of %d", ErrNotToMove, v.Seat, seat)
	}
	p := &pos101{g: g, seat: seat, okey: g.Okey(), opened: g.Opened(seat), jd: !g.Rules().Game101.NoJokerDoubles}
	p.slots, p.faces = v.Rack(g)
	for i, f := range p.faces {
		if f == engine.NoFace {
			return engine.Action101{}, fmt.Errorf("%w: slot %d", ErrUnknownFace, p.slots[i])
		}
	}
	if !drawn {
		return p.start(), nil
	}
	if g.Turns() > 0 {
		if taken != engine.NoSlot && p.usesOf(taken) {
			if a, ok := p.useTaken(taken); ok {
				return a, nil
			}
			return engine.Action101{Kind: engine.Act101GiveBack, Seat: seat}, nil
		}
		if a, ok := p.meldMove(); ok {
			return a, nil
		}
	}
	return p.discard(), nil
}

// start draws, or takes the previous discard when it can be used at once.
func (p *pos101) start() engine.Action101 {
	g := p.g
	if from := g.LastDiscard(); from >= 0 {
		if pile := g.Pile(from); len(pile) > 0 {
			f := g.PublicFace(pile[len(pile)-1])
			if f != engine.NoFace && p.canUse(f) {
				return engine.Action101{Kind: engine.Act101Take, Seat: p.seat}
			}
		}
	}
	if len(g.Stock()) == 0 {
		return engine.Action101{Kind: engine.Act101Exhaust, Seat: p.seat}
	}
	return engine.Action101{Kind: engine.Act101Draw, Seat: p.seat}
}

// canUse reports whether a tile of face f taken now could be used this
// turn: in an opening with it (the groups the bot would lay use it, by
// engine.UsesTaken, the rule the table checks), or added to a meld once
// open.
func (p *pos101) canUse(f engine.Face) bool {
	if f == p.okey {
		return false // an okey is kept, not laid: taking it would force a lay
	}
	if p.opened != engine.NotOpened {
		add, _ := p.g.AddTargets(f)
		return len(add) > 0 && len(p.faces) >= 1
	}
	rack := append(append([]engine.Face(nil), p.faces...), f)
	o, err := engine.BestOpening101With(p.okey, rack, p.jd, f)
	return err == nil && engine.UsesTaken(p.layable(o, len(rack)), f)
}

// usesOf reports whether the taken slot is still in the rack.
func (p *pos101) usesOf(taken engine.Slot) bool {
	for _, s := range p.slots {
		if s == taken {
			return true
		}
	}
	return false
}

// layable returns the groups of an opening the bot lays (sets and runs
// when they reach 101, else five doubles or more), keeping at least one
// tile for the discard; nil when the rack does not open.
func (p *pos101) layable(o engine.Opening101, rackLen int) []engine.Group {
	for _, gs := range [][]engine.Group{ifOpens(o.Value >= 101, o.Groups), ifOpens(o.Doubles >= 5, o.Pairs)} {
		if gs == nil {
			continue
		}
		if tiles(gs) < rackLen {
			return gs
		}
		// Everything would go: keep the last group back if the rest opens.
		rest := gs[:len(gs)-1]
		if opens(rest) && tiles(rest) > 0 {
			return rest
		}
	}
	return nil
}

func ifOpens(ok bool, gs []engine.Group) []engine.Group {
	if ok && len(gs) > 0 {
		return gs
	}
	return nil
}

func tiles(gs []engine.Group) int {
	n := 0
	for _, g := range gs {
		n += len(g.Tiles)
	}
	return n
}

// opens reports whether groups (all sets and runs, or all doubles) open.
func opens(gs []engine.Group) bool {
	pairs, value := 0, 0
	for _, g := range gs {
		if g.Kind == engine.Pair {
			pairs++
			continue
		}
		for _, f := range g.As {
			value += f.Number()
		}
	}
	return pairs == len(gs) && pairs >= 5 || pairs == 0 && value >= 101
}

// lay builds the lay of groups from the rack, the slot first (when not
// NoSlot) among tiles of its face so that the taken discard is the one laid.
func (p *pos101) lay(groups []engine.Group, first engine.Slot) (engine.Action101, bool) {
	slots := append([]engine.Slot(nil), p.slots...)
	faces := append([]engine.Face(nil), p.faces...)
	for i, s := range slots {
		if s == first && i > 0 {
			copy(slots[1:i+1], slots[:i])
			f := faces[i]
			copy(faces[1:i+1], faces[:i])
			slots[0], faces[0] = s, f
			break
		}
	}
	return engine.LayAction101(p.seat, slots, faces, groups)
}

// useTaken lays or adds the discard taken this turn.
func (p *pos101) useTaken(taken engine.Slot) (engine.Action101, bool) {
	f := p.g.PublicFace(taken)
	if p.opened == engine.NotOpened {
		o, err := engine.BestOpening101With(p.okey, p.faces, p.jd, f)
		if err != nil {
			return engine.Action101{}, false
		}
		gs := p.layable(o, len(p.faces))
		if !engine.UsesTaken(gs, f) {
			return engine.Action101{}, false
		}
		a, ok := p.lay(gs, taken)
		return a, ok && laysSlot(a, taken)
	}
	if len(p.slots) < 2 {
		return engine.Action101{}, false
	}
	if add, _ := p.g.AddTargets(f); len(add) > 0 {
		return p.add(add[0], taken, f), true
	}
	return engine.Action101{}, false
}

func laysSlot(a engine.Action101, s engine.Slot) bool {
	for _, m := range a.Melds {
		for _, t := range m.Tiles {
			if t.Slot == s {
				return true
			}
		}
	}
	return false
}

func (p *pos101) add(meld int, s engine.Slot, f engine.Face) engine.Action101 {
	return engine.Action101{Kind: engine.Act101Add, Seat: p.seat, Meld: meld,
		Melds: []engine.MeldPlay{{Tiles: []engine.SlotFace{{Slot: s, Face: f}}, As: []engine.Face{p.plain(f)}}}}
}

// meldMove opens, lays more melds, takes an okey off the table or adds a
// tile: the first that applies.
func (p *pos101) meldMove() (engine.Action101, bool) {
	o, err := engine.BestOpening101(p.okey, p.faces, p.jd)
	if err != nil {
		return engine.Action101{}, false
	}
	switch p.opened {
	case engine.NotOpened:
		if gs := p.layable(o, len(p.faces)); gs != nil {
			return p.lay(gs, engine.NoSlot)
		}
		return engine.Action101{}, false
	case engine.OpenedSets:
		if gs := keepOne(o.Groups, len(p.faces)); gs != nil {
			return p.lay(gs, engine.NoSlot)
		}
	case engine.OpenedDoubles:
		if gs := keepOne(o.Pairs, len(p.faces)); gs != nil {
			return p.lay(gs, engine.NoSlot)
		}
	}
	if len(p.slots) < 2 {
		return engine.Action101{}, false
	}
	melds := p.g.Melds()
	for i, f := range p.faces {
		if f == p.okey {
			continue // okeys are kept
		}
		add, swap := p.g.AddTargets(f)
		if len(swap) > 0 {
			m := melds[swap[0]]
			for k, t := range m.Tiles {
				if p.g.IsOkeySlot(t) && m.As[k] == p.plain(f) {
					return engine.Action101{Kind: engine.Act101Swap, Seat: p.seat, Meld: swap[0], Pos: k,
						Faces: []engine.SlotFace{{Slot: p.slots[i], Face: f}}}, true
				}
			}
		}
		if len(add) > 0 {
			return p.add(add[0], p.slots[i], f), true
		}
	}
	return engine.Action101{}, false
}

// keepOne returns groups, less the last ones if needed so that a tile
// stays for the discard; nil when nothing is left.
func keepOne(gs []engine.Group, rackLen int) []engine.Group {
	for len(gs) > 0 && tiles(gs) >= rackLen {
		gs = gs[:len(gs)-1]
	}
	if len(gs) == 0 {
		return nil
	}
	return gs
}

// discard picks the tile to discard: never an okey unless it is the last
// tile, never a tile that fits a meld on the table unless it is the last
// (the finishing discard is free), and otherwise the highest tile that no
// meld of the rack's best opening uses.
func (p *pos101) discard() engine.Action101 {
	pick := func(i int) engine.Action101 {
		return engine.Action101{Kind: engine.Act101Discard, Seat: p.seat,
			Faces: []engine.SlotFace{{Slot: p.slots[i], Face: p.faces[i]}}}
	}
	if len(p.slots) == 1 {
		return pick(0)
	}
	used := make([]bool, len(p.faces))
	if o, err := engine.BestOpening101(p.okey, p.faces, p.jd); err == nil {
		markUsed(p.faces, used, o.Groups)
		if p.opened == engine.OpenedDoubles || o.Value < 101 && o.Doubles >= 4 {
			markUsed(p.faces, used, o.Pairs)
		}
	}
	best, bestScore := -1, -1
	for i, f := range p.faces {
		score := 0
		switch {
		case f == p.okey:
			score = -1000
		case p.g.Fits(f):
			score = -500
		}
		if f != p.okey && !used[i] {
			score += 100
		}
		if f != p.okey {
			score += p.plain(f).Number()
		}
		if best < 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	return pick(best)
}

func markUsed(faces []engine.Face, used []bool, gs []engine.Group) {
	for _, g := range gs {
		for _, f := range g.Tiles {
			for i := range faces {
				if !used[i] && faces[i] == f {
					used[i] = true
					break
				}
			}
		}
	}
}

// Strategy101 picks a seat's next move in an Okey 101 round.
type Strategy101 interface {
	Name() string
	Move101(g *engine.Game101, v *engine.View) (engine.Action101, error)
}

// New101 returns the Okey 101 strategy called name: b101, the one 101 bot
// (every level plays it at a 101 table).
func New101(name string) (Strategy101, error) {
	if name != Name101 {
		return nil, fmt.Errorf("bot: Okey 101 is played by %s only, not %q (every level plays %s there)", Name101, name, Name101)
	}
	return NewB101(), nil
}
