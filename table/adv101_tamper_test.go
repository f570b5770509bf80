package table

import (
	"crypto/ed25519"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// round101 is a 101 table's first round (chain and keys), played once per
// process for the tampering tests: 3 seats (two colluders and a victim),
// 2 under the race detector (where it is slow; a single tamperer there).
var round101 struct {
	once sync.Once
	tr   *Transcript
	keys []ed25519.PrivateKey
}

func firstRound101(t testing.TB) (*Transcript, []ed25519.PrivateKey) {
	round101.once.Do(func() {
		n := 3
		if raceDetector {
			n = 2
		}
		l := newLockstep(t, "101", n, 31)
		l.until(func() bool { return l.m().HandNumber() > 0 })
		round101.tr, round101.keys = l.transcript(), l.keys
	})
	if round101.tr == nil {
		t.Fatal("no round played")
	}
	return round101.tr, round101.keys
}

// tamper101 is what one or two colluding seats can do to a 101 transcript
// with their own keys: re-sign their own records (mostly moves) with a body
// byte changed to a plausible slot, face, index or action, or with another
// of their own move bodies; keep the chain whole or cut it after the change;
// or add such a record as evidence.
func tamper101(t testing.TB, tr *Transcript, keys []ed25519.PrivateKey, seats []int, rng *rand.Rand) *Transcript {
	c := &Transcript{Config: tr.Config, Chain: append([][]byte(nil), tr.Chain...), Evidence: append([][]byte(nil), tr.Evidence...)}
	h := tr.Config.Hash()
	for k := 0; k < 1+rng.IntN(2); k++ {
		seat := seats[rng.IntN(len(seats))]
		var own, moves []int
		for i, raw := range c.Chain {
			if env, err := DecodeEnvelope(raw); err == nil && int(env.Seat) == seat {
				own = append(own, i)
				if env.Kind == KindMove {
					moves = append(moves, i)
				}
			}
		}
		if len(own) == 0 {
			continue
		}
		pick := own[rng.IntN(len(own))]
		if len(moves) > 0 && rng.IntN(4) != 0 {
			pick = moves[rng.IntN(len(moves))]
		}
		mut := func(e *Envelope) {
			switch {
			case len(moves) > 1 && rng.IntN(3) == 0:
				other, _ := DecodeEnvelope(c.Chain[moves[rng.IntN(len(moves))]])
				e.Body = append([]byte(nil), other.Body...)
			case len(e.Body) > 0:
				i := rng.IntN(min(len(e.Body), 12))
				e.Body[i] = byte(rng.IntN(110))
			default:
				e.Kind = Kind(1 + rng.IntN(9))
			}
		}
		switch rng.IntN(3) {
		case 0:
			c.Chain[pick] = resign(t, c.Chain[pick], keys[seat], h, mut)
		case 1:
			c.Chain[pick] = resign(t, c.Chain[pick], keys[seat], h, mut)
			c.Chain = c.Chain[:pick+1]
		case 2:
			c.Evidence = append(c.Evidence, resign(t, c.Chain[pick], keys[seat], h, mut))
		}
	}
	return c
}

// TestCollusionTamperingNamesNoOneElse101: a 3-seat 101 round's transcript,
// tampered by one seat or by two colluding seats with their own keys (their
// moves re-signed with other slots, faces, meld indices or actions, or
// replaced by their other moves), never makes Verify name a seat outside
// the tamperers.
func TestCollusionTamperingNamesNoOneElse101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const seed = 31
	tr, keys := firstRound101(t)
	n := len(keys)
	rng := rand.New(rand.NewPCG(seed, 2))
	cases := 40
	if raceDetector || testing.Short() {
		cases = 4
	}
	named := 0
	for k := 0; k < cases; k++ {
		seats := []int{rng.IntN(n)}
		if n > 2 && rng.IntN(2) == 0 {
			seats = append(seats, (seats[0]+1+rng.IntN(n-1))%n)
		}
		c := tamper101(t, tr, keys, seats, rng)
		rep := Verify(c)
		if v := rep.Violation; v != nil {
			named++
			if v.Seat != seats[0] && (len(seats) == 1 || v.Seat != seats[1]) {
				t.Fatalf("case %d: seats %v tampered; verify names seat %d for %s: %v", k, seats, v.Seat, v.Rule, v.Err)
			}
		}
	}
	t.Logf("%d of %d tampered transcripts named a tamperer", named, cases)
}

// FuzzCollusionTampering101 is the property above with the fuzzer choosing
// the tamperers and the changes.
func FuzzCollusionTampering101(f *testing.F) {
	tr, keys := firstRound101(f)
	n := len(keys)
	f.Add(uint64(1), uint64(2), uint8(0))
	f.Add(uint64(7), uint64(99), uint8(5))
	f.Fuzz(func(t *testing.T, a, b uint64, who uint8) {
		seats := []int{int(who) % n}
		if n > 2 && who&0x80 != 0 {
			seats = append(seats, (seats[0]+1)%n)
		}
		rep := Verify(tamper101(t, tr, keys, seats, rand.New(rand.NewPCG(a, b))))
		if v := rep.Violation; v != nil && v.Seat != seats[0] && (len(seats) == 1 || v.Seat != seats[1]) {
			t.Fatalf("seats %v tampered; verify names seat %d for %s: %v", seats, v.Seat, v.Rule, v.Err)
		}
	})
}
