package conformance

import (
	"fmt"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// passive is a classic-family seat that, in its first hand, never wins,
// shows or takes: it draws and discards the tile it drew, so that the
// stock runs out to its last tile (the honest moves of a case that must
// draw a slot whose face is already public). From the next hand on it plays
// as its strategy.
type passive struct {
	next      table.Mover
	lastStock int
	done      bool
	drew      engine.Slot
}

func newPassive(next table.Mover) *passive {
	return &passive{next: next, lastStock: -1, drew: engine.NoSlot}
}

func (p *passive) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	if n := h.StockLen(); p.lastStock >= 0 && n > p.lastStock {
		p.done = true // a new hand: the stock is full again
	}
	p.lastStock = h.StockLen()
	if p.done {
		return p.next.Move(h, v)
	}
	seat, drawn := h.Turn()
	if seat != v.Seat {
		return engine.Action{}, fmt.Errorf("conformance: seat %d asked to move on seat %d's turn", v.Seat, seat)
	}
	if !drawn {
		if h.StockLen() == 0 {
			return engine.Action{Kind: engine.ActExhaust, Seat: seat}, nil
		}
		p.drew = h.Stock()[0]
		return engine.Action{Kind: engine.ActDraw, Seat: seat}, nil
	}
	s := p.drew
	if s == engine.NoSlot || !slotIn(h.Rack(seat), s) {
		rack := h.Rack(seat) // the first player's dealt 15th tile: any will do
		s = rack[len(rack)-1]
	}
	p.drew = engine.NoSlot
	return engine.Action{Kind: engine.ActDiscard, Seat: seat, Slot: s,
		Faces: []engine.SlotFace{{Slot: s, Face: v.Face(h, s)}}}, nil
}

func slotIn(s []engine.Slot, x engine.Slot) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// publicEvents replays a classic-family transcript and names what the
// public-slot cases must show: "empty-open" (an open round in which every
// seat sent an empty body: the pending slot's shares were all public),
// "reopened" (a slot opened to everyone twice in one hand), "draw-public"
// (a draw of a slot whose face was already public, followed by its
// draw-shares round), "draw-indicator" (that slot was the indicator) and
// "draw-order-slot" (an order-draw slot), "stalemate".
func publicEvents(t *table.Transcript) ([]string, error) {
	m, err := table.NewMachine(t.Config, nil)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	mark := func(e string) {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	emptyOpens := 0
	opened := map[[2]int]bool{}
	orderSlots := map[[2]int]bool{}
	for _, raw := range t.Chain {
		env := decode(raw)
		var h *engine.Hand
		if mm := m.Match(); mm != nil {
			h = mm.Hand()
		}
		switch {
		case h == nil:
		case env.Kind == table.KindOpen:
			if env.Seat == 0 {
				emptyOpens = 0
				for _, s := range h.Pending() {
					k := [2]int{int(env.Hand), int(s)}
					if opened[k] {
						mark("reopened")
					}
					opened[k] = true
					if h.Phase() == engine.PhaseOrderDraw {
						orderSlots[k] = true
					}
				}
			}
			if len(env.Body) == 0 {
				if emptyOpens++; emptyOpens == len(t.Config.Seats) {
					mark("empty-open")
				}
			}
		case env.Kind == table.KindMove && len(env.Body) > 0 && env.Body[0] == byte(engine.ActDraw):
			s := h.Stock()[0]
			if h.PublicFace(s) != engine.NoFace {
				mark("draw-public")
				if ind, _ := h.Indicator(); ind == s {
					mark("draw-indicator")
				}
				if orderSlots[[2]int{int(env.Hand), int(s)}] {
					mark("draw-order-slot")
				}
			}
		}
		if err := m.Apply(env); err != nil {
			return nil, err
		}
		if mm := m.Match(); mm != nil {
			if res, ok := mm.Hand().Result(); ok && res.Winner < 0 {
				mark("stalemate")
			}
		}
	}
	return out, nil
}
