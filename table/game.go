package table

import (
	"fmt"

	"github.com/okey-game/okey/engine"
)

// game is the rules engine the Machine drives: the classic family's
// engine.Match or Okey 101's engine.Match101. The machine owns the
// cryptography (who opens which slot, and when); the game says what it
// waits for, takes actions whose faces the machine has opened, and gives
// its public state for the state hash.
type game interface {
	// need says what the current hand waits for: a die (ActRoll), a
	// reveal of Slots to everyone (ActReveal), a seat's move, or Over.
	need() engine.Need
	roll(v int) error
	reveal(faces []engine.SlotFace) error
	// playing reports whether the deal is done and racks may be opened
	// privately to their holders.
	playing() bool
	rack(seat int) []engine.Slot
	publicFace(s engine.Slot) engine.Face
	// viewFace is a slot's face as a seat's view knows it (public or its own).
	viewFace(v *engine.View, s engine.Slot) engine.Face
	// parseMove decodes a move body of seat: the slots of its rack the move
	// opens to everyone (ascending), the shares that open them, and how to
	// apply it once their faces are known; apply returns the slot drawn
	// from the stock (engine.NoSlot if none), which the others then open
	// privately to the mover.
	parseMove(seat int, body []byte) (move, error)
	// settle ends an audited hand: tiles[slot] is every slot's tile.
	settle(tiles []int) (HandLog, error)
	over() bool
	nextHand() error
	appendState(b []byte) []byte
	ranking() []engine.Standing
	scores() []int
	clone() game
}

// move is a decoded move body.
type move struct {
	open   []engine.Slot
	shares []byte
	apply  func(faces []engine.SlotFace) (drawn engine.Slot, err error)
}

// newGame starts the match of the config's preset.
func newGame(r engine.Ruleset, n, dealer int) (game, error) {
	if r.Preset == engine.Preset101 {
		m, err := engine.NewMatch101(r, n, dealer)
		if err != nil {
			return nil, err
		}
		return &game101{m: m}, nil
	}
	m, err := engine.NewMatch(r, n, dealer)
	if err != nil {
		return nil, err
	}
	return &classicGame{m: m}, nil
}

// classicGame drives the classic family (classic, turkish, german).
type classicGame struct{ m *engine.Match }

func (g *classicGame) need() engine.Need { return g.m.Hand().Need() }
func (g *classicGame) roll(v int) error {
	return g.m.Apply(engine.Action{Kind: engine.ActRoll, Value: v})
}
func (g *classicGame) reveal(faces []engine.SlotFace) error {
	return g.m.Apply(engine.Action{Kind: engine.ActReveal, Faces: faces})
}
func (g *classicGame) playing() bool                        { return g.m.Hand().Phase() >= engine.PhasePlay }
func (g *classicGame) rack(seat int) []engine.Slot          { return g.m.Hand().Rack(seat) }
func (g *classicGame) publicFace(s engine.Slot) engine.Face { return g.m.Hand().PublicFace(s) }
func (g *classicGame) viewFace(v *engine.View, s engine.Slot) engine.Face {
	return v.Face(g.m.Hand(), s)
}
func (g *classicGame) over() bool                  { return g.m.Over() }
func (g *classicGame) nextHand() error             { return g.m.NextHand() }
func (g *classicGame) appendState(b []byte) []byte { return g.m.AppendState(b) }
func (g *classicGame) ranking() []engine.Standing  { return g.m.Ranking() }
func (g *classicGame) scores() []int               { return g.m.Scores() }
func (g *classicGame) clone() game                 { return &classicGame{m: g.m.Clone()} }

func (g *classicGame) parseMove(seat int, body []byte) (move, error) {
	b, err := decodeMove(body)
	if err != nil {
		return move{}, err
	}
	h := g.m.Hand()
	mv := move{shares: b.Shares}
	switch b.Action {
	case engine.ActDiscard, engine.ActShow:
		mv.open = []engine.Slot{b.Slot}
	case engine.ActWin:
		mv.open = h.Rack(seat)
	}
	mv.apply = func(faces []engine.SlotFace) (engine.Slot, error) {
		h := g.m.Hand()
		drawn := engine.NoSlot
		if b.Action == engine.ActDraw && h.StockLen() > 0 {
			drawn = h.Stock()[0]
		}
		return drawn, g.m.Apply(engine.Action{Kind: b.Action, Seat: seat, Slot: b.Slot, Faces: faces})
	}
	return mv, nil
}

func (g *classicGame) settle(tiles []int) (HandLog, error) {
	h := g.m.Hand()
	// The audit reveals every dealt rack: the engine settles the hand (the
	// turkish-rummy upcard bonus) from these public facts.
	n := g.m.Players()
	dealt := make([][]engine.Face, n)
	for s := range dealt {
		for _, sl := range h.Dealt(s) {
			dealt[s] = append(dealt[s], engine.Tile(tiles[sl]).Face())
		}
	}
	if err := g.m.Settle(dealt); err != nil {
		return HandLog{}, fmt.Errorf("table: internal error: settle: %w", err)
	}
	res, _ := h.Result()
	return HandLog{Result: res, Scores: g.m.Scores(), Tiles: tiles}, nil
}
