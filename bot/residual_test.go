package bot

import (
	"errors"
	"slices"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// rankNet returns a residual net that values the discard of the expert's
// rank r above the others (its only weight reads the rank input).
func rankNet(r int) *Net {
	n := NewNet(ResidualInputs, 1, 1, 1)
	clear(n.W1)
	clear(n.B1)
	n.W1[rRank+r] = 5
	n.W2[0] = 1
	n.B2[0] = 0
	n.W3[0], n.W3[1] = 1, 0
	n.B3[0], n.B3[1] = 0, 0
	return n
}

// rankOf returns the expert's rank a residual sample's inputs carry (-1:
// none or more than one).
func rankOf(active []uint16) int {
	r := -1
	for _, i := range active {
		if i >= rRank && i < rRank+4 {
			if r >= 0 {
				return -1
			}
			r = int(i - rRank)
		}
	}
	return r
}

func TestNewResidualChecksTheNet(t *testing.T) {
	if _, err := NewResidual(NewNet(NetInputs, 4, 2, 1), 3, 1); !errors.Is(err, ErrNet) {
		t.Fatalf("a net of %d inputs: %v, want ErrNet", NetInputs, err)
	}
	if _, err := NewResidual(rankNet(0), 3, 1); err != nil {
		t.Fatal(err)
	}
}

// TestResidualWithoutNetIsTheExpert: with no net and no exploration the
// residual player makes the expert's every move (the same hands, the same
// results on the same deals).
func TestResidualWithoutNetIsTheExpert(t *testing.T) {
	lane.NoRace(t) // arena hands of pure bots: the arena's workers run under the race detector in TestArenaDeterministicAndBalanced
	rules := engine.MustRuleset("classic", "")
	cfg := ArenaConfig{Rules: rules, Bots: []string{"expert", "greedy", "greedy", "greedy"}, Hands: 8, Seed: 3}
	a, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Make = func(name string, seed uint64) (Strategy, error) {
		if name == "expert" {
			return NewResidual(nil, 3, seed)
		}
		return New(name, seed)
	}
	b, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.hands, b.hands) || a.Stats[0] != b.Stats[0] {
		t.Fatalf("the residual player without a net played otherwise than the expert: %+v against %+v", b.Stats[0], a.Stats[0])
	}
}

// TestSelfPlayResidual: the residual self-play records one sample per
// decision with two or more of the expert's discards weighed, each with
// exactly one rank, labelled with the hand's outcome; the same config gives
// the same samples with any workers; a net that prefers the expert's
// second choice plays it, unless the margin forbids it.
func TestSelfPlayResidual(t *testing.T) {
	lane.NoRace(t) // training over self-play hands: the self-play workers run under the race detector in TestSelfPlay
	cfg := SelfPlayConfig{Rules: engine.MustRuleset("classic", ""), Bots: []string{"expert", "greedy", "greedy", "greedy"},
		Record: []string{"expert"}, Residual: true, ResidualK: 3, Epsilon: 0.5, Hands: 8, Seed: 5, Workers: 1}
	a, b := selfPlayTwice(t, cfg, 3)
	if len(a) < 8 || len(a) != len(b) {
		t.Fatalf("%d and %d samples from 8 hands", len(a), len(b))
	}
	ranks := map[int]int{}
	for i := range a {
		if !slices.Equal(a[i].Active, b[i].Active) || a[i].Won != b[i].Won || a[i].Score != b[i].Score {
			t.Fatalf("sample %d differs with 3 workers", i)
		}
		if a[i].Won != 0 && a[i].Won != 1 {
			t.Fatalf("sample %d: won %v", i, a[i].Won)
		}
		r := rankOf(a[i].Active)
		if r < 0 || r > 2 {
			t.Fatalf("sample %d: rank inputs %v", i, a[i].Active)
		}
		ranks[r]++
	}
	if ranks[0] == 0 || ranks[1] == 0 {
		t.Fatalf("ranks played %v: exploring at 0.5 plays the first and others", ranks)
	}
	cfg.Epsilon, cfg.Net = 0, rankNet(1)
	c, err := SelfPlay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range c {
		if r := rankOf(s.Active); r != 1 {
			t.Fatalf("sample %d: rank %d played, the net prefers 1", i, r)
		}
	}
}

// TestResidualMargin: the expert's first choice stays unless another is
// valued above it by more than the margin.
func TestResidualMargin(t *testing.T) {
	lane.NoRace(t) // a statistical margin over arena hands of pure bots
	var got []int
	r, err := NewResidual(rankNet(1), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.Margin = 0.6 // sigmoid(5) - sigmoid(0) is 0.49
	r.record = func(_ int, active []uint16) { got = append(got, rankOf(active)) }
	cfg := ArenaConfig{Rules: engine.MustRuleset("classic", ""), Bots: []string{ResidualName, "greedy", "greedy", "greedy"}, Hands: 4, Seed: 2, Workers: 1,
		Make: func(name string, seed uint64) (Strategy, error) {
			if name == ResidualName {
				return r, nil
			}
			return New(name, seed)
		}}
	if _, err := Arena(cfg); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no decision with two discards weighed in 4 hands")
	}
	for i, k := range got {
		if k != 0 {
			t.Fatalf("decision %d: rank %d played with a margin above the net's preference", i, k)
		}
	}
	r.Margin = 0.4
	got = got[:0]
	if _, err := Arena(cfg); err != nil {
		t.Fatal(err)
	}
	for i, k := range got {
		if k != 1 {
			t.Fatalf("decision %d: rank %d played, the net prefers 1 by more than the margin", i, k)
		}
	}
}
