package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/okey-game/okey/engine"
)

// play101 plays a whole 101 match of n b101 bots with the deck shuffled by
// seed (no cryptography: every face is known to the test, and each seat's
// view learns only its own rack), and returns the match and how many seats
// opened in its rounds.
func play101(t *testing.T, n int, seed uint64, ruleset string) (*engine.Match101, int) {
	t.Helper()
	r, err := engine.ParseRuleset(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 101))
	m, err := engine.NewMatch101(r, n, int(seed)%n)
	if err != nil {
		t.Fatal(err)
	}
	b := NewB101()
	opened := 0
	for hand := 0; ; hand++ {
		perm := rng.Perm(engine.DeckSize)
		face := func(s engine.Slot) engine.Face { return engine.Tile(perm[s]).Face() }
		views := make([]*engine.View, n)
		for s := range views {
			views[s] = engine.NewView(s)
		}
		for step := 0; m.Game().Phase() != engine.Phase101Over; step++ {
			if step > 2000 {
				t.Fatalf("seed %d hand %d: the round does not end", seed, hand)
			}
			g := m.Game()
			need := g.Need()
			if need.Kind == engine.ActReveal {
				var fs []engine.SlotFace
				for _, s := range need.Slots {
					fs = append(fs, engine.SlotFace{Slot: s, Face: face(s)})
				}
				if err := m.Apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1, Faces: fs}); err != nil {
					t.Fatalf("seed %d: reveal: %v", seed, err)
				}
				continue
			}
			v := views[need.Seat]
			for _, s := range g.Rack(need.Seat) {
				v.Learn(s, face(s))
			}
			a, err := b.Move101(g, v)
			if err != nil {
				t.Fatalf("seed %d hand %d step %d: move: %v", seed, hand, step, err)
			}
			if a.Kind == engine.Act101Discard {
				checkDiscard(t, g, a, face)
			}
			if err := m.Apply(a); err != nil {
				t.Fatalf("seed %d hand %d step %d: seat %d's %v refused: %v", seed, hand, step, need.Seat, a.Kind, err)
			}
		}
		for s := 0; s < n; s++ {
			if m.Game().Opened(s) != engine.NotOpened {
				opened++
			}
		}
		if m.Over() {
			return m, opened
		}
		if err := m.NextHand(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestB101OpensAndFinishes plays whole matches of b101 bots: every move the
// bot makes is legal, the bots open, and rounds end with a finish, not only
// with an exhausted bank. It fails if the bots never open or never finish.
func TestB101OpensAndFinishes(t *testing.T) {
	finishes, opens, rounds, penaltiesAvoidable := 0, 0, 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		n := 2 + int(seed)%3
		m, opened := play101(t, n, seed, "101:rounds=3")
		opens += opened
		for _, res := range m.Results() {
			rounds++
			if res.End == engine.EndFinish {
				finishes++
			}
			for _, p := range res.Penalties {
				if p.Kind == engine.PenaltyJokerDiscard {
					penaltiesAvoidable++
				}
			}
		}
	}
	t.Logf("%d rounds, %d finishes, %d openings, %d okey discards", rounds, finishes, opens, penaltiesAvoidable)
	if opens == 0 {
		t.Fatal("the bots never opened")
	}
	if finishes == 0 {
		t.Fatal("the bots never finished a round")
	}
	if penaltiesAvoidable > 0 {
		t.Fatalf("the bots discarded an okey %d times", penaltiesAvoidable)
	}
}

// TestB101Refuses: b101 plays only 101 and only its own turn.
func TestB101Refuses(t *testing.T) {
	b := NewB101()
	if _, err := b.Move(nil, nil); err == nil {
		t.Fatal("b101 played a classic hand")
	}
	r, _ := engine.ParseRuleset("101")
	m, _ := engine.NewMatch101(r, 4, 0)
	if _, err := b.Move101(m.Game(), engine.NewView(1)); err == nil {
		t.Fatal("b101 moved out of turn")
	}
}

// checkDiscard fails when a discard that is not the last tile costs a
// penalty (an okey, or a tile that fits a meld on the table) while another
// tile of the rack would not have.
func checkDiscard(t *testing.T, g *engine.Game101, a engine.Action101, face func(engine.Slot) engine.Face) {
	t.Helper()
	rack := g.Rack(a.Seat)
	if len(rack) == 1 {
		return // the finishing discard is free
	}
	costs := func(f engine.Face) bool { return f == g.Okey() || g.Fits(f) }
	if !costs(a.Faces[0].Face) {
		return
	}
	for _, s := range rack {
		if f := face(s); !costs(f) {
			t.Fatalf("seat %d discarded %v (a penalty) while it held %v", a.Seat, a.Faces[0].Face, f)
		}
	}
}
