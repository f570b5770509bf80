package bot

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
)

// TestTuneExpert plays arenas with variants of the expert's tuning against
// three greedy seats. It runs only when OKEY_TUNE is set, to
// "preset:hands:seed[,seed...]:variant;variant..." where a variant is
// name=value pairs joined by '+' over defaultTuning (e.g. "okeyWait=1+hazard=0.04"),
// or "base". It is for tuning by hand, not a check.
func TestTuneExpert(t *testing.T) {
	spec := os.Getenv("OKEY_TUNE")
	if spec == "" {
		t.Skip("OKEY_TUNE not set")
	}
	parts := strings.SplitN(spec, ":", 4)
	if len(parts) != 4 {
		t.Fatalf("OKEY_TUNE %q", spec)
	}
	rules := engine.MustRuleset(parts[0], "")
	hands, _ := strconv.Atoi(parts[1])
	for _, seedS := range strings.Split(parts[2], ",") {
		seed, _ := strconv.ParseUint(seedS, 10, 64)
		for _, v := range strings.Split(parts[3], ";") {
			tu, fw := parseTuning(t, v)
			mk := func(name string, seed uint64) (Strategy, error) {
				if name == "expert" {
					e := NewExpert(seed)
					e.t, e.FeedWeight = tu, fw
					return e, nil
				}
				return New(name, seed)
			}
			bots := []string{"expert", "greedy", "greedy", "greedy"}
			if parts[0] == "german" {
				bots = []string{"expert", "greedy", "expert", "greedy"}
			}
			cfg := ArenaConfig{Rules: rules, Bots: bots, Hands: hands, Seed: seed, Make: mk}
			if tu.omni {
				cfg.omniscient = "expert"
			}
			res, err := Arena(cfg)
			if err != nil {
				t.Fatal(err)
			}
			e, g := res.Stats[0], res.Stats[1]
			red := 0.0
			if g.Avg() != 0 {
				red = 100 * (1 - e.Avg()/g.Avg())
			}
			t.Logf("seed %d %-40s expert %.1f%% avg %.2f (g %.2f, %.1f%% lower) groups %d pairs %d okey %d | greedy okey %d stalemates %d",
				seed, v, 100*float64(e.Wins)/float64(hands), e.Avg(), g.Avg(), red, e.Groups, e.Pairs, e.Okey, g.Okey, res.Stalemates)
		}
	}
}

func parseTuning(t *testing.T, v string) (tuning, float64) {
	tu, fw := defaultTuning, defaultFeedWeight
	if v == "base" {
		return tu, fw
	}
	for _, kv := range strings.Split(v, "+") {
		name, val, _ := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			t.Fatalf("variant %q: %v", v, err)
		}
		switch name {
		case "okeyWait":
			tu.okeyWait = f != 0
		case "hazard":
			tu.hazard = f
		case "pairsW":
			tu.pairsW = f
		case "outsW":
			tu.outsW = f
		case "feed":
			fw = f
		case "drawNow":
			tu.drawNow = f
		case "chanceW":
			tu.chanceW = f
		case "twoW":
			tu.twoW = f
		case "twoTop":
			tu.twoTop = int(f)
		case "take":
			tu.takeModel = f != 0
		case "omni":
			tu.omni = f != 0
		case "wait":
			tu.wait = f != 0
		case "exact":
			tu.exact = f != 0
		case "live":
			tu.live = f != 0
		default:
			t.Fatalf("variant %q: unknown %q", v, name)
		}
	}
	return tu, fw
}
