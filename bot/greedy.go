package bot

import "github.com/okey-game/okey/engine"

// The okey wait: greedy holds back a sure ordinary win for an okey finish
// (which pays double, or the flat okey amount) only while it is cheap.
const (
	// OkeyWaitStock: wait only while the stock holds more tiles than this.
	OkeyWaitStock = 20
	// OkeyWaitTurns: wait at most this many turns in a row.
	OkeyWaitTurns = 3
	// OkeyWaitOuts: wait only when at least this many unseen tiles would
	// each let the okey be the final discard of a winning hand.
	OkeyWaitOuts = 2
)

// Greedy plays to get as few tiles from a win as it can, one move at a
// time. Its rules, in order:
//
//  1. Gösterme: when it may show (before its first draw) and holds the
//     indicator's face, it shows that tile.
//  2. Before drawing: it takes the previous discard when that lets it win
//     now (holding a winning hand already: only when the okey becomes a
//     winning final discard), or when the distance after its best discard with the taken tile
//     is lower than the distance of its hand now (what it keeps when it
//     draws and throws the drawn tile away). With an empty stock it takes
//     only to win, and otherwise ends the hand (exhaust). Else it draws.
//  3. After drawing, when it can win: it declares the win that pays most
//     (okey discard, seven pairs, one colour; the no-discard seven pairs
//     where the ruleset allows it), unless the okey wait applies.
//  4. The okey wait: the best win has an ordinary final discard; an
//     ordinary winning discard X leaves a hand that holds an okey; the stock
//     has more than OkeyWaitStock tiles; it has waited fewer than
//     OkeyWaitTurns turns in a row; and the hand kept after X, with one okey
//     replaced by a tile Y, still wins for at least OkeyWaitOuts unseen
//     tiles Y (faces it has not seen in its rack, on the piles or as the
//     indicator; X is the ordinary winning discard with the most such
//     outs). Then it discards X and keeps the winning hand: drawing such a
//     Y next turn wins with the okey as the final discard; any other tile is
//     thrown and the hand still wins.
//  5. Otherwise it discards the tile whose removal leaves the fewest tiles
//     from a win. Never an okey (it discards one only as a winning final
//     discard). Ties go to the tile linked to the fewest others, then the
//     lowest face.
//
// "Distance" is engine.Distance/BestDiscards when the hand is near a win
// (estimate <= 2) and the rules' winning hand is 14 tiles; otherwise the
// cheap estimate of this package (see estimate), because the exact search
// takes milliseconds per hand far from a win and is not available for the
// 13-tile hands of the german preset.
type Greedy struct {
	waits []waitState // per seat
}

type waitState struct {
	turns, stock, count int
}

// NewGreedy returns a greedy strategy. It has no randomness.
func NewGreedy() *Greedy { return &Greedy{} }

// Name returns "greedy".
func (g *Greedy) Name() string { return "greedy" }

// Move returns the greedy move for the seat to play.
func (g *Greedy) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	p, err := read(h, v)
	if err != nil {
		return engine.Action{}, err
	}
	if shows := p.showSlots(); len(shows) > 0 {
		return p.open(engine.ActShow, shows[0]), nil
	}
	if !p.drawn {
		if p.topOK && g.takes(p) {
			return p.take(), nil
		}
		if p.stock == 0 {
			return p.exhaust(), nil
		}
		return p.draw(), nil
	}
	if ws := p.wins(); len(ws) > 0 {
		best := bestWin(ws)
		if s, ok := g.wait(p, ws, best); ok {
			return p.open(engine.ActDiscard, s), nil
		}
		return best.action, nil
	}
	if len(p.faces) != p.winLen+1 {
		// Not a rack the rules produce; any non-okey tile will do.
		return p.open(engine.ActDiscard, p.slots[fallbackIndex(p)]), nil
	}
	f := chooseDiscard(p.okey, p.faces, p.winLen)
	s, _ := p.slotOf(f)
	return p.open(engine.ActDiscard, s), nil
}

func fallbackIndex(p *position) int {
	for i, f := range p.faces {
		if f != p.okey {
			return i
		}
	}
	return 0
}

// takes reports whether greedy takes the previous discard (rule 2).
func (g *Greedy) takes(p *position) bool {
	hand := p.faces
	if len(hand) != p.winLen {
		return false
	}
	plus := with(hand, p.top)
	wf := winningFaces(p.okey, plus, p.winLen)
	if isWin(p.okey, hand, p.winLen) {
		// Holding a winning hand (the okey wait): a drawn tile can be thrown
		// back for the same win, so take only for an okey finish.
		return containsFace(wf, p.okey)
	}
	if len(wf) > 0 {
		return true
	}
	if p.rules.PairsNoDiscard && len(plus) == engine.WinSize {
		if arr, ok := engine.WinningArrangement(p.okey, plus); ok && arr.Kind == engine.Pairs {
			return true
		}
	}
	if p.stock == 0 {
		return false
	}
	e0 := estimate(p.okey, hand, p.winLen)
	if p.winLen == engine.WinSize && e0 <= nearEstimate {
		_, d1 := engine.BestDiscards(p.okey, plus)
		return d1 >= 0 && d1 < engine.Distance(p.okey, hand)
	}
	for _, f := range distinct(plus) {
		if f != p.okey && estimate(p.okey, without(plus, f), p.winLen) < e0 {
			return true
		}
	}
	return false
}

