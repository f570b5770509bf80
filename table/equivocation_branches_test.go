package table

import (
	"bytes"
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// Two messages signed by one seat for one past step, both on branches the
// chain does not have (protocol.md 5.2, "One message per seat and step"):
// each alone is a fork and proves nothing, the two are equivocation, named
// by the live peer that receives them and by Verify on the file it writes.

// offBranch is seat's message for step, re-signed from the chain's message
// of that step with seat's key, linked to a made-up previous message.
func offBranch(t *testing.T, tr *Transcript, raw []byte, seat int, key []byte) []byte {
	t.Helper()
	return resign(t, raw, key, tr.Config.Hash(), func(e *Envelope) {
		e.Seat = uint8(seat)
		rand.Read(e.Prev[:])
	})
}

// TestVerifyNamesTwoForksOfOneSeat: in a finished 3-seat match, seat X signs
// two messages for a step seat A spoke, each on a made-up link. Verify
// names X for equivocation on the two, whichever order they are in and
// wherever the chain is cut; one of them alone, or one twice, names no one.
func TestVerifyNamesTwoForksOfOneSeat(t *testing.T) {
	lane.NoRace(t)
	const seed = 97
	ruleset := "turkish-rummy:rounds=1"
	res := run(t, ruleset, 3, seed, LocalOptions{})
	checkHonest(t, res)
	_, keys, _ := LocalConfig(ruleset, 3, seed)
	tr := res.Transcript(-1)
	const step = 10
	own, err := DecodeEnvelope(tr.Chain[step])
	if err != nil {
		t.Fatal(err)
	}
	x := (int(own.Seat) + 1) % 3
	f := offBranch(t, tr, tr.Chain[step], x, keys[x])
	g := offBranch(t, tr, tr.Chain[step], x, keys[x])
	verify := func(chain int, evidence ...[]byte) *Report {
		c := *tr
		c.Chain = tr.Chain[:chain]
		c.Evidence = evidence
		// Through the file, as okey verify reads it.
		var b bytes.Buffer
		if err := WriteTranscript(&b, &c); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTranscript(&b)
		if err != nil {
			t.Fatal(err)
		}
		return Verify(back)
	}
	for _, chain := range []int{len(tr.Chain), step + 1, step + 5} {
		for _, ev := range [][][]byte{{f, g}, {g, f}} {
			rep := verify(chain, ev...)
			v := rep.Violation
			if rep.Status() != StatusCheating || v.Seat != x || v.Rule != RuleEquivocation || v.Step != step {
				t.Fatalf("chain of %d, two forks of seat %d for step %d: status %v violation %v invalid %v", chain, x, step, rep.Status(), v, rep.Invalid)
			}
			if len(v.Evidence) != 2 || !bytes.Equal(v.Evidence[0], ev[0]) || !bytes.Equal(v.Evidence[1], ev[1]) {
				t.Fatalf("chain of %d: evidence is not the two forks in file order", chain)
			}
		}
	}
	for name, ev := range map[string][][]byte{"one fork": {f}, "one fork twice": {f, f}, "the other": {g}} {
		if rep := verify(len(tr.Chain), ev...); rep.Status() != StatusHonest {
			t.Fatalf("%s: status %v violation %v invalid %v", name, rep.Status(), rep.Violation, rep.Invalid)
		}
	}
	// Two forks of two seats for one step: no one.
	y := (x + 1) % 3 // neither x nor the chain's seat
	h := offBranch(t, tr, tr.Chain[step], y, keys[y])
	if rep := verify(len(tr.Chain), f, h); rep.Status() != StatusHonest {
		t.Fatalf("forks of two seats: status %v violation %v", rep.Status(), rep.Violation)
	}
}

// TestTwoForksOfOneSeatNamed: during a match, seat 0 sends seat 1 two
// messages it signed for one past step that seat 2 spoke, each on a made-up
// link (nobody can produce either link, so neither fork is ever explained).
// Seat 1 names seat 0 for equivocation at once, with the two as evidence;
// through them every honest seat does, and Verify of each one's transcript
// agrees.
func TestTwoForksOfOneSeatNamed(t *testing.T) {
	const n, attacker, victim, seed = 3, 0, 1, 122
	ruleset := "turkish-rummy:rounds=1"
	_, keys, err := LocalConfig(ruleset, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	f := newForkFlood(attacker, victim, keys[attacker])
	var sent [][]byte
	moves := 0
	res := runOpts(t, LocalOptions{Ruleset: ruleset, Movers: movers(n, seed), Seed: seed, Rands: seededRands(n, seed),
		Stall: 200 * time.Millisecond, wrap: f.wrap,
		onStep: func(seat int, m *Machine, _ *engine.View) {
			if seat != attacker {
				return
			}
			f.see(m)
			if m.phase != phMove {
				return
			}
			if moves++; moves != 5 {
				return
			}
			f.mu.Lock()
			var k uint32
			for k = m.Step() - 1; k > 0 && f.speaker[k] == attacker; k-- {
			}
			a, b := f.bogus(t, m, k, 0), f.bogus(t, m, k, 0)
			u := f.inner.(unicaster)
			f.mu.Unlock()
			sent = [][]byte{a, b}
			for _, raw := range sent {
				if err := u.SendTo(context.Background(), m.cfg.Seats[victim].ID, raw); err != nil {
					t.Error(err)
				}
			}
		}})
	if sent == nil {
		t.Fatal("the match ended before the attacker's fifth move")
	}
	expectNamed(t, res, attacker, RuleEquivocation)
	v := res.Results[victim].Violation
	if len(v.Evidence) != 2 || !bytes.Equal(v.Evidence[0], sent[0]) || !bytes.Equal(v.Evidence[1], sent[1]) {
		t.Fatalf("seat %d's evidence is not the two forks, in the order sent", victim)
	}
}
