package tablemodel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// hint shows the best opening the rack allows (and selects it), or once
// open the tiles that can be added and where, and the discard B101 would
// make (never a penalty discard when another tile will do).
func (m *Table) hint101() {
	g := m.round()
	if g.Phase() != engine.Phase101Play {
		m.Refuse(i18n.T("no round is being played"))
		return
	}
	slots, faces := m.Snap.View.Rack(g)
	if slices.Contains(faces, engine.NoFace) {
		m.Refuse(i18n.T("wait until all your tiles are open"))
		return
	}
	seat := m.Snap.Seat
	m.Hinted = nil
	// info says how the rack stands (the opening, what fits the melds);
	// parts say what to do now, and go first: the message line keeps its
	// first parts when it is too narrow for all (fitParts).
	var info, parts []string
	keep := "" // the discard's part, which a narrow line keeps
	opened := g.Opened(seat)
	turn, drawn, _ := g.Turn()
	// After the draw: B101's moves of this turn up to its discard. Every
	// one of them is named before the discard, which may cost a penalty
	// until they are made (a swap or a lay that takes the tile's place, a
	// lay that empties the rack but for it, an add of its twin).
	var (
		plan, rest []engine.Action101
		disc       engine.Action101
		finish     bool
		planned    bool
	)
	if turn == seat && drawn {
		plan, disc, finish, planned = TurnPlan101(m.Snap.Match101, m.Snap.View)
		rest = plan
	}
	if opened == engine.NotOpened {
		o, err := engine.BestOpening101(g.Okey(), faces, !g.Rules().Game101.NoJokerDoubles)
		if err != nil {
			m.Refuse(Refusal(game101, err))
			return
		}
		gs := o.Groups
		// The dealer's first move is a discard: its opening waits for
		// its next turn.
		later := turn == seat && g.DealerFirst()
		switch {
		case o.Value >= 101 && later:
			info = append(info, i18n.T("you can open at your next turn: %d points in %d melds", o.Value, len(o.Groups)))
		case o.Value >= 101:
			info = append(info, i18n.T("you can open: %d points in %d melds", o.Value, len(o.Groups)))
		case o.Doubles >= 5 && later:
			gs = o.Pairs
			info = append(info, i18n.T("you can open with %d doubles at your next turn", o.Doubles))
		case o.Doubles >= 5:
			gs = o.Pairs
			info = append(info, i18n.T("you can open with %d doubles", o.Doubles))
		case o.Doubles*20 > o.Value:
			gs = o.Pairs
			info = append(info, i18n.T("best opening: %d doubles of 5 (or %d points of 101)", o.Doubles, o.Value))
		default:
			info = append(info, i18n.T("best opening: %d points of 101 (or %d doubles of 5)", o.Value, o.Doubles))
		}
		m.Sel = map[engine.Slot]bool{}
		used := make([]bool, len(slots))
		for _, gr := range gs {
			for _, f := range gr.Tiles {
				for k := range slots {
					if !used[k] && faces[k] == f {
						used[k] = true
						m.Sel[slots[k]] = true
						break
					}
				}
			}
		}
		switch {
		case planned && len(plan) > 0 && plan[0].Kind == engine.Act101Lay:
			// B101 opens: the selection is its opening, the move goes
			// first, and the moves after it are named below.
			m.Sel = LaidSlots(plan[0])
			parts, info = append(info, i18n.T("selected: l lays it")), nil
			rest = plan[1:]
		case (o.Value >= 101 || o.Doubles >= 5) && turn == seat && drawn:
			// Say l only when the engine takes the lay now (the dealer's
			// first move is a discard).
			if a, ok := engine.LayAction101(seat, slots, faces, gs); ok && m.Snap.Match101.Clone().Apply(a) == nil {
				// The opening is the move: it goes first.
				parts, info = append(info, i18n.T("selected: l lays it")), nil
			}
		}
	} else {
		var adds []string
		for k, f := range faces {
			if f == g.Okey() {
				continue
			}
			add, swap := g.AddTargets(f)
			for _, i := range add {
				adds = append(adds, fmt.Sprintf("%s→%c", f, HandleOf(i)))
				if m.Hinted == nil {
					m.Hinted = map[engine.Slot]bool{}
				}
				m.Hinted[slots[k]] = true
			}
			for _, i := range swap {
				adds = append(adds, fmt.Sprintf("%s⇄%c", f, HandleOf(i)))
			}
		}
		if len(adds) > 0 {
			info = append(info, i18n.T("you can add: %s", strings.Join(adds, " ")))
		} else {
			info = append(info, i18n.T("nothing of yours fits the melds on the table"))
		}
	}
	if turn == seat && !drawn {
		// The first move of the turn: the key, and the previous discard
		// when B101 would take it (it can be used this turn).
		v := m.Snap.View
		a, err := bot.NewB101().Move101(g, &v)
		switch {
		case err == nil && a.Kind == engine.Act101Take:
			parts = append(parts, i18n.T("take the previous discard %s (t): you can use it this turn", PrevDiscard101(g).String()))
		case err == nil && a.Kind == engine.Act101Exhaust:
			parts = append(parts, i18n.T("the bank is empty: d ends the round"))
		default:
			parts = append(parts, i18n.T("draw from the bank (d)"))
		}
	}
	if planned {
		if opened != engine.NotOpened && len(plan) > 0 {
			switch a := plan[0]; {
			case a.Kind == engine.Act101Swap && len(a.Faces) == 1:
				parts = append(parts, i18n.T("swap: your %s takes the okey of meld %c", a.Faces[0].Face.String(), HandleOf(a.Meld)))
				rest = plan[1:]
			case a.Kind == engine.Act101Lay:
				parts = append(parts, Plural(len(a.Melds), i18n.T("you can lay 1 more meld (selected): l lays it"), i18n.T("you can lay %d more melds (selected): l lays them", len(a.Melds))))
				m.Sel = LaidSlots(a)
				rest = plan[1:]
			}
		}
		parts = append(parts, planParts(g.Okey(), rest)...)
		// One part with its discard: a line too narrow drops both.
		then := ""
		if len(plan) > 0 {
			then = i18n.T("then") + " "
		}
		f := disc.Faces[0]
		switch {
		case finish:
			keep = then + i18n.T("discard the %s (x): you finish", f.Face.String())
		case g.DealerFirst():
			keep = i18n.T("the dealer starts by discarding: discard the %s (x)", f.Face.String())
		default:
			keep = then + i18n.T("discard the %s (x)", f.Face.String())
		}
		parts = append(parts, keep)
		if m.Hinted == nil {
			m.Hinted = map[engine.Slot]bool{}
		}
		m.Hinted[f.Slot] = true
		if p := m.Rack.Find(f.Slot); p >= 0 && m.Rack.Lifted < 0 {
			m.Rack.Cursor = p
		}
	}
	// The discard is kept on a line too narrow for a long plan: the plan's
	// later steps go first.
	m.SayKeeping(strings.Join(append(parts, info...), " · "), keep)
}

