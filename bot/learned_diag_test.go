package bot

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// TestDiagLearned measures why the learned player plays at greedy's level.
// It runs only when OKEY_DIAG is set, to "heldout:HANDS" (the embedded net's
// loss on fresh self-play data against a constant predictor) or
// "tiebreak:HANDS:EPS" (a randomised experiment: four greedy seats, each
// discard replaced with chance EPS by a random one among the nearest
// discards, and the hand's outcome compared when that random discard is or
// is not the one the net, the expert or greedy would have chosen). It is a
// diagnosis by hand, not a check.
func TestDiagLearned(t *testing.T) {
	spec := os.Getenv("OKEY_DIAG")
	if spec == "" {
		t.Skip("OKEY_DIAG not set")
	}
	parts := strings.Split(spec, ":")
	hands, _ := strconv.Atoi(parts[1])
	switch parts[0] {
	case "heldout":
		diagHeldout(t, hands)
	case "tiebreak":
		eps, _ := strconv.ParseFloat(parts[2], 64)
		diagTiebreak(t, hands, eps)
	default:
		t.Fatalf("OKEY_DIAG %q", spec)
	}
}

func diagHeldout(t *testing.T, hands int) {
	net, err := defaultNet()
	if err != nil {
		t.Fatal(err)
	}
	rules := engine.MustRuleset("classic", "")
	train, err := SelfPlay(SelfPlayConfig{Rules: rules, Bots: []string{"greedy", "greedy", "greedy", "greedy"},
		Record: []string{"greedy"}, Epsilon: 0.3, OnlyExplored: true, Hands: hands, Seed: 1000})
	if err != nil {
		t.Fatal(err)
	}
	held, err := SelfPlay(SelfPlayConfig{Rules: rules, Bots: []string{"greedy", "greedy", "greedy", "greedy"},
		Record: []string{"greedy"}, Epsilon: 0.3, OnlyExplored: true, Hands: hands, Seed: 777777})
	if err != nil {
		t.Fatal(err)
	}
	rate := func(ss []Sample) float64 {
		w := 0.0
		for _, s := range ss {
			w += float64(s.Won)
		}
		return w / float64(len(ss))
	}
	ll := func(p, y float64) float64 {
		p = min(max(p, 1e-9), 1-1e-9)
		return -(y*math.Log(p) + (1-y)*math.Log(1-p))
	}
	report := func(name string, n *Net, ss []Sample, base float64) {
		var lNet, lConst, bNet, bConst float64
		for _, s := range ss {
			w, _ := n.Eval(s.Active)
			y := float64(s.Won)
			lNet += ll(w, y)
			lConst += ll(base, y)
			bNet += (w - y) * (w - y)
			bConst += (base - y) * (base - y)
		}
		k := float64(len(ss))
		t.Logf("%s: %d samples, win rate %.3f; log-loss net %.4f const %.4f; Brier net %.4f const %.4f (R2 %.3f)",
			name, len(ss), rate(ss), lNet/k, lConst/k, bNet/k, bConst/k, 1-bNet/bConst)
	}
	base := rate(train)
	report("embedded net, fresh data", net, held, base)
	// A net fitted to the training half alone, as okey train does.
	fresh := NewNet(NetInputs, 32, 16, 1)
	losses := fresh.Train(train, TrainConfig{Epochs: 3, Seed: 1})
	t.Logf("refit on %d samples: train loss by epoch %v", len(train), losses)
	report("refit net, train data", fresh, train, base)
	report("refit net, held-out", fresh, held, base)
}

// tieRec is one randomised discard of the tie-break experiment.
type tieRec struct {
	seat                int
	cands               int
	net, expert, greedy bool
}

