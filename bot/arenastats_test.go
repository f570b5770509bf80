package bot

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// TestClustered: the ratio estimator's interval over clusters, computed by
// hand: y = 1, 3, 2 over m = 2, 4, 2 gives p = 0.75, residuals -0.5, 0,
// 0.5, var = 3/2 * 0.5 / 64, se = 0.108253.
func TestClustered(t *testing.T) {
	iv := clustered([]float64{1, 3, 2}, []float64{2, 4, 2})
	se := math.Sqrt(1.5*0.5) / 8
	if iv.Est != 0.75 || math.Abs(iv.Lo-(0.75-z95*se)) > 1e-12 || math.Abs(iv.Hi-(0.75+z95*se)) > 1e-12 || iv.Deals != 3 || !iv.Valid() {
		t.Fatalf("clustered = %+v, want 0.75 ± %.6f over 3 deals", iv, z95*se)
	}
	// Quadrupling the clusters with the same spread about halves the
	// half-width (exactly: sqrt(12/11 * 2) / 32 against sqrt(3/2 * 0.5) / 8),
	// and DealsFor says so.
	y, m := []float64{}, []float64{}
	for i := 0; i < 4; i++ {
		y, m = append(y, 1, 3, 2), append(m, 2, 4, 2)
	}
	if iv4, want := clustered(y, m), z95*math.Sqrt(12.0/11*2)/32; math.Abs(iv4.Half()-want) > 1e-12 {
		t.Fatalf("12 clusters: half-width %.5f, want %.5f", iv4.Half(), want)
	}
	if n := iv.DealsFor(iv.Half() / 2); n < 11 || n > 13 {
		t.Fatalf("DealsFor(half/2) = %d, want about 12", n)
	}
	if one := clustered([]float64{1}, []float64{2}); one.Valid() || one.Lo != one.Est || one.Est != 0.5 {
		t.Fatalf("one cluster: %+v", one)
	}
}

// TestPlace2: placements by gain, ties sharing the mean place.
func TestPlace2(t *testing.T) {
	for _, tc := range []struct {
		gains []int
		want  []int // twice the place of each seat
	}{
		{[]int{2, -2, -2, -2}, []int{2, 6, 6, 6}},    // a win: 1st, the others share 2nd-4th (3)
		{[]int{0, 0, 0, 0}, []int{5, 5, 5, 5}},       // a stalemate: everyone 2.5
		{[]int{-4, 4, -4, 4}, []int{7, 3, 7, 3}},     // partners share
		{[]int{3, 2, 1, 0}, []int{2, 4, 6, 8}},       // a strict order
		{[]int{-20, 0, -20}, []int{5, 2, 5}},         // three seats
		{[]int{-101, 40, 60, 10}, []int{8, 4, 2, 6}}, // signed gains (101 points negated)
	} {
		for s := range tc.gains {
			if got := place2(tc.gains, s); got != tc.want[s] {
				t.Errorf("place2(%v, %d) = %d, want %d", tc.gains, s, got, tc.want[s])
			}
		}
	}
}

// TestGainSign: where a lower score change is the better one.
func TestGainSign(t *testing.T) {
	for preset, want := range map[string]int{"classic": 1, "turkish-rummy": -1, "german": -1, "101": -1} {
		if got := gainSign(engine.MustRuleset(preset, "")); got != want {
			t.Errorf("%s: gainSign %d, want %d", preset, got, want)
		}
	}
}