// chooseDiscard returns the face to discard from hand (winLen+1 tiles) that
// is not a winning discard (rule 5).
func chooseDiscard(okey engine.Face, hand []engine.Face, winLen int) engine.Face {
	type cand struct {
		face       engine.Face
		est, links int
	}
	var cs []cand
	minEst := winLen + 1
	for _, f := range distinct(hand) {
		if f == okey {
			continue
		}
		i := indexOf(hand, f)
		c := cand{face: f, est: estimate(okey, without(hand, f), winLen), links: links(okey, hand, i)}
		cs = append(cs, c)
		minEst = min(minEst, c.est)
	}
	if len(cs) == 0 { // only okeys: cannot happen with two okeys in a deck
		return hand[0]
	}
	if winLen == engine.WinSize && minEst <= nearEstimate {
		best, _ := engine.BestDiscards(okey, hand)
		var exact []cand
		for _, c := range cs {
			if containsFace(best, c.face) {
				exact = append(exact, c)
			}
		}
		if len(exact) > 0 {
			cs = exact
		}
	}
	b := cs[0]
	for _, c := range cs[1:] {
		if c.est < b.est || c.est == b.est && c.links < b.links {
			b = c
		}
	}
	return b.face
}

// wait applies the okey wait (rule 4): it returns the slot of the ordinary
// final discard to throw instead of winning now. Of the ordinary winning
// discards it throws the one that leaves the most outs (the first of
// equals).
func (g *Greedy) wait(p *position, ws []win, best win) (engine.Slot, bool) {
	if best.okey || best.face == engine.NoFace || p.stock <= OkeyWaitStock || !containsFace(p.faces, p.okey) {
		return engine.NoSlot, false
	}
	for len(g.waits) <= p.seat {
		g.waits = append(g.waits, waitState{})
	}
	w := g.waits[p.seat]
	count := 0
	if w.count > 0 && p.h.Turns()-w.turns == len(p.h.Order()) && p.stock < w.stock {
		count = w.count
	}
	if count >= OkeyWaitTurns {
		return engine.NoSlot, false
	}
	x, most := mostOkeyOuts(p, ws, func(keep []engine.Face) int { return okeyOuts(p, keep) })
	if most < OkeyWaitOuts {
		return engine.NoSlot, false
	}
	s, ok := p.slotOf(x)
	if !ok {
		return engine.NoSlot, false
	}
	g.waits[p.seat] = waitState{turns: p.h.Turns(), stock: p.stock, count: count + 1}
	return s, true
}

// mostOkeyOuts returns, of the ordinary winning discards in ws that leave a
// hand holding an okey, the one whose kept hand has the most outs (counted
// by outs; the first of equals), and that count (0: none).
func mostOkeyOuts(p *position, ws []win, outs func(keep []engine.Face) int) (engine.Face, int) {
	x, most := engine.NoFace, 0
	for _, c := range ws {
		if c.okey || c.face == engine.NoFace {
			continue
		}
		keep := without(p.faces, c.face)
		if !containsFace(keep, p.okey) {
			continue
		}
		if n := outs(keep); n > most {
			x, most = c.face, n
		}
	}
	return x, most
}

// okeyOuts counts the tiles the seat has not seen whose face Y makes keep,
// with one okey replaced by Y, a winning hand: each such draw wins with the
// okey as the final discard.
func okeyOuts(p *position, keep []engine.Face) int {
	var seen [engine.NumFaces]int
	for s := 0; s < engine.DeckSize; s++ {
		if f := p.v.Face(p.h, engine.Slot(s)); f.Valid() {
			seen[f]++
		}
	}
	base := without(keep, p.okey)
	outs := 0
	for y := engine.Face(0); y < engine.NumFaces; y++ {
		if y == p.okey || seen[y] >= 2 {
			continue
		}
		if isWin(p.okey, with(base, y), p.winLen) {
			outs += 2 - seen[y]
		}
	}
	return outs
}

func indexOf(hand []engine.Face, f engine.Face) int {
	for i, g := range hand {
		if g == f {
			return i
		}
	}
	return -1
}

func containsFace(fs []engine.Face, f engine.Face) bool { return indexOf(fs, f) >= 0 }
