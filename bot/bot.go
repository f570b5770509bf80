// Package bot holds strategies that pick a seat's moves in a hand of Okey
// from what that seat may know: the public engine.Hand and the seat's own
// engine.View. A strategy never sees another seat's faces.
//
// Strategies are deterministic: the same state and the same seed give the
// same move. The package does no I/O.
package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/okey-game/okey/engine"
)

// Strategy picks a seat's next move. It is called only when it is that
// seat's turn in PhasePlay.
//
// A Strategy may keep state between calls (greedy remembers how long it has
// waited for an okey finish); it is not safe for concurrent use. One
// Strategy may serve several seats of one table (state is kept per seat).
type Strategy interface {
	Name() string
	Move(h *engine.Hand, v *engine.View) (engine.Action, error)
}

// ErrNotToMove is returned (wrapped) when Move is called out of turn or
// outside PhasePlay.
var ErrNotToMove = errors.New("bot: not this seat's turn to play")

// ErrUnknownFace is returned (wrapped) when the view does not know the face
// of one of its own rack's tiles.
var ErrUnknownFace = errors.New("bot: a face of the own rack is unknown")

// registry lists the strategies in a fixed order (Names keeps it). A
// stronger bot is one more entry here.
var registry = []struct {
	name string
	make func(seed uint64) (Strategy, error)
}{
	{"random", func(seed uint64) (Strategy, error) { return NewRandom(seed), nil }},
	{"greedy", func(seed uint64) (Strategy, error) { return NewGreedy(), nil }},
	{"expert", func(seed uint64) (Strategy, error) { return NewExpert(seed), nil }},
	{LearnedName, func(seed uint64) (Strategy, error) {
		l, err := NewLearned(seed)
		if err != nil {
			return nil, err
		}
		return l, nil
	}},
}

// Names returns the strategy names New accepts, in a fixed order.
func Names() []string {
	out := make([]string, len(registry))
	for i, r := range registry {
		out[i] = r.name
	}
	return out
}

// New returns the strategy called name. seed drives its randomness (the
// greedy strategy has none and ignores it).
func New(name string, seed uint64) (Strategy, error) {
	for _, r := range registry {
		if r.name == name {
			return r.make(seed)
		}
	}
	return nil, fmt.Errorf("bot: unknown strategy %q (have %s)", name, strings.Join(Names(), ", "))
}

// position is what a strategy reads at its turn.
type position struct {
	h      *engine.Hand
	v      *engine.View
	seat   int
	drawn  bool
	rules  engine.Ruleset
	okey   engine.Face
	ind    engine.Face
	slots  []engine.Slot
	faces  []engine.Face
	stock  int
	topOK  bool        // a previous discard may be taken
	top    engine.Face // its face
	winLen int         // tiles in a winning hand (excluding the final discard)
}

// read checks that it is v's seat's turn and collects what it knows.
func read(h *engine.Hand, v *engine.View) (*position, error) {
	if h == nil || v == nil {
		return nil, fmt.Errorf("%w: no hand or view", ErrNotToMove)
	}
	if h.Phase() != engine.PhasePlay {
		return nil, fmt.Errorf("%w: phase %v", ErrNotToMove, h.Phase())
	}
	seat, drawn := h.Turn()
	if seat != v.Seat {
		return nil, fmt.Errorf("%w: seat %d to play, view of seat %d", ErrNotToMove, seat, v.Seat)
	}
	p := &position{h: h, v: v, seat: seat, drawn: drawn, rules: h.Rules(), okey: h.Okey(), stock: h.StockLen()}
	_, p.ind = h.Indicator()
	if !p.okey.Valid() || p.okey.IsFalseJoker() {
		return nil, fmt.Errorf("bot: okey %v unknown in play", p.okey)
	}
	p.winLen = p.rules.HandSize
	p.slots, p.faces = v.Rack(h)
	for i, f := range p.faces {
		if !f.Valid() {
			return nil, fmt.Errorf("%w: seat %d slot %d", ErrUnknownFace, seat, p.slots[i])
		}
	}
	if from := h.LastDiscard(); from >= 0 && !drawn {
		if pile := h.Pile(from); len(pile) > 0 {
			p.top = h.PublicFace(pile[len(pile)-1])
			p.topOK = p.top.Valid()
		}
	}
	return p, nil
}

// slotOf returns the first rack slot holding face f.
func (p *position) slotOf(f engine.Face) (engine.Slot, bool) {
	for i, g := range p.faces {
		if g == f {
			return p.slots[i], true
		}
	}
	return engine.NoSlot, false
}

func (p *position) draw() engine.Action { return engine.Action{Kind: engine.ActDraw, Seat: p.seat} }
func (p *position) take() engine.Action { return engine.Action{Kind: engine.ActTake, Seat: p.seat} }
func (p *position) exhaust() engine.Action {
	return engine.Action{Kind: engine.ActExhaust, Seat: p.seat}
}

// open is a discard or a show of slot s: the action opens its face.
func (p *position) open(kind engine.ActionKind, s engine.Slot) engine.Action {
	return engine.Action{Kind: kind, Seat: p.seat, Slot: s,
		Faces: []engine.SlotFace{{Slot: s, Face: p.v.Face(p.h, s)}}}
}