func diagTiebreak(t *testing.T, hands int, eps float64) {
	net, err := defaultNet()
	if err != nil {
		t.Fatal(err)
	}
	rules := engine.MustRuleset("classic", "")
	workers := 2
	type handRecs struct {
		recs   []tieRec
		winner int
	}
	per := make([]handRecs, hands)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < hands; i += workers {
				var recs []tieRec
				ac := ArenaConfig{Rules: rules, Bots: []string{"greedy", "greedy", "greedy", "greedy"}, Hands: hands, Seed: 4242,
					Make: func(_ string, seed uint64) (Strategy, error) {
						return &tieProbe{net: net, eps: eps, rng: rand.New(rand.NewPCG(seed, 99)), out: &recs}, nil
					}}
				out, err := arenaHand(ac, i)
				if err != nil {
					t.Error(err)
					return
				}
				per[i] = handRecs{recs, out.res.Winner}
			}
		}(w)
	}
	wg.Wait()
	// The random discard is uniform among c candidates, so y*c*[hit] is an
	// unbiased estimate (inverse propensity) of the win chance had that
	// strategy made this one decision; a raw hit/miss comparison is not
	// (hits are more likely where there are few candidates).
	names := []string{"net", "expert", "greedy"}
	var sum, sq [3]float64
	var dsum, dsq [3]float64 // net-expert, net-greedy, expert-greedy
	base, n := 0.0, 0.0
	for _, h := range per {
		for _, r := range h.recs {
			y := 0.0
			if h.winner == r.seat {
				y = 1
			}
			c := float64(r.cands)
			var v [3]float64
			for i, hit := range []bool{r.net, r.expert, r.greedy} {
				if hit {
					v[i] = y * c
				}
				sum[i] += v[i]
				sq[i] += v[i] * v[i]
			}
			for i, pr := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
				d := v[pr[0]] - v[pr[1]]
				dsum[i] += d
				dsq[i] += d * d
			}
			base += y
			n++
		}
	}
	ci := func(s, q float64) (float64, float64) {
		m := s / n
		return m, 1.96 * math.Sqrt((q/n-m*m)/n)
	}
	t.Logf("%d hands, %d randomised discards among 2 or more nearest; a random one of them wins %.1f%%", hands, int(n), 100*base/n)
	for i, name := range names {
		m, h := ci(sum[i], sq[i])
		t.Logf("%-7s its choice in that decision (inverse propensity): wins %.1f%% ±%.1f", name, 100*m, 100*h)
	}
	for i, pr := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		m, h := ci(dsum[i], dsq[i])
		t.Logf("%s - %s: %+.1f points ±%.1f (95%%, per decision; hands hold several)", names[pr[0]], names[pr[1]], 100*m, 100*h)
	}
}

// tieProbe plays greedy; with chance eps, at a discard with two or more
// nearest candidates, it discards one of them at random and records which
// strategies would have chosen it.
type tieProbe struct {
	net *Net
	eps float64
	rng *rand.Rand
	out *[]tieRec
	g   Greedy
}

func (tp *tieProbe) Name() string { return "greedy" }

func (tp *tieProbe) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	a, err := tp.g.Move(h, v)
	if err != nil || a.Kind != engine.ActDiscard {
		return a, err
	}
	p, err := read(h, v)
	if err != nil || !p.drawn || len(p.faces) != p.winLen+1 || len(p.wins()) > 0 {
		return a, nil
	}
	if tp.rng.Float64() >= tp.eps {
		return a, nil
	}
	var cands []engine.Face
	for _, f := range distinct(p.faces) {
		if f != p.okey {
			cands = append(cands, f)
		}
	}
	cands, _ = nearest(p.okey, p.faces, cands, p.winLen)
	if len(cands) < 2 {
		return a, nil
	}
	f := cands[tp.rng.IntN(len(cands))]
	l := NewLearnedNet(tp.net, 1)
	nf, _, _ := l.bestDiscard(newStateCtx(p), p.faces, false)
	e := NewExpert(1)
	k := know(p)
	ef := engine.NoFace
	for _, c := range e.rankDiscards(p, k, p.faces, k.draws(p, false)) {
		if slices.Contains(cands, c.Face) {
			ef = c.Face
			break
		}
	}
	gf := chooseDiscard(p.okey, p.faces, p.winLen)
	*tp.out = append(*tp.out, tieRec{seat: p.seat, cands: len(cands), net: f == nf, expert: f == ef, greedy: f == gf})
	s, _ := p.slotOf(f)
	return p.open(engine.ActDiscard, s), nil
}

// BenchmarkExpertMoveNoExact: the expert with the live estimate in place of
// the engine's exact distance in its outs (tuning exact=false).
func BenchmarkExpertMoveNoExact(b *testing.B) {
	pos := greedyPositions(b, "classic", 8, false)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &pos[i%len(pos)]
		e := NewExpert(1)
		e.t.exact = false
		t0 := time.Now()
		if _, err := e.Move(&p.h, &p.v); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*95/100])/1e6, "p95-ms")
}
