package bot

import (
	"slices"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// rolloutPosition plays greedy hands until seat 0 has
// drawn and the expert weighs two or more near-equal discards; it returns
// the table there.
func rolloutPosition(t *testing.T, seed uint64) *table {
	t.Helper()
	e := NewExpert(1)
	g := NewGreedy()
	for i := range 20 {
		tb := newTable(t, "classic", 4, i%4, seed+uint64(i))
		tb.settle()
		for steps := 0; tb.h().Phase() == engine.PhasePlay && steps < 400; steps++ {
			h := tb.h()
			seat, drawn := h.Turn()
			v := tb.views[seat]
			if seat == 0 && drawn && h.Turns() > 8 {
				adv, err := e.Advise(h, v)
				if err != nil {
					t.Fatal(err)
				}
				p, err := read(h, v)
				if err != nil {
					t.Fatal(err)
				}
				if nearChoices(adv, p, 3) != nil {
					return tb
				}
			}
			a, err := g.Move(h, v)
			if err != nil {
				t.Fatal(err)
			}
			if err := tb.apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no position with two near-equal discards")
	return nil
}

// rolloutDiffs returns the rollout player's paired differences and move at
// the table's position, seen through view v.
func rolloutDiffs(t *testing.T, tb *table, v *engine.View, seed uint64) ([]float64, engine.Action) {
	t.Helper()
	r, err := newRollout(3, 6, -1, "greedy", seed)
	if err != nil {
		t.Fatal(err)
	}
	h := tb.h()
	adv, err := r.e.Advise(h, v)
	if err != nil {
		t.Fatal(err)
	}
	p, err := read(h, v)
	if err != nil {
		t.Fatal(err)
	}
	cands := nearChoices(adv, p, r.k)
	if cands == nil {
		t.Fatal("no candidates")
	}
	d := r.estimate(p, cands)
	r2, _ := newRollout(3, 6, -1, "greedy", seed)
	a, err := r2.Move(h, v)
	if err != nil {
		t.Fatal(err)
	}
	return d, a
}

// TestRolloutDoesNotCheat: the rollout player's estimates and move are
// the same whatever its view knows beyond its rack and the public hand: a
// view that also knows every hidden face, and one that knows them
// permuted among the hidden slots (other racks and stock), give exactly
// the honest view's figures. A player that dealt only the faces its view
// does not know would differ.
func TestRolloutDoesNotCheat(t *testing.T) {
	lane.NoRace(t) // whole hands of the rollout bot, pure code
	moved := false
	for _, seed := range []uint64{12} {
		tb := rolloutPosition(t, seed*100)
		h := tb.h()
		honest := tb.views[0]
		own := map[engine.Slot]bool{}
		for _, s := range h.Rack(0) {
			own[s] = true
		}
		var hidden []engine.Slot
		for s := engine.Slot(0); s < engine.DeckSize; s++ {
			if !own[s] && h.PublicFace(s) == engine.NoFace {
				hidden = append(hidden, s)
			}
		}
		omni := engine.NewView(0)
		perm := engine.NewView(0)
		for s := engine.Slot(0); s < engine.DeckSize; s++ {
			omni.Learn(s, honest.Face(h, s))
			perm.Learn(s, honest.Face(h, s))
		}
		for i, s := range hidden {
			omni.Learn(s, tb.d.face(s))
			// The hidden faces rotated by one: the same multiset, every
			// hidden slot (nearly always) another face.
			perm.Learn(s, tb.d.face(hidden[(i+1)%len(hidden)]))
		}
		d0, a0 := rolloutDiffs(t, tb, honest, seed)
		d1, a1 := rolloutDiffs(t, tb, omni, seed)
		d2, a2 := rolloutDiffs(t, tb, perm, seed)
		if !slices.Equal(d0, d1) || !slices.Equal(d0, d2) {
			t.Fatalf("seed %d: estimates depend on hidden faces the view knows: honest %v, all-knowing %v, permuted %v", seed, d0, d1, d2)
		}
		if a0.Slot != a1.Slot || a0.Slot != a2.Slot || a0.Kind != engine.ActDiscard {
			t.Fatalf("seed %d: moves %+v, %+v, %+v", seed, a0, a1, a2)
		}
		t.Logf("seed %d: %d hidden slots, diffs %v", seed, len(hidden), d0)
		moved = moved || slices.ContainsFunc(d0, func(x float64) bool { return x != 0 })
	}
	if !moved {
		t.Fatal("every estimate was 0: the test would not see a cheat")
	}
}

// TestRolloutDeterministic: the same seed gives the same estimates and the
// same arena (whatever the workers); with a margin no difference can pass,
// it plays as the expert (without the race detector only).
func TestRolloutDeterministic(t *testing.T) {
	lane.NoRace(t)
	if testing.Short() {
		t.Skip("thousands of hands")
	}
	tb := rolloutPosition(t, 500)
	d1, _ := rolloutDiffs(t, tb, tb.views[0], 7)
	d2, _ := rolloutDiffs(t, tb, tb.views[0], 7)
	if !slices.Equal(d1, d2) {
		t.Fatalf("same seed, other estimates: %v and %v", d1, d2)
	}
	rules := engine.MustRuleset("classic", "")
	mk := func(margin float64) func(string, uint64) (Strategy, error) {
		return func(name string, seed uint64) (Strategy, error) {
			if name == "expert" {
				return newRollout(2, 1, margin, "greedy", seed)
			}
			return New(name, seed)
		}
	}
	cfg := ArenaConfig{Rules: rules, Bots: []string{"expert", "greedy", "greedy", "greedy"}, Hands: 2, Seed: 5, Workers: 1, Make: mk(-1)}
	a, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	b, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.hands, b.hands) || a.Stats[0] != b.Stats[0] {
		t.Fatalf("same seed, other arena: %+v against %+v", a.Stats[0], b.Stats[0])
	}
	cfg.Make = mk(2) // a paired difference is at most 1
	c, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Make = nil
	e, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.hands, e.hands) || c.Stats[0] != e.Stats[0] {
		t.Fatalf("with margin 2 the rollout player played otherwise than the expert: %+v against %+v", c.Stats[0], e.Stats[0])
	}
}