// TestArenaByDeal: the clustered share is the plain share; the placements
// of all seats average to parity; a line-up paired with itself differs by
// nothing; line-ups on different deals are not paired.
func TestArenaByDeal(t *testing.T) {
	lane.NoRace(t) // arena hands of pure bots: the arena's workers run under the race detector in TestArenaDeterministicAndBalanced
	cfg := ArenaConfig{Rules: engine.MustRuleset("classic", ""), Bots: []string{"greedy", "random", "random", "random"}, Hands: 40, Seed: 7}
	a, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Deals() != 10 {
		t.Fatalf("%d deals, want 10", a.Deals())
	}
	sum := 0.0
	for _, s := range a.Stats {
		p, _, _ := a.Share(s)
		sh := a.ShareByDeal(s)
		if math.Abs(sh.Est-p) > 1e-12 || sh.Deals != 10 || sh.Lo > sh.Est || sh.Hi < sh.Est {
			t.Fatalf("%s: share by deal %+v, share %.4f", s.Name, sh, p)
		}
		pl := a.Placement(s)
		if pl.Est < 1 || pl.Est > 4 {
			t.Fatalf("%s: placement %+v", s.Name, pl)
		}
		sum += pl.Est * float64(s.Seats)
	}
	if math.Abs(sum/4-a.Parity()) > 1e-9 {
		t.Fatalf("placements average %.4f over the seats, want parity %.2f", sum/4, a.Parity())
	}
	if g, r := a.Placement(a.Stats[0]), a.Placement(a.Stats[1]); g.Est >= r.Est {
		t.Fatalf("greedy places %.2f, random %.2f: greedy should place better\n%s%s", g.Est, r.Est, a.Format(), a.FormatDeals())
	}
	same, err := Compare(a, a)
	if err != nil {
		t.Fatal(err)
	}
	if same.Share.Est != 0 || same.Share.Half() != 0 || same.Placement.Est != 0 {
		t.Fatalf("a line-up against itself: %+v", same)
	}
	cfg.Bots = []string{"random", "greedy", "random", "random"}
	b, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	pa, _, _ := a.Share(a.Stats[0])
	pb, _, _ := b.Share(b.Stats[0])
	if pr.A != "greedy" || pr.B != "random" || math.Abs(pr.Share.Est-(pa-pb)) > 1e-12 || pr.Share.Lo <= 0 {
		t.Fatalf("greedy against random, paired: %+v (shares %.3f, %.3f)", pr, pa, pb)
	}
	if !strings.Contains(pr.Format(), "paired greedy - random on the same 10 deals: share +") {
		t.Fatalf("format: %q", pr.Format())
	}
	cfg.Seed++
	c, _ := Arena(cfg)
	if _, err := Compare(a, c); !errors.Is(err, ErrArena) {
		t.Fatalf("another seed paired: err %v", err)
	}
	cfg.Seed--
	cfg.Hands = 44
	d, _ := Arena(cfg)
	if _, err := Compare(a, d); !errors.Is(err, ErrArena) {
		t.Fatalf("other hands paired: err %v", err)
	}
}

// TestArena101: the arena plays Okey 101 rounds with b101 in every seat:
// every hand ends with a finish or a stalemate, the finishes are counted by
// how the finisher opened, the result does not depend on the workers, and a
// classic strategy is refused at a 101 table.
func TestArena101(t *testing.T) {
	cfg := ArenaConfig{Rules: engine.MustRuleset("101", ""), Bots: []string{"b101", "b101", "b101"}, Hands: 18, Seed: 2, Workers: 1}
	a, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 2
	if b, err := Arena(cfg); err != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("2 workers: %v\n%s\n1 worker:\n%s", err, b.Format(), a.Format())
	}
	s := a.Stats[0]
	if len(a.Stats) != 1 || s.Seats != 3 || s.SeatHands != 54 || s.Wins+a.Stalemates != 18 || s.Groups+s.Pairs != s.Wins {
		t.Fatalf("stats %+v, stalemates %d", a.Stats, a.Stalemates)
	}
	if s.Wins == 0 {
		t.Fatalf("no round of 18 finished:\n%s", a.Format())
	}
	// Every round's points: the finisher's negative, the others' positive,
	// so the points of three b101 seats sum to more than nothing.
	if s.ScoreSum <= 0 {
		t.Fatalf("points sum %d over 18 rounds", s.ScoreSum)
	}
	if pl := a.Placement(s); math.Abs(pl.Est-a.Parity()) > 1e-9 {
		t.Fatalf("one strategy in every seat places %.3f, want parity %.2f", pl.Est, a.Parity())
	}
	cfg.Bots = []string{"b101", "greedy"}
	if _, err := Arena(cfg); !errors.Is(err, ErrArena) || !strings.Contains(err.Error(), "played by b101 only") {
		t.Fatalf("greedy at a 101 table: err %v", err)
	}
	cfg.Rules = engine.MustRuleset("classic", "")
	cfg.Bots = []string{"b101", "greedy"}
	if _, err := Arena(cfg); !errors.Is(err, ErrArena) {
		t.Fatalf("b101 at a classic table: err %v", err)
	}
}
