package bot

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// TestDiagRollout measures the rollout player (the expert choosing among
// its near-equal best discards by paired rollouts) against three greedy,
// paired on the same deals (seed 1) with the expert against three greedy.
// It runs only when OKEY_ROLLOUT is set:
//
//	eval:HANDS:K:R:MARGIN:CONT[:BASE]  K candidates, R rollouts a
//	    decision, MARGIN the paired difference a rival must pass, CONT the
//	    seat's own play in the rollouts (greedy, expert, learned). BASE: a
//	    file written by TestDiagResidual's base run (the expert's hands,
//	    seed 1, at least HANDS of them); without it the expert is played.
//
// It is a measurement by hand, not a check.
func TestDiagRollout(t *testing.T) {
	spec := os.Getenv("OKEY_ROLLOUT")
	if spec == "" {
		t.Skip("OKEY_ROLLOUT not set")
	}
	parts := strings.Split(spec, ":")
	if parts[0] != "eval" || len(parts) < 6 {
		t.Fatalf("OKEY_ROLLOUT %q", spec)
	}
	rules := engine.MustRuleset("classic", "")
	hands, _ := strconv.Atoi(parts[1])
	k, _ := strconv.Atoi(parts[2])
	r, _ := strconv.Atoi(parts[3])
	margin, err := strconv.ParseFloat(parts[4], 64)
	if err != nil {
		t.Fatal(err)
	}
	cont := parts[5]
	t0 := time.Now()
	var base ArenaResult
	if len(parts) > 6 {
		b, err := os.ReadFile(parts[6])
		if err != nil {
			t.Fatal(err)
		}
		var d diagArena
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		if d.Hands < hands || d.Seed != 1 || d.Rules != rules.String() {
			t.Fatalf("%s: %d hands, seed %d, %s", parts[6], d.Hands, d.Seed, d.Rules)
		}
		base = d.result()
		base.Hands, base.hands = hands, base.hands[:hands]
		t.Logf("the expert's first %d hands from %s", hands, parts[6])
	} else if base, err = Arena(ArenaConfig{Rules: rules, Bots: []string{"expert", "greedy", "greedy", "greedy"}, Hands: hands, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	sh := base.ShareByDeal(base.Stats[0])
	t.Logf("expert: %.1f%% [%.1f-%.1f] over %d deals (%s)", 100*sh.Est, 100*sh.Lo, 100*sh.Hi, base.Deals(), time.Since(t0).Round(time.Second))
	t1 := time.Now()
	var mu sync.Mutex
	var players []*rolloutPlayer
	res, err := Arena(ArenaConfig{Rules: rules, Bots: []string{"expert", "greedy", "greedy", "greedy"}, Hands: hands, Seed: 1,
		Make: func(name string, seed uint64) (Strategy, error) {
			if name != "expert" {
				return New(name, seed)
			}
			p, err := newRollout(k, r, margin, cont, seed)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			players = append(players, p)
			mu.Unlock()
			return p, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	dec, sw := 0, 0
	var half [5]float64
	for _, p := range players {
		dec += p.decisions
		sw += p.switched
		for j := range half {
			half[j] += p.half[j]
		}
	}
	if dec > 0 {
		n := float64(dec)
		ma, mb := half[0]/n, half[1]/n
		va, vb, cab := half[2]/n-ma*ma, half[3]/n-mb*mb, half[4]/n-ma*mb
		t.Logf("second minus first choice, paired wins in each half of the %d rollouts: means %.3f and %.3f, sd %.3f and %.3f, correlation %.3f over %d decisions",
			r, ma, mb, math.Sqrt(va), math.Sqrt(vb), cab/math.Sqrt(va*vb), dec)
	}
	sh = res.ShareByDeal(res.Stats[0])
	pl := res.Placement(res.Stats[0])
	pa, err := Compare(res, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rollout K %d R %d margin %g cont %s: %.1f%% [%.1f-%.1f], placement %.2f over %d deals; %d decisions weighed, %d changed; minus expert %+.1f points [%+.1f, %+.1f], placement %+.3f [%+.3f, %+.3f] (%s)",
		k, r, margin, cont, 100*sh.Est, 100*sh.Lo, 100*sh.Hi, pl.Est, res.Deals(), dec, sw,
		100*pa.Share.Est, 100*pa.Share.Lo, 100*pa.Share.Hi, pa.Placement.Est, pa.Placement.Lo, pa.Placement.Hi, time.Since(t1).Round(time.Second))
}