// showSlots returns the rack slots that may be shown now (gösterme).
func (p *position) showSlots() []engine.Slot {
	if !p.h.CanShow(p.seat) || !p.ind.Valid() {
		return nil
	}
	var out []engine.Slot
	for i, f := range p.faces {
		if f == p.ind {
			out = append(out, p.slots[i])
		}
	}
	return out
}

// win is one way to declare a win now.
type win struct {
	action engine.Action
	face   engine.Face // the final discard's face, NoFace for none
	okey   bool        // the final discard is an okey
	points int         // what the ruleset pays for it (higher is better)
}

// wins lists the wins open to the seat now, after its draw: the no-discard
// seven pairs first (where the ruleset has it), then one win per distinct
// final-discard face in face order. Each action is built by View.WinAction,
// so the engine's own check has passed.
func (p *position) wins() []win {
	if !p.drawn || len(p.faces) != p.winLen+1 {
		return nil
	}
	var out []win
	if p.rules.PairsNoDiscard {
		if a, ok := p.v.WinAction(p.h, engine.NoSlot); ok {
			out = append(out, win{action: a, face: engine.NoFace, points: p.points(p.faces, true, false)})
		}
	}
	for _, f := range winningFaces(p.okey, p.faces, p.winLen) {
		s, _ := p.slotOf(f)
		a, ok := p.v.WinAction(p.h, s)
		if !ok {
			continue
		}
		keep := without(p.faces, f)
		pairs := false
		if len(keep) == engine.WinSize {
			arr, _ := engine.WinningArrangement(p.okey, keep)
			pairs = arr.Kind == engine.Pairs
		}
		out = append(out, win{action: a, face: f, okey: f == p.okey, points: p.points(keep, pairs, f == p.okey)})
	}
	return out
}

// bestWin returns the win that pays most, the first of equals.
func bestWin(ws []win) win {
	best := ws[0]
	for _, w := range ws[1:] {
		if w.points > best.points {
			best = w
		}
	}
	return best
}

// points estimates what a win pays under the ruleset: the base points,
// seven pairs, the okey discard (multiplier or flat amount) and a one-colour
// hand. Only the order matters.
func (p *position) points(keep []engine.Face, pairs, okeyDiscard bool) int {
	r := p.rules
	pts := r.WinPoints
	if pairs && r.PairsPoints > pts {
		pts = r.PairsPoints
	}
	if okeyDiscard {
		if r.OkeyDiscardMult > 1 {
			pts *= r.OkeyDiscardMult
		} else if r.OkeyDiscardFlat > pts {
			pts = r.OkeyDiscardFlat
		}
	}
	if r.OneColour != engine.OneColourOff {
		c := oneColour(p.okey, keep)
		if c != engine.NumColours && (r.OneColour == engine.OneColourAny || c == engine.Red || c == engine.Black) {
			pts *= 2
		}
	}
	return pts
}

// oneColour mirrors the engine's rule: the numbered tiles, okeys aside and
// false jokers as the okey's face, all of one colour.
func oneColour(okey engine.Face, faces []engine.Face) engine.Colour {
	c := engine.Colour(engine.NumColours)
	for _, f := range faces {
		if f == okey {
			continue
		}
		if f == engine.FalseJoker {
			f = okey
		}
		if c == engine.NumColours {
			c = f.Colour()
		} else if f.Colour() != c {
			return engine.NumColours
		}
	}
	return c
}

// winningFaces returns the distinct faces of hand (winLen+1 tiles) whose
// discard leaves a winning hand, in face order.
func winningFaces(okey engine.Face, hand []engine.Face, winLen int) []engine.Face {
	if winLen == engine.WinSize {
		return engine.WinningDiscards(okey, hand)
	}
	var out []engine.Face
	for _, f := range distinct(hand) {
		if isWin(okey, without(hand, f), winLen) {
			out = append(out, f)
		}
	}
	return out
}

// isWin reports whether hand (winLen tiles) wins with a final discard.
func isWin(okey engine.Face, hand []engine.Face, winLen int) bool {
	if winLen == engine.WinSize {
		return engine.IsWinning(okey, hand)
	}
	return len(hand) == winLen && engine.IsGrouped(okey, hand)
}

// distinct returns the distinct faces of hand in face order.
func distinct(hand []engine.Face) []engine.Face {
	var seen [engine.NumFaces]bool
	for _, f := range hand {
		if f.Valid() {
			seen[f] = true
		}
	}
	var out []engine.Face
	for f := engine.Face(0); f < engine.NumFaces; f++ {
		if seen[f] {
			out = append(out, f)
		}
	}
	return out
}

// without returns a copy of hand without one tile of face f.
func without(hand []engine.Face, f engine.Face) []engine.Face {
	out := make([]engine.Face, 0, len(hand))
	done := false
	for _, g := range hand {
		if g == f && !done {
			done = true
			continue
		}
		out = append(out, g)
	}
	return out
}

// with returns a copy of hand plus a tile of face f.
func with(hand []engine.Face, f engine.Face) []engine.Face {
	out := make([]engine.Face, 0, len(hand)+1)
	return append(append(out, hand...), f)
}
