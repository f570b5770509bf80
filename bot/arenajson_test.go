package bot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
)

// TestArenaJSON: the JSON holds every strategy's figures, and with a
// second line-up its figures and the pairing of the first strategies.
func TestArenaJSON(t *testing.T) {
	rules := engine.MustRuleset("classic", "")
	cfg := ArenaConfig{Rules: rules, Bots: []string{"greedy", "random"}, Hands: 8, Seed: 1, Workers: 1}
	res, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if out := ArenaJSON(res, cfg.Bots, 1, nil); out.Paired != nil || len(out.Strategies) != 2 || out.Hands != 8 || out.Deals != res.Deals() {
		t.Fatalf("got %+v", out)
	}
	cfg.Bots = []string{"random", "random"}
	other, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compare(res, other)
	if err != nil {
		t.Fatal(err)
	}
	out := ArenaJSON(res, []string{"greedy", "random"}, 1, &ArenaVs{Bots: cfg.Bots, Result: other, Paired: p})
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"rules":"classic"`, `"bots":["greedy","random"]`, `"seed":1`, `"paired":{"a":"greedy","b":"random","vs":{"bots":["random","random"]`, `"share_diff":[`, `"share_deal_ci95_low":`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	if s := out.Strategies[0]; s.Strategy != "greedy" || s.Seats != 1 || s.SeatHands != 8 || s.CILow > s.Share || s.Share > s.CIHigh {
		t.Errorf("greedy: %+v", s)
	}
}
