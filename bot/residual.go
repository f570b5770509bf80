package bot

import (
	"fmt"
	"math/rand/v2"

	"github.com/okey-game/okey/engine"
)

// ResidualName is the name of the expert with a learned correction (see
// Residual). It is not in the registry: it is measured by tests and
// okey train, not played.
const ResidualName = "residual"

// The residual net's inputs: the learned player's (NetInputs, the state a
// discard leaves) and, after them, what the expert found for that discard:
// its rank among the expert's choices (0-3), the gap between its value and
// the best one (thermometer, see residualGaps), its live outs (the expert's
// outs, in threes, capped at 12) and the danger the expert counted
// (thermometer, see residualDangers).
const (
	rRank    = NetInputs
	rGap     = rRank + 4
	rOuts    = rGap + len(residualGaps)
	rDanger  = rOuts + 12
	rInputsN = rDanger + len(residualDangers)
	// ResidualInputs is the number of the residual net's inputs.
	ResidualInputs = rInputsN
)

var (
	residualGaps    = [...]float64{0.005, 0.02, 0.05, 0.1, 0.2, 0.4}
	residualDangers = [...]float64{0.015, 0.04, 0.08}
)

// Residual plays as the expert, except that among the expert's best K
// discards that leave the hand as near a win as its first choice, it
// throws the one the net values most; the net's inputs are the state the
// discard leaves and the expert's own figures for it (rank, value gap,
// outs, danger), so the net is a correction learned on top of the
// expert's evaluation. It is fitted to the Monte-Carlo returns of the
// expert's own play (on-policy), with exploration among those K discards
// (Epsilon) so that the alternatives have returns too. A nil net plays
// the expert's choice (the data for the first fit).
type Residual struct {
	e   *Expert
	net *Net
	// K is the number of the expert's choices weighed (at least 2).
	K int
	// Epsilon is the share of random choices among those K (self-play).
	Epsilon float64
	// Margin: another discard replaces the expert's first choice only when
	// the net values it above that choice by more than Margin.
	Margin float64
	rng    *rand.Rand
	// record, when set, gets the state of every decision with two or more
	// discards weighed (the one played).
	record func(seat int, active []uint16)
	buf    []uint16
}

// NewResidual returns the expert corrected by net (nil: the expert's
// choices) among its best k discards.
func NewResidual(net *Net, k int, seed uint64) (*Residual, error) {
	if net != nil && net.In != ResidualInputs {
		return nil, fmt.Errorf("%w: %d inputs, the residual player has %d", ErrNet, net.In, ResidualInputs)
	}
	return &Residual{e: NewExpert(seed), net: net, K: max(2, k), rng: rand.New(rand.NewPCG(seed, 0x7265736964))}, nil
}

// Name returns "residual".
func (r *Residual) Name() string { return ResidualName }

// Move returns the expert's move, corrected among its best discards.
func (r *Residual) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	adv, err := r.e.Advise(h, v)
	if err != nil {
		return engine.Action{}, err
	}
	a := adv.Action
	p, err := read(h, v)
	if err != nil {
		return a, nil
	}
	cands := nearChoices(adv, p, r.K)
	if cands == nil {
		return a, nil
	}
	ctx := newStateCtx(p)
	enc := func(i int) []uint16 {
		r.buf = residualEncode(r.buf[:0], ctx, p.faces, cands, i)
		return r.buf
	}
	pick := 0
	switch {
	case r.Epsilon > 0 && r.rng.Float64() < r.Epsilon:
		pick = r.rng.IntN(len(cands))
	case r.net != nil:
		w0, _ := r.net.Eval(enc(0))
		best := w0 + r.Margin
		for i := 1; i < len(cands); i++ {
			if w, _ := r.net.Eval(enc(i)); w > best {
				pick, best = i, w
			}
		}
	}
	if r.record != nil {
		r.record(p.seat, append([]uint16(nil), enc(pick)...))
	}
	return p.open(engine.ActDiscard, cands[pick].Slot), nil
}

// residualEncode appends the residual net's inputs for the discard of
// cands[i] from hand.
func residualEncode(out []uint16, ctx *stateCtx, hand []engine.Face, cands []Choice, i int) []uint16 {
	c := cands[i]
	out = ctx.after(hand, c.Face, &ctx.pub).encode(out)
	out = append(out, uint16(rRank+min(i, 3)))
	gap := cands[0].Value - c.Value
	for j, g := range residualGaps {
		if gap > g {
			out = append(out, uint16(rGap+j))
		}
	}
	out = hot(out, rOuts, c.Outs/3, 12)
	for j, d := range residualDangers {
		if c.Danger > d {
			out = append(out, uint16(rDanger+j))
		}
	}
	return out
}

// nearChoices returns the expert's best k discards that leave the hand as
// near a win as its first choice (never an okey), its first choice first;
// nil when the expert's move is not such a discard or fewer than two
// qualify.
func nearChoices(adv Advice, p *position, k int) []Choice {
	if adv.Action.Kind != engine.ActDiscard || len(adv.Choices) < 2 || !p.drawn || len(p.faces) != p.winLen+1 {
		return nil
	}
	cs := adv.Choices
	var cands []Choice
	for _, c := range cs {
		if len(cands) == k {
			break
		}
		if c.Kind == engine.ActDiscard && c.Dist == cs[0].Dist && c.Slot != engine.NoSlot && c.Face != p.okey {
			cands = append(cands, c)
		}
	}
	if len(cands) < 2 || cands[0].Face != cs[0].Face {
		return nil
	}
	return cands
}