// LaidSlots is the set of rack slots a lay puts on the table.
func LaidSlots(a engine.Action101) map[engine.Slot]bool {
	sel := map[engine.Slot]bool{}
	for _, m := range a.Melds {
		for _, sf := range m.Tiles {
			sel[sf.Slot] = true
		}
	}
	return sel
}

// TurnPlan101 plays B101's moves of this turn on a copy of the match (from
// the player's view) up to its discard: the moves before it in order, the
// discard, and whether the discard is the rack's last tile (it finishes,
// and costs no penalty). ok is false when B101 would give a taken discard
// back, or its turn has no discard.
func TurnPlan101(m *engine.Match101, v engine.View) (steps []engine.Action101, discard engine.Action101, finish, ok bool) {
	c := m.Clone()
	b := bot.NewB101()
	for i := 0; i < 40; i++ {
		a, err := b.Move101(c.Game(), &v)
		if err != nil || a.Kind == engine.Act101GiveBack || a.Kind == engine.Act101Draw || a.Kind == engine.Act101Take ||
			a.Kind == engine.Act101Exhaust {
			return nil, engine.Action101{}, false, false
		}
		if a.Kind == engine.Act101Discard {
			if len(a.Faces) != 1 {
				return nil, engine.Action101{}, false, false
			}
			return steps, a, len(c.Game().Rack(a.Seat)) == 1, true
		}
		if c.Apply(a) != nil {
			return nil, engine.Action101{}, false, false
		}
		steps = append(steps, a)
	}
	return nil, engine.Action101{}, false, false
}

// planParts names moves of a turn in order: adds in a row as one part
// ("add B4→1 B1→6"), a swap ("swap K9⇄4"), a lay of melds ("lay R1* Y1
// B1", an okey written as the face it stands for, starred).
func planParts(okey engine.Face, steps []engine.Action101) []string {
	var parts, adds []string
	flush := func() {
		if len(adds) > 0 {
			parts = append(parts, i18n.T("add %s", strings.Join(adds, " ")))
			adds = nil
		}
	}
	for _, a := range steps {
		switch a.Kind {
		case engine.Act101Add:
			for _, md := range a.Melds {
				for _, sf := range md.Tiles {
					adds = append(adds, fmt.Sprintf("%s→%c", sf.Face, HandleOf(a.Meld)))
				}
			}
		case engine.Act101Swap:
			flush()
			if len(a.Faces) == 1 {
				parts = append(parts, i18n.T("swap %s", fmt.Sprintf("%s⇄%c", a.Faces[0].Face, HandleOf(a.Meld))))
			}
		case engine.Act101Lay:
			flush()
			var melds []string
			for _, md := range a.Melds {
				fs := make([]string, len(md.Tiles))
				for k, sf := range md.Tiles {
					fs[k] = sf.Face.String()
					if sf.Face == okey && k < len(md.As) {
						fs[k] = md.As[k].String() + "*"
					}
				}
				melds = append(melds, strings.Join(fs, " "))
			}
			parts = append(parts, i18n.T("lay %s", strings.Join(melds, ", ")))
		}
	}
	flush()
	return parts
}
