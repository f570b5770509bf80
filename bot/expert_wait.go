package bot

import (
	"fmt"

	"github.com/okey-game/okey/engine"
)

// okeyWait decides whether to hold a sure win back for a win with the okey
// as the final discard (which pays more: classic doubles, turkish-rummy pays
// the flat okey amount). It returns the ordinary winning discard to throw
// instead of declaring, when waiting one round is worth more in expected
// points than winning now.
//
// Holding a win that keeps an okey, the seat can throw an ordinary winning
// discard X and keep a winning hand: next turn a drawn tile Y that makes the
// hand without the okey a win lets it finish with the okey; any other tile
// is thrown and the hand still wins. One round of waiting gains, with chance
// q of an out (the live copies of such Y over the unseen tiles), the okey
// win's extra points; it loses, with chance H that an opponent wins first,
// the win now and what that opponent's win costs. H comes from a per-turn
// hazard that grows with the hand's progress. Only wins, never a clock or a
// sample, decide: the choice depends on the position alone.
func (e *Expert) okeyWait(p *position, k *knowledge, ws []win, best win) (engine.Slot, engine.Face, string, bool) {
	if best.okey || best.face == engine.NoFace || !containsFace(p.faces, p.okey) {
		return engine.NoSlot, engine.NoFace, "", false
	}
	players := max(1, k.players)
	if p.stock < 2*players {
		return engine.NoSlot, engine.NoFace, "", false
	}
	x, outs := mostOkeyOuts(p, ws, func(keep []engine.Face) int {
		n, _ := e.okeyOuts(p, k, keep)
		return n
	})
	if outs == 0 {
		return engine.NoSlot, engine.NoFace, "", false
	}
	_, xs := e.okeyOuts(p, k, without(p.faces, x))
	okeyPts := float64(p.points(without(p.faces, x), false, true))
	now := float64(best.points)
	if okeyPts <= now {
		return engine.NoSlot, engine.NoFace, "", false
	}
	q := min(1, drawFactor*float64(outs)/float64(max(1, k.unseen)))
	progress := float64(k.turns) / float64(max(1, k.turns+p.stock))
	hz := e.t.hazard * progress
	stay := 1.0
	for i := 1; i < players; i++ {
		stay *= 1 - hz
	}
	// The opponent's win costs about a base win.
	other := float64(p.rules.WinPoints)
	gain := stay * q * (okeyPts - now)
	loss := (1 - stay) * (now + other)
	if gain <= loss {
		return engine.NoSlot, engine.NoFace, "", false
	}
	s, ok := p.slotOf(x)
	if !ok {
		return engine.NoSlot, engine.NoFace, "", false
	}
	return s, x, fmt.Sprintf("%d live tiles (%s) let you finish with the okey", outs, engine.FormatFaces(xs)), true
}

// okeyOuts counts the live tiles Y (by copy) that make keep, with one okey
// replaced by Y, a winning hand, from the seat's knowledge; it lists up to
// four of their faces.
func (e *Expert) okeyOuts(p *position, k *knowledge, keep []engine.Face) (int, []engine.Face) {
	base := without(keep, p.okey)
	n := 0
	var ys []engine.Face
	for y := engine.Face(0); y < engine.NumFaces; y++ {
		if k.live(y) == 0 {
			continue
		}
		if isWin(p.okey, with(base, y), p.winLen) {
			n += k.live(y)
			if len(ys) < 4 {
				ys = append(ys, y)
			}
		}
	}
	return n, ys
}
