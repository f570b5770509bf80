package bot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// TestDiagResidual trains and measures the residual player (the expert
// with a learned correction among its best discards). It runs only when
// OKEY_RESIDUAL is set:
//
//	train:HANDS:EPS:K:SEED:FILE  self-play of one expert (exploring at EPS
//	    among its best K discards) against three greedy, every decision
//	    with two or more of them labelled with the hand's return; a fresh
//	    net fitted to them is written to FILE (and FILE.txt with its hash).
//	    With FILE's net present, that net plays the expert's seat
//	    (policy improvement: the next iteration's data) and the new net is
//	    fitted to the new data.
//	eval:HANDS:K:MARGINS:FILE  the residual player with FILE's net (for
//	    each margin, comma-separated) against three greedy, paired on the
//	    same deals (seed 1) with the expert against three greedy (read
//	    from FILE.base when a base run wrote it).
//	base:HANDS:FILE  the expert against three greedy (seed 1), written to
//	    FILE.base for eval.
//
// It is a measurement by hand, not a check.
func TestDiagResidual(t *testing.T) {
	spec := os.Getenv("OKEY_RESIDUAL")
	if spec == "" {
		t.Skip("OKEY_RESIDUAL not set")
	}
	parts := strings.Split(spec, ":")
	rules := engine.MustRuleset("classic", "")
	switch parts[0] {
	case "train":
		hands, _ := strconv.Atoi(parts[1])
		eps, _ := strconv.ParseFloat(parts[2], 64)
		k, _ := strconv.Atoi(parts[3])
		seed, _ := strconv.ParseUint(parts[4], 10, 64)
		file := parts[5]
		var prev *Net
		if data, err := os.ReadFile(file); err == nil {
			prev = &Net{}
			if err := prev.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
			t.Logf("playing with the net in %s", file)
		}
		t0 := time.Now()
		samples, err := SelfPlay(SelfPlayConfig{Rules: rules, Bots: []string{"expert", "greedy", "greedy", "greedy"},
			Record: []string{"expert"}, Residual: true, ResidualK: k, Net: prev, Epsilon: eps, Hands: hands, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		won := 0.0
		for _, s := range samples {
			won += float64(s.Won)
		}
		t.Logf("%d samples from %d hands in %s (won share %.3f)", len(samples), hands, time.Since(t0).Round(time.Second), won/float64(len(samples)))
		// The hands' outcome by the expert's rank of the discard played:
		// the exploration (a random one of the K at EPS) makes this a
		// randomised comparison of the expert's first choice with the
		// others (confounded only by how many candidates a decision has).
		var byRank [4][3]float64 // samples, won, score
		for _, s := range samples {
			if r := rankOf(s.Active); r >= 0 {
				byRank[r][0]++
				byRank[r][1] += float64(s.Won)
				byRank[r][2] += float64(s.Score)
			}
		}
		for r, b := range byRank {
			if b[0] > 0 {
				t.Logf("rank %d played: %d samples, won %.3f, score %.3f", r, int(b[0]), b[1]/b[0], b[2]/b[0])
			}
		}
		net := NewNet(ResidualInputs, 32, 16, seed)
		losses := net.Train(samples, TrainConfig{Epochs: 4, Seed: seed})
		t.Logf("losses %v", losses)
		data, _ := net.MarshalBinary()
		sum := sha256.Sum256(data)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		note := "OKEY_RESIDUAL=" + spec + " go test -run TestDiagResidual ./bot/\nsha256 " + hex.EncodeToString(sum[:]) + "\n"
		if err := os.WriteFile(file+".txt", []byte(note), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d bytes, sha256 %s", file, len(data), hex.EncodeToString(sum[:]))
	case "eval":
		hands, _ := strconv.Atoi(parts[1])
		k, _ := strconv.Atoi(parts[2])
		var margins []float64
		for _, m := range strings.Split(parts[3], ",") {
			x, err := strconv.ParseFloat(m, 64)
			if err != nil {
				t.Fatal(err)
			}
			margins = append(margins, x)
		}
		data, err := os.ReadFile(parts[4])
		if err != nil {
			t.Fatal(err)
		}
		net := &Net{}
		if err := net.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		var base ArenaResult
		if b, err := os.ReadFile(parts[4] + ".base"); err == nil {
			var d diagArena
			if err := json.Unmarshal(b, &d); err != nil {
				t.Fatal(err)
			}
			base = d.result()
			t.Logf("the expert's hands from %s.base", parts[4])
		} else if base, err = Arena(ArenaConfig{Rules: rules, Bots: []string{"expert", "greedy", "greedy", "greedy"}, Hands: hands, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		sh := base.ShareByDeal(base.Stats[0])
		t.Logf("expert: %.1f%% [%.1f-%.1f] over %d deals (%s)", 100*sh.Est, 100*sh.Lo, 100*sh.Hi, base.Deals(), time.Since(t0).Round(time.Second))
		for _, m := range margins {
			t1 := time.Now()
			res, err := Arena(ArenaConfig{Rules: rules, Bots: []string{ResidualName, "greedy", "greedy", "greedy"}, Hands: hands, Seed: 1,
				Make: func(name string, seed uint64) (Strategy, error) {
					if name == ResidualName {
						r, err := NewResidual(net, k, seed)
						if err != nil {
							return nil, err
						}
						r.Margin = m
						return r, nil
					}
					return New(name, seed)
				}})
			if err != nil {
				t.Fatal(err)
			}
			sh := res.ShareByDeal(res.Stats[0])
			pl := res.Placement(res.Stats[0])
			pa, err := Compare(res, base)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("residual K %d margin %g: %.1f%% [%.1f-%.1f], placement %.2f over %d deals; minus expert %+.1f points [%+.1f, %+.1f] (%s)",
				k, m, 100*sh.Est, 100*sh.Lo, 100*sh.Hi, pl.Est, res.Deals(), 100*pa.Share.Est, 100*pa.Share.Lo, 100*pa.Share.Hi, time.Since(t1).Round(time.Second))
		}
	case "base":
		hands, _ := strconv.Atoi(parts[1])
		t0 := time.Now()
		base, err := Arena(ArenaConfig{Rules: rules, Bots: []string{"expert", "greedy", "greedy", "greedy"}, Hands: hands, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		d := diagArena{Rules: base.Rules, Hands: base.Hands, Stalemates: base.Stalemates, Stats: base.Stats, Seats: base.seats, Seed: base.seed}
		for _, h := range base.hands {
			d.Win = append(d.Win, h.win)
			d.Place2 = append(d.Place2, h.place2)
		}
		b, _ := json.Marshal(d)
		if err := os.WriteFile(parts[2]+".base", b, 0o644); err != nil {
			t.Fatal(err)
		}
		sh := base.ShareByDeal(base.Stats[0])
		t.Logf("expert: %.1f%% [%.1f-%.1f] over %d deals (%s)", 100*sh.Est, 100*sh.Lo, 100*sh.Hi, base.Deals(), time.Since(t0).Round(time.Second))
	default:
		t.Fatalf("OKEY_RESIDUAL %q", spec)
	}
}

// diagArena is an ArenaResult written to a file (the diag's base run).
type diagArena struct {
	Rules      string
	Hands      int
	Stalemates int
	Stats      []ArenaStats
	Seats      int
	Seed       uint64
	Win        [][4]int8
	Place2     [][4]int16
}

func (d diagArena) result() ArenaResult {
	r := ArenaResult{Rules: d.Rules, Hands: d.Hands, Stalemates: d.Stalemates, Stats: d.Stats, seats: d.Seats, seed: d.Seed}
	for i := range d.Win {
		r.hands = append(r.hands, handRec{win: d.Win[i], place2: d.Place2[i]})
	}
	return r
}
