package table

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
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

// TestLocal101: a whole 101 match (3 rounds) of 2 seats, honest, over a
// network that drops, duplicates and reorders messages: every peer
// finishes with the same state, the rounds are scored from public facts,
// and verify finds the transcript honest.
func TestLocal101(t *testing.T) {
	check101(t, 2, Faults{Drop: 0.05, Dup: 0.05, Reorder: 0.1})
}

// TestLocal101FourSeats: the same with 4 seats, on a perfect network and
// with faults (without the race detector only: make test's non-race line).
func TestLocal101FourSeats(t *testing.T) {
	lane.NoRace(t)
	check101(t, 4, Faults{})
	check101(t, 4, Faults{Drop: 0.05, Dup: 0.05, Reorder: 0.1})
}

func check101(t *testing.T, n int, f Faults) {
	t.Helper()
	{
		res, rep := run101(t, LocalOptions{Ruleset: "101:rounds=3", Movers: movers101(n), Seed: uint64(10 + n), Faults: f,
			Stall: 20 * time.Millisecond})
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
		// Every counted round has two open rounds of n messages: the
		// indicator, and every rack at the round's end.
		opens := 0
		for _, raw := range res.Peers[0].Chain() {
			if env, err := DecodeEnvelope(raw); err == nil && env.Kind == KindOpen {
				opens++
			}
		}
		if opens < 2*n*played {
			t.Fatalf("%d seats: %d open messages for %d rounds", n, opens, played)
		}
		if len(rep.Ranking) != n {
			t.Fatalf("%d seats: verify ranking %v", n, rep.Ranking)
		}
		t.Logf("%d seats: %d steps, scores %v, %v", n, rep.Steps, m0.Scores(), res.Elapsed)
	}
}

// TestCheats101: each cheat of Okey 101 is caught live by every honest peer,
// named with its rule, and named the same by verify.
func TestCheats101(t *testing.T) {
	want := map[Cheat]Rule{
		CheatFalseOpening:  "false-opening",
		CheatAddBeforeOpen: "add-before-open",
		CheatKeptDiscard:   "kept-discard",
		CheatForgedScore:   "state-divergence",
	}
	for i, c := range Cheats101 {
		n := 2 + i%3
		if raceDetector {
			n = 2
		}
		res, rep := run101(t, LocalOptions{Ruleset: "101:rounds=3", Movers: movers101(n), Seed: uint64(40 + i),
			Cheat: c, Cheater: 1})
		for seat, r := range res.Results {
			if seat == 1 {
				continue
			}
			v := r.Violation
			if v == nil || v.Seat != 1 || v.Rule != want[c] {
				t.Fatalf("%s: seat %d ended with %v, want seat 1 named for %s", c, seat, r.Ended(), want[c])
			}
		}
		if rep.Violation == nil || rep.Violation.Seat != 1 || rep.Violation.Rule != want[c] {
			t.Fatalf("%s: verify: %v (invalid %v)", c, rep.Violation, rep.Invalid)
		}
		t.Logf("%s (%d seats): %v", c, n, rep.Violation)
	}
}

