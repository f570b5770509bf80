package conformance

import (
	"fmt"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// Play101 is how a scripted seat of an Okey 101 conformance match plays one
// hand. Every move it makes is an honest move: the script only chooses,
// among the moves the rules allow, the ones the suite must show (a give
// back, an exhausted bank, an all-doubles cancel, the penalty discards).
type Play101 struct {
	// Doubles: open only with five doubles or more, lay only doubles, keep
	// pairs and okeys (the hands where every seat does so are cancelled).
	Doubles bool
	// Passive: open with sets and runs leaving the okeys in the rack, then
	// never lay or add again: the bank runs out.
	Passive bool
	// GiveBack: once in the hand, take the previous discard and give it
	// back (then draw; with the bank empty the give back ends the round).
	GiveBack bool
	// GiveBackEmpty: with the bank empty, take the previous discard and
	// give it back, which ends the round.
	GiveBackEmpty bool
	// OkeyDiscard, Addable: once in the hand, discard an okey, or a tile
	// that fits a meld on the table, when the rack holds one (never as the
	// finishing discard).
	OkeyDiscard, Addable bool
}

// script101 is a seat's mover: the b101 bot, or the plays above, by hand
// (the hands are counted from what the seat sees; the last plan repeats).
type script101 struct {
	b    *bot.B101
	plan []Play101

	hand      int
	lastTurns int
	lastStock int
	seen      bool

	tookAt   int // the discard count of the turn of the forced take, -1
	gaveBack int // the discard count of the turn of the give back, -1

	okeyDone, addableDone bool
}

func newScript101(plan ...Play101) *script101 {
	return &script101{b: bot.NewB101(), plan: plan, tookAt: -1, gaveBack: -1}
}

// Move refuses: the script plays only Okey 101.
func (s *script101) Move(*engine.Hand, *engine.View) (engine.Action, error) {
	return engine.Action{}, fmt.Errorf("conformance: the 101 script plays only Okey 101")
}

func (s *script101) play() Play101 {
	if s.hand < len(s.plan) {
		return s.plan[s.hand]
	}
	return s.plan[len(s.plan)-1]
}

// Move101 returns the seat's next action.
func (s *script101) Move101(g *engine.Game101, v *engine.View) (engine.Action101, error) {
	stock := len(g.Stock())
	if s.seen && (g.Turns() < s.lastTurns || stock > s.lastStock) {
		s.hand++
		s.tookAt, s.gaveBack = -1, -1
		s.okeyDone, s.addableDone = false, false
	}
	s.seen, s.lastTurns, s.lastStock = true, g.Turns(), stock
	seat, drawn, taken := g.Turn()
	if seat != v.Seat {
		return engine.Action101{}, fmt.Errorf("conformance: seat %d, turn of %d", v.Seat, seat)
	}
	p := s.play()
	turns := g.Turns()
	// The forced take and give back.
	if !drawn {
		if s.gaveBack == turns {
			return engine.Action101{Kind: engine.Act101Draw, Seat: seat}, nil
		}
		if (p.GiveBack && s.tookAt < 0 || p.GiveBackEmpty && stock == 0) && turns > 0 && g.LastDiscard() >= 0 && len(g.Pile(g.LastDiscard())) > 0 {
			s.tookAt = turns
			return engine.Action101{Kind: engine.Act101Take, Seat: seat}, nil
		}
	}
	if drawn && taken != engine.NoSlot && s.tookAt == turns && s.gaveBack != turns && inRack(g, seat, taken) {
		s.gaveBack = turns
		return engine.Action101{Kind: engine.Act101GiveBack, Seat: seat}, nil
	}
	var a engine.Action101
	var err error
	switch {
	case p.Doubles || p.Passive:
		a, err = s.own(g, v, p)
	default:
		a, err = s.b.Move101(g, v)
	}
	if err != nil || a.Kind != engine.Act101Discard {
		return a, err
	}
	return s.penaltyDiscard(g, v, p, a), nil
}

func inRack(g *engine.Game101, seat int, t engine.Slot) bool {
	for _, s := range g.Rack(seat) {
		if s == t {
			return true
		}
	}
	return false
}

// own plays a Doubles or Passive hand: draw (exhaust on an empty bank),
// open, lay more doubles (Doubles), discard.
func (s *script101) own(g *engine.Game101, v *engine.View, p Play101) (engine.Action101, error) {
	seat, drawn, _ := g.Turn()
	if !drawn {
		if len(g.Stock()) == 0 {
			return engine.Action101{Kind: engine.Act101Exhaust, Seat: seat}, nil
		}
		return engine.Action101{Kind: engine.Act101Draw, Seat: seat}, nil
	}
	slots, faces := v.Rack(g)
	okey := g.Okey()
	jd := !g.Rules().Game101.NoJokerDoubles
	opened := g.Opened(seat)
	if g.Turns() > 0 {
		switch {
		case p.Doubles && opened != engine.OpenedSets:
			o, err := engine.BestOpening101(okey, faces, jd)
			if err != nil {
				return engine.Action101{}, err
			}
			gs := o.Pairs
			for len(gs) > 0 && 2*len(gs) >= len(faces) {
				gs = gs[:len(gs)-1]
			}
			if opened == engine.OpenedDoubles && len(gs) > 0 || opened == engine.NotOpened && len(gs) >= 5 {
				if a, ok := engine.LayAction101(seat, slots, faces, gs); ok {
					return a, nil
				}
			}
		case p.Passive && opened == engine.NotOpened:
			// Sets and runs without the okeys: they stay in the rack.
			var ps []engine.Slot
			var fs []engine.Face
			for i, f := range faces {
				if f != okey {
					ps, fs = append(ps, slots[i]), append(fs, f)
				}
			}
			o, err := engine.BestOpening101(okey, fs, jd)
			if err != nil {
				return engine.Action101{}, err
			}
			n := 0
			for _, gr := range o.Groups {
				n += len(gr.Tiles)
			}
			if o.Value >= 101 && n < len(faces) {
				if a, ok := engine.LayAction101(seat, ps, fs, o.Groups); ok {
					return a, nil
				}
			}
		}
	}
	// Discard: never an okey, a tile of a pair (Doubles) or a tile that
	// fits a meld; the highest number among the rest.
	keep := make([]bool, len(faces))
	if p.Doubles {
		if o, err := engine.BestOpening101(okey, faces, jd); err == nil {
			for _, gr := range o.Pairs {
				for _, f := range gr.Tiles {
					for i := range faces {
						if !keep[i] && faces[i] == f {
							keep[i] = true
							break
						}
					}
				}
			}
		}
	}
	best, bestScore := -1, 0
	for i, f := range faces {
		score := 1000
		if f == okey {
			score = 0
		} else {
			n := f.Number()
			if f == engine.FalseJoker {
				n = okey.Number()
			}
			score += n
			if keep[i] {
				score -= 500
			}
			if g.Fits(f) {
				score -= 700
			}
		}
		if best < 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	return engine.Action101{Kind: engine.Act101Discard, Seat: seat,
		Faces: []engine.SlotFace{{Slot: slots[best], Face: faces[best]}}}, nil
}

// penaltyDiscard replaces a discard by an okey or an addable tile once in
// the match when the play asks for it and the rack keeps a tile.
func (s *script101) penaltyDiscard(g *engine.Game101, v *engine.View, p Play101, a engine.Action101) engine.Action101 {
	slots, faces := v.Rack(g)
	if len(slots) < 2 {
		return a
	}
	pick := func(i int) engine.Action101 {
		return engine.Action101{Kind: engine.Act101Discard, Seat: a.Seat,
			Faces: []engine.SlotFace{{Slot: slots[i], Face: faces[i]}}}
	}
	if p.OkeyDiscard && !s.okeyDone {
		for i, f := range faces {
			if f == g.Okey() {
				s.okeyDone = true
				return pick(i)
			}
		}
	}
	if p.Addable && !s.addableDone {
		for i, f := range faces {
			if f != g.Okey() && g.Fits(f) {
				s.addableDone = true
				return pick(i)
			}
		}
	}
	return a
}

// events101 replays a 101 transcript and lists what it shows, once each,
// in the order first seen, each also as "hN:event" for hand N: the suite's generator checks that the cases
// meant to show a rule do.
func events101(t *table.Transcript) ([]string, error) {
	m, err := table.NewMachine(t.Config, nil)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	hand := 0
	add := func(e string) {
		for _, e := range []string{e, fmt.Sprintf("h%d:%s", hand, e)} {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	scored := -1
	for _, raw := range t.Chain {
		env, err := table.DecodeEnvelope(raw)
		if err != nil {
			return nil, err
		}
		var before *engine.Game101
		if mm := m.Match101(); mm != nil && mm.Game() != nil {
			before = mm.Clone().Game()
		}
		if err := m.Apply(env); err != nil {
			return nil, err
		}
		mm := m.Match101()
		if mm == nil {
			continue
		}
		hand = mm.HandNumber()
		g := mm.Game()
		if g.Phase() == engine.Phase101Indicator {
			for _, s := range g.Stock() {
				if g.PublicFace(s) == engine.FalseJoker {
					add("false-joker-candidate")
				}
			}
		}
		if env.Kind == table.KindMove && len(env.Body) > 0 && before != nil {
			switch engine.Act101(env.Body[0]) {
			case engine.Act101GiveBack:
				add("give-back")
				if len(before.Stock()) == 0 {
					add("give-back-empty-bank")
				}
			case engine.Act101Take:
				add("take")
			case engine.Act101Exhaust:
				add("exhaust")
			case engine.Act101Swap:
				add("swap")
			case engine.Act101Add:
				add("add")
			case engine.Act101Discard:
				if len(env.Body) > 1 {
					f := g.PublicFace(engine.Slot(env.Body[1]))
					if add0, swap := before.AddTargets(f); len(add0) == 0 && len(swap) > 0 {
						for _, k := range swap {
							if before.Melds()[k].Kind == engine.Pair {
								add("addable-discard-okey-in-double")
							}
						}
					}
				}
			}
		}
		res, ok := g.Result()
		if !ok || int(mm.HandNumber()) == scored {
			continue
		}
		scored = int(mm.HandNumber())
		switch res.End {
		case engine.EndCancelled:
			add("cancel")
			if len(g.Penalties()) > 0 {
				add("cancel-after-penalty")
			}
			for _, p := range g.Penalties() {
				add("cancel-after-" + p.Kind.String())
			}
			continue
		case engine.EndExhausted:
			add("exhausted")
			all := true
			for s := 0; s < mm.Players(); s++ {
				all = all && g.Opened(s) == engine.OpenedDoubles
			}
			if all {
				add("all-doubles-played-on")
			}
		case engine.EndFinish:
			add("finish")
			if g.Opened(res.Finisher) == engine.OpenedDoubles {
				add("finish-by-doubles-opener")
			}
		}
		if res.JokerFinish {
			add("joker-finish")
		}
		if res.OneTurn {
			add("one-turn-finish")
		}
		inHand := map[int]int{}
		for _, p := range res.Penalties {
			add(p.Kind.String())
			if p.Kind == engine.PenaltyJokerInHand {
				inHand[p.Seat]++
				if inHand[p.Seat] == 2 {
					add("two-okeys-in-hand")
				}
			}
		}
		for s := 0; s < mm.Players(); s++ {
			switch {
			case s == res.Finisher:
			case g.Opened(s) == engine.NotOpened:
				add("unopened")
			case g.Opened(s) == engine.OpenedDoubles:
				add("doubles-opener-sum")
			}
		}
	}
	if mm := m.Match101(); mm != nil {
		add(fmt.Sprintf("hands=%d", mm.HandNumber()+1))
	}
	return out, nil
}
