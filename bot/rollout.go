package bot

import (
	"math/rand/v2"

	"github.com/okey-game/okey/engine"
)

// rolloutPlayer is the expert whose discard, among its best K discards
// that leave the hand as near a win as its first choice (nearChoices), is
// chosen by paired rollouts: R times, it deals the tiles it has not seen
// (every unseen face, by copy, to the slots whose face it does not know:
// the other racks and the stock, in a uniformly random order) and plays
// the rest of the hand from each candidate's afterstate on that same deal
// (common random numbers), the others with opp and its own seat with
// cont. A candidate's worth is its wins minus the first choice's on the
// same deals; a rival replaces the first choice only when its mean paired
// difference is above margin. It reads only the public hand and its own
// rack (never another face its view may know). Not registered: a
// measurement (issue 29), far over a learned player's time budget.
type rolloutPlayer struct {
	e      *Expert
	k, r   int
	margin float64
	cont   Strategy // its own seat in the rollouts
	opp    Strategy // the other seats in the rollouts
	rng    *rand.Rand

	decisions, switched int // decisions weighed by rollouts, and changed
	// half sums, over the decisions weighed, the second candidate's
	// paired difference in each half of the rollouts (a, b), and a*a,
	// b*b, a*b: their correlation says how much of an estimate is signal.
	half [5]float64
}

// rolloutName is the rollout player's name (not in the registry).
const rolloutName = "rollout"

// newRollout returns the rollout player: the expert's best k discards, r
// rollouts each, continuation cont (a registered strategy) for its own
// seat and greedy for the others.
func newRollout(k, r int, margin float64, cont string, seed uint64) (*rolloutPlayer, error) {
	c, err := New(cont, seed)
	if err != nil {
		return nil, err
	}
	return &rolloutPlayer{e: NewExpert(seed), k: max(2, k), r: max(1, r), margin: margin, cont: c, opp: NewGreedy(),
		rng: rand.New(rand.NewPCG(seed, 0x726f6c6c))}, nil
}

// Name returns "rollout".
func (r *rolloutPlayer) Name() string { return rolloutName }

// Move returns the expert's move, its discard chosen by rollouts among
// the expert's near-equal best.
func (r *rolloutPlayer) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	adv, err := r.e.Advise(h, v)
	if err != nil {
		return engine.Action{}, err
	}
	p, err := read(h, v)
	if err != nil {
		return adv.Action, nil
	}
	cands := nearChoices(adv, p, r.k)
	if cands == nil {
		return adv.Action, nil
	}
	diff := r.estimate(p, cands)
	pick, best := 0, r.margin
	for i := 1; i < len(cands); i++ {
		if diff[i] > best {
			pick, best = i, diff[i]
		}
	}
	r.decisions++
	if pick != 0 {
		r.switched++
	}
	return p.open(engine.ActDiscard, cands[pick].Slot), nil
}

// unseen returns the slots whose face the seat does not know (neither
// public nor in its rack), in slot order, and the faces it has not seen,
// copy by copy in face order; assign gets the faces of its own rack.
// Only the public hand and the seat's own rack are read.
func unseen(p *position, assign *[engine.DeckSize]engine.Face) (slots []engine.Slot, pool []engine.Face) {
	var left [engine.NumFaces]int
	for t := 0; t < engine.DeckSize; t++ {
		left[engine.Tile(t).Face()]++
	}
	var own [engine.DeckSize]bool
	for i, s := range p.slots {
		own[s] = true
		assign[s] = p.faces[i]
		left[p.faces[i]]--
	}
	for s := engine.Slot(0); s < engine.DeckSize; s++ {
		if own[s] {
			continue
		}
		if f := p.h.PublicFace(s); f.Valid() {
			left[f]--
			continue
		}
		slots = append(slots, s)
	}
	for f, n := range left {
		for ; n > 0; n-- {
			pool = append(pool, engine.Face(f))
		}
	}
	return slots, pool
}

// estimate returns each candidate's mean paired difference in wins
// against the first candidate over r.r rollouts (0 for the first).
func (r *rolloutPlayer) estimate(p *position, cands []Choice) []float64 {
	diff := make([]float64, len(cands))
	var assign [engine.DeckSize]engine.Face
	for i := range assign {
		assign[i] = engine.NoFace
	}
	slots, pool := unseen(p, &assign)
	if len(slots) != len(pool) {
		return diff // an inconsistent view: keep the expert's choice
	}
	wins := make([]int, len(cands))
	var half [2]float64
	for i := range r.r {
		r.rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		for j, s := range slots {
			assign[s] = pool[j]
		}
		for c := range cands {
			wins[c] = r.playOut(p, cands[c].Slot, &assign)
		}
		for c := 1; c < len(cands); c++ {
			diff[c] += float64(wins[c] - wins[0])
		}
		half[2*i/r.r] += float64(wins[1] - wins[0])
	}
	a, b := half[0], half[1]
	for j, x := range [...]float64{a, b, a * a, b * b, a * b} {
		r.half[j] += x
	}
	for c := range diff {
		diff[c] /= float64(r.r)
	}
	return diff
}

// playOut plays the hand from the seat's discard of slot to its end on the
// deal assign (every face the public hand does not show) and returns 1
// when the seat wins.
func (r *rolloutPlayer) playOut(p *position, slot engine.Slot, assign *[engine.DeckSize]engine.Face) int {
	h := p.h.Clone()
	if err := h.Apply(engine.Action{Kind: engine.ActDiscard, Seat: p.seat, Slot: slot,
		Faces: []engine.SlotFace{{Slot: slot, Face: assign[slot]}}}); err != nil {
		return 0
	}
	views := map[int]*engine.View{}
	for _, o := range h.Order() {
		views[o] = engine.NewView(o)
		for _, s := range h.Rack(o) {
			views[o].Learn(s, assign[s])
		}
	}
	for steps := 0; h.Phase() != engine.PhaseOver; steps++ {
		if steps > 2000 {
			return 0
		}
		var a engine.Action
		if h.Phase() != engine.PhasePlay {
			need := h.Need()
			if need.Kind != engine.ActReveal {
				return 0
			}
			a = engine.Action{Kind: engine.ActReveal}
			for _, s := range need.Slots {
				a.Faces = append(a.Faces, engine.SlotFace{Slot: s, Face: assign[s]})
			}
		} else {
			seat, _ := h.Turn()
			s := r.opp
			if seat == p.seat {
				s = r.cont
			}
			var err error
			if a, err = s.Move(h, views[seat]); err != nil {
				return 0
			}
			if a.Kind == engine.ActDraw {
				if st := h.Stock(); len(st) > 0 {
					views[seat].Learn(st[0], assign[st[0]])
				}
			}
		}
		if err := h.Apply(a); err != nil {
			return 0
		}
	}
	if res, ok := h.Result(); ok && res.Winner == p.seat {
		return 1
	}
	return 0
}
