package table

import (
	"context"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
)

func movers101(n int) []Mover {
	var ms []Mover
	for i := 0; i < n; i++ {
		ms = append(ms, bot.NewB101())
	}
	return ms
}

// run101 plays a 101 match of n seats through RunLocal and checks that every
// peer ends in the same state and that verify agrees with the peers.
func run101(t *testing.T, o LocalOptions) (*LocalResult, *Report) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if o.Stall == 0 {
		o.Stall = 50 * time.Millisecond
	}
	if o.Withhold == 0 {
		o.Withhold = 30 * time.Second
	}
	res, err := RunLocal(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transcript(o.Cheater)
	if o.Cheat == "" {
		tr = res.Transcript(-1)
	}
	return res, Verify(tr)
}

// TestLocal101: whole 101 matches (3 rounds) of 2 and 4 seats, honest:
// every peer finishes with the same state, the rounds are scored from
// public facts, and verify finds the transcript honest.
func TestLocal101(t *testing.T) {
	for _, n := range []int{2, 4} {
		res, rep := run101(t, LocalOptions{Ruleset: "101:rounds=3", Movers: movers101(n), Seed: uint64(10 + n)})
		for i, r := range res.Results {
			if err := r.Ended(); err != nil {
				t.Fatalf("%d seats: seat %d: %v", n, i, err)
			}
		}
		m0 := res.Results[0].Machine
		for i, r := range res.Results {
			if r.Machine.StateHash() != m0.StateHash() {
				t.Fatalf("%d seats: seat %d's state differs", n, i)
			}
		}
		if !rep.Honest {
			t.Fatalf("%d seats: verify: %v %v", n, rep.Violation, rep.Invalid)
		}
		if m0.Match101() == nil || !m0.Match101().Over() || m0.Match() != nil {
			t.Fatalf("%d seats: the 101 match did not end", n)
		}
		hands := m0.Hands()
		played := 0
		for _, h := range hands {
			if h.Result101 == nil {
				t.Fatalf("%d seats: hand %d has no 101 result", n, h.Hand)
			}
			if h.Result101.End != engine.EndCancelled {
				played++
			}
		}
		if played != 3 {
			t.Fatalf("%d seats: %d rounds counted, want 3", n, played)
		}
		if len(rep.Ranking) != n {
			t.Fatalf("%d seats: verify ranking %v", n, rep.Ranking)
		}
		t.Logf("%d seats: %d steps, scores %v, %v", n, rep.Steps, m0.Scores(), res.Elapsed)
	}
}
