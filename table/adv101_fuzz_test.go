package table

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// movePathTable is the table of before101 (seat 1 to move after its draw,
// not opened), shared with the attack tests; the fuzz target only reads it.
func movePathTable(t testing.TB) (*lockstep, snapshot, int) {
	buildBefore101(t)
	return before101.l, before101.snap, 1
}

// rules101 are the rules a refused 101 move may be named for (protocol.md
// 5.8); anything else (crypto, protocol, an internal error) is a defect.
var rules101 = map[Rule]bool{"malformed-body": true, "phantom-tile": true, "bad-key-share": true, "rules": true,
	"out-of-turn": true, "false-opening": true, "add-before-open": true, "kept-discard": true, "bad-meld": true,
	"bad-swap": true}

// tryMove101 applies body as the cheater's signed move to a copy of the
// honest table and checks the outcome: applied (and then the body is a
// valid layout that encodes back to itself), or refused with the cheater
// named for a rule of 5.8 and the engine state unchanged. With fix, the
// body's share list is replaced by the cheater's real shares for the slots
// its layout opens, so that the input reaches the engine's checks.
func tryMove101(t testing.TB, body []byte, fix bool) (rule string) {
	l, snap, c := movePathTable(t)
	if fix && len(body) > 0 {
		if b, err := decodeMove101(append(append([]byte(nil), body...), 1)); err == nil {
			if open := b.slots(); len(open) > 0 {
				p := l.peers[c]
				sec, err := p.secretFor()
				if err != nil {
					t.Fatal(err)
				}
				if b.shares, err = p.shares(sec, open); err != nil {
					t.Fatal(err)
				}
				body = b.encode()
			}
		}
	}
	m := snap.ms[0].clone()
	before := m.game.appendState(nil)
	env := &Envelope{Table: l.cfg.ID, Hand: m.HandNumber(), Step: m.Step(), Seat: uint8(c), Kind: KindMove,
		Prev: m.Prev(), State: m.StateHash(), Body: body}
	if err := env.Seal(l.keys[c], m.cfgHash); err != nil {
		return "" // too long for an envelope: never sent
	}
	err := m.Apply(env)
	if err == nil {
		b, derr := decodeMove101(body)
		if derr != nil || string(b.encode()) != string(body) {
			t.Fatalf("%x applied, but decodes to %v", body, derr)
		}
		return "applied"
	}
	var v *Violation
	if !errors.As(err, &v) || v.Seat != c || !rules101[v.Rule] {
		t.Fatalf("%x: %v; want seat %d named for a rule of 5.8", body, err, c)
	}
	if string(m.game.appendState(nil)) != string(before) {
		t.Fatalf("%x: refused (%v) but the engine state changed", body, err)
	}
	if !m.Done() || m.Aborted() != v {
		t.Fatalf("%x: refused but the match goes on", body)
	}
	return string(v.Rule)
}

// FuzzMove101Path: any move body a cheater signs at its turn is applied or
// refused with the cheater named for a rule of protocol.md 5.8, without a
// panic and without changing the engine state (fuzz the whole path: decode,
// the rack check, the share list, the public opening, the engine).
func FuzzMove101Path(f *testing.F) {
	for _, seed := range movePathSeeds(f) {
		f.Add(seed, true)
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, body []byte, fix bool) { tryMove101(t, body, fix) })
}

// movePathSeeds are bodies of every action over the cheater's rack, a
// bank slot and the other seat's rack.
func movePathSeeds(t testing.TB) [][]byte {
	l, snap, c := movePathTable(t)
	m := snap.ms[c]
	g := m.Match101().Game()
	rack := g.Rack(c)
	other := g.Rack(1 - c)
	stock := g.Stock()
	sh := []byte{1}
	out := [][]byte{{byte(engine.Act101Draw)}, {byte(engine.Act101Take)}, {byte(engine.Act101GiveBack)},
		{byte(engine.Act101Exhaust)}, {0}, {byte(engine.Act101Reveal)}, {}}
	for _, s := range []engine.Slot{rack[0], rack[5], other[0], stock[0], 105} {
		out = append(out, append([]byte{byte(engine.Act101Discard), byte(s)}, sh...),
			append([]byte{byte(engine.Act101Swap), 0, 0, byte(s)}, sh...),
			append([]byte{byte(engine.Act101Add), 0, 1, byte(s), 3}, sh...))
	}
	for k := 1; k <= 4; k++ {
		b := []byte{byte(engine.Act101Lay), 1, byte(k)}
		for i := 0; i < k; i++ {
			b = append(b, byte(rack[i]), byte(i))
		}
		out = append(out, append(b, sh...))
	}
	_ = l
	return out
}

// TestMove101PathRandom runs the move-path check on seeds and random
// mutations of them (a short deterministic stand-in for the fuzzer in
// make test).
func TestMove101PathRandom(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	seeds := movePathSeeds(t)
	rng := rand.New(rand.NewPCG(1, 2))
	n := 400
	if raceDetector {
		n = 100
	}
	seen := map[string]int{}
	for _, s := range seeds {
		seen[tryMove101(t, s, true)]++
		seen[tryMove101(t, s, false)]++
	}
	for i := 0; i < n; i++ {
		b := append([]byte(nil), seeds[rng.IntN(len(seeds))]...)
		for k := rng.IntN(4); k >= 0 && len(b) > 0; k-- {
			switch rng.IntN(3) {
			case 0:
				b[rng.IntN(len(b))] = byte(rng.IntN(256))
			case 1:
				b[rng.IntN(len(b))] = byte(rng.IntN(110))
			case 2:
				b = append(b, byte(rng.IntN(110)))
			}
		}
		seen[tryMove101(t, b, rng.IntN(4) != 0)]++
	}
	t.Logf("outcomes: %v", seen)
	for _, r := range []string{"applied", "malformed-body", "phantom-tile", "rules", "add-before-open", "bad-meld"} {
		if seen[r] == 0 {
			t.Errorf("no input reached %q: the inputs do not cover the move path", r)
		}
	}
}
