package bot

import (
	"errors"
	"reflect"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// TestArenaExpertAboveGreedy: a fixed-seed arena, expert against three
// greedy: expert's win share must be above greedy's share per seat (expert
// about 34% against 22% a greedy seat at 2,000 hands). It plays 60 hands
// in make test's no-race line (about 30 s on two cores; the arena's
// workers run under the race detector in TestArenaDeterministicAndBalanced),
// 12 with -short, which only guard against a collapse (at 12 hands seeds
// 1, 2, 4 and 5 pass, seed 3 ties).
func TestArenaExpertAboveGreedy(t *testing.T) {
	lane.NoRace(t)
	hands := 60
	if testing.Short() {
		hands = 12
	}
	res, err := Arena(ArenaConfig{Rules: engine.MustRuleset("classic", ""), Bots: []string{"expert", "greedy", "greedy", "greedy"},
		Hands: hands, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	e, g := res.Stats[0], res.Stats[1]
	if e.Name != "expert" || g.Name != "greedy" || g.Seats != 3 {
		t.Fatalf("stats %+v", res.Stats)
	}
	t.Logf("\n%s", res.Format())
	if float64(e.Wins) <= float64(g.Wins)/3 {
		t.Fatalf("expert won %d of %d hands, greedy %d with three seats: expert's share is not above greedy's\n%s",
			e.Wins, hands, g.Wins, res.Format())
	}
}

// TestArenaDeterministicAndBalanced: the result depends on the seed only,
// not on the number of workers; every strategy plays every seat equally;
// the wins and stalemates add up to the hands.
func TestArenaDeterministicAndBalanced(t *testing.T) {
	cfg := ArenaConfig{Rules: engine.MustRuleset("turkish-rummy", ""), Bots: []string{"greedy", "random", "random"}, Hands: 12, Seed: 5}
	cfg.Workers = 1
	a, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	b, err := Arena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("1 worker:\n%s3 workers:\n%s", a.Format(), b.Format())
	}
	wins := a.Stalemates
	for _, s := range a.Stats {
		wins += s.Wins
		if s.SeatHands != s.Seats*cfg.Hands {
			t.Fatalf("%s: %d seat-hands, want %d", s.Name, s.SeatHands, s.Seats*cfg.Hands)
		}
		if s.Groups+s.Pairs != s.Wins {
			t.Fatalf("%s: wins by kind %d+%d != %d", s.Name, s.Groups, s.Pairs, s.Wins)
		}
	}
	if wins != cfg.Hands {
		t.Fatalf("wins and stalemates %d, hands %d", wins, cfg.Hands)
	}
	cfg.Seed = 6
	if c, _ := Arena(cfg); reflect.DeepEqual(a, c) {
		t.Fatal("another seed, the same result")
	}
}

func TestArenaErrors(t *testing.T) {
	r := engine.MustRuleset("classic", "")
	for _, cfg := range []ArenaConfig{
		{Rules: r, Bots: []string{"greedy"}, Hands: 1},
		{Rules: r, Bots: []string{"greedy", "oracle"}, Hands: 1},
		{Rules: r, Bots: []string{"greedy", "greedy"}, Hands: 0},
	} {
		if _, err := Arena(cfg); !errors.Is(err, ErrArena) {
			t.Errorf("%+v: err %v, want ErrArena", cfg, err)
		}
	}
}

func TestWilson(t *testing.T) {
	p, lo, hi := wilson(812, 2000)
	// The example line: 40.6% [38.5-42.8].
	if int(p*1000+0.5) != 406 || int(lo*1000+0.5) != 385 || int(hi*1000+0.5) != 428 {
		t.Fatalf("wilson(812, 2000) = %.4f [%.4f-%.4f]", p, lo, hi)
	}
	if p, lo, hi := wilson(0, 10); p != 0 || lo != 0 || hi <= 0 {
		t.Fatalf("wilson(0, 10) = %v %v %v", p, lo, hi)
	}
}

// TestArenaSettlesUpcard: the arena settles each hand as the table does, so
// turkish-rummy's upcard bonus (the opponents of the seat dealt the
// indicator's twin score UpcardPoints) is in its averages.
func TestArenaSettlesUpcard(t *testing.T) {
	lane.NoRace(t) // arena hands of pure bots: the arena's workers run under the race detector in TestArenaDeterministicAndBalanced
	rules := engine.MustRuleset("turkish-rummy", "")
	cfg := ArenaConfig{Rules: rules, Bots: []string{"greedy", "greedy", "greedy", "greedy"}, Hands: 24, Seed: 3}
	held := 0
	for i := 0; i < cfg.Hands; i++ {
		out, err := arenaHand(cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		if out.res.Upcard < 0 {
			continue
		}
		held++
		// Every seat but the holder's side gets the bonus on top of the
		// rest of its change: compare with the deltas of the same result
		// without a holder.
		plain := out.res
		plain.Upcard = -1
		m, err := engine.NewMatch(rules, 4, 0)
		if err != nil {
			t.Fatal(err)
		}
		without := m.Deltas(plain)
		for s := range out.deltas {
			want := without[s]
			if s != out.res.Upcard {
				want += rules.UpcardPoints
			}
			if out.deltas[s] != want {
				t.Fatalf("hand %d, holder %d: seat %d change %d, want %d (deltas %v, without the bonus %v)",
					i, out.res.Upcard, s, out.deltas[s], want, out.deltas, without)
			}
		}
	}
	if held == 0 {
		t.Fatal("no hand of 24 had its upcard dealt: the arena does not settle hands")
	}
}