// TestDecodeMove101: the layout of each 101 move body, and bodies that are
// refused as malformed.
func TestDecodeMove101(t *testing.T) {
	share := make([]byte, 34) // one share's bytes: the layout only counts them
	ok := []move101Body{
		{kind: engine.Act101Draw},
		{kind: engine.Act101Take},
		{kind: engine.Act101GiveBack},
		{kind: engine.Act101Exhaust},
		{kind: engine.Act101Discard, slot: 7, shares: share},
		{kind: engine.Act101Swap, meld: 2, pos: 1, slot: 9, shares: share},
		{kind: engine.Act101Add, meld: 3, melds: []meldBody{{tiles: []engine.Slot{4}, as: []engine.Face{5}}}, shares: share},
		{kind: engine.Act101Lay, melds: []meldBody{
			{tiles: []engine.Slot{1, 2, 3}, as: []engine.Face{0, 1, 2}},
			{tiles: []engine.Slot{10, 11}, as: []engine.Face{8, 8}}}, shares: share},
	}
	for _, b := range ok {
		if b.slot == 0 && b.kind != engine.Act101Discard && b.kind != engine.Act101Swap {
			b.slot = engine.NoSlot
		}
		got, err := decodeMove101(b.encode())
		if err != nil {
			t.Fatalf("%v: %v", b.kind, err)
		}
		if string(got.encode()) != string(b.encode()) {
			t.Fatalf("%v: round trip %x, want %x", b.kind, got.encode(), b.encode())
		}
	}
	bad := map[string][]byte{
		"empty":              {},
		"unknown action":     {0},
		"reveal":             {byte(engine.Act101Reveal)},
		"draw with bytes":    {byte(engine.Act101Draw), 0},
		"discard no shares":  {byte(engine.Act101Discard), 5},
		"discard slot 106":   append([]byte{byte(engine.Act101Discard), 106}, share...),
		"lay of no melds":    append([]byte{byte(engine.Act101Lay), 0}, share...),
		"meld of no tiles":   append([]byte{byte(engine.Act101Lay), 1, 0}, share...),
		"meld of 14 tiles":   append([]byte{byte(engine.Act101Lay), 1, 14}, share...),
		"slot twice":         append([]byte{byte(engine.Act101Lay), 1, 3, 1, 0, 1, 1, 2, 2}, share...),
		"false joker as":     append([]byte{byte(engine.Act101Add), 0, 1, 4, byte(engine.FalseJoker)}, share...),
		"face out of range":  append([]byte{byte(engine.Act101Add), 0, 1, 4, 200}, share...),
		"truncated lay":      {byte(engine.Act101Lay), 2, 3, 1, 0},
		"truncated swap":     {byte(engine.Act101Swap), 1},
		"lay without shares": {byte(engine.Act101Lay), 1, 3, 1, 0, 2, 1, 3, 2},
	}
	for name, p := range bad {
		if _, err := decodeMove101(p); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
}

// FuzzDecodeMove101: the decoder never panics, and what it accepts encodes
// back to the same bytes.
func FuzzDecodeMove101(f *testing.F) {
	f.Add([]byte{byte(engine.Act101Draw)})
	f.Add(append([]byte{byte(engine.Act101Lay), 1, 3, 1, 0, 2, 1, 3, 2}, make([]byte, 34)...))
	f.Add(append([]byte{byte(engine.Act101Swap), 0, 1, 4}, make([]byte, 34)...))
	f.Fuzz(func(t *testing.T, p []byte) {
		b, err := decodeMove101(p)
		if err != nil {
			return
		}
		if string(b.encode()) != string(p) {
			t.Fatalf("%x decodes and encodes to %x", p, b.encode())
		}
	})
}

// TestOpenNothingDue: a seat with no share due in an open round sends an
// empty body; any byte there is malformed, and nothing is recorded.
func TestOpenNothingDue(t *testing.T) {
	m := &Machine{}
	if err := m.takeShares(0, nil, nil); err != nil {
		t.Fatalf("empty body: %v", err)
	}
	if err := m.takeShares(0, []byte{1}, nil); !errors.Is(err, ErrMalformed) {
		t.Fatalf("a byte where nothing is due: %v", err)
	}
}

// TestPeerNeeds101Mover: a 101 table refuses, up front, a mover that plays
// only the classic family.
func TestPeerNeeds101Mover(t *testing.T) {
	cfg, keys, err := LocalConfig("101", 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewPeer(PeerConfig{Table: cfg, Seat: 0, Key: keys[0], Transport: NewMemNet(Faults{}, 1).Join(cfg.Seats[0].ID),
		Mover: bot.NewGreedy()})
	if !errors.Is(err, ErrNo101Mover) {
		t.Fatalf("greedy at a 101 table: %v", err)
	}
	if _, err := NewPeer(PeerConfig{Table: cfg, Seat: 0, Key: keys[0], Transport: NewMemNet(Faults{}, 1).Join(cfg.Seats[0].ID),
		Mover: bot.NewB101()}); err != nil {
		t.Fatalf("b101 at a 101 table: %v", err)
	}
}

// TestRuleNames101: the engine's 101 refusals are named as protocol.md 5.8
// says.
func TestRuleNames101(t *testing.T) {
	for err, want := range map[error]Rule{
		engine.ErrOpening:   "false-opening",
		engine.ErrNotOpened: "add-before-open",
		engine.ErrMustUse:   "kept-discard",
		engine.ErrMeld:      "bad-meld",
		engine.ErrSwap:      "bad-swap",
		engine.ErrKeepTile:  "rules",
		engine.ErrNotHeld:   "phantom-tile",
		engine.ErrTurn:      "out-of-turn",
	} {
		if got := ruleOf(fmt.Errorf("%w: detail", err)); got != want {
			t.Errorf("%v: %s, want %s", err, got, want)
		}
	}
}
