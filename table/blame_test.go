package table

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// The tests of this file reproduce, through the package's own APIs, the
// ways a single cheater could get an honest seat named (issue: blame only
// the guilty), and assert who is named now, live by every honest peer and by
// Verify: the cheater, or no one.

// seededRands gives every seat a deterministic source of seeds and nonces,
// so that a match replays exactly (tests only).
func seededRands(n int, seed uint64) []io.Reader {
	out := make([]io.Reader, n)
	for i := range out {
		var k [32]byte
		k[0], k[1] = byte(seed), byte(i)
		out[i] = rand.NewChaCha8(k)
	}
	return out
}

// realBots seats real bots: they fail on a tile they cannot read, so a test
// with them shows that no mover is ever asked to move with junk.
func realBots(n int) []Mover {
	out := make([]Mover, n)
	for i := range out {
		out[i] = bot.NewGreedy()
	}
	return out
}

// runOpts plays one match with the options' own movers and seed.
func runOpts(t *testing.T, o LocalOptions) *LocalResult {
	t.Helper()
	if o.Stall == 0 {
		o.Stall = 400 * time.Millisecond
	}
	if o.Withhold == 0 {
		// No honest step may be mistaken for withholding, however loaded
		// the machine: the context's deadline bounds the test instead.
		o.Withhold = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := RunLocal(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// peerTranscript is one peer's transcript: its chain and the evidence of
// the violation it found.
func peerTranscript(res *LocalResult, seat int) *Transcript {
	t := &Transcript{Config: res.Config, Chain: res.Peers[seat].Chain()}
	if v := res.Results[seat].Violation; v != nil {
		for _, e := range v.Evidence {
			if !inChain(t.Chain, e) {
				t.Evidence = append(t.Evidence, e)
			}
		}
	}
	return t
}

// expectNamed checks that every honest peer and Verify of its transcript
// name the cheater (and only it).
func expectNamed(t *testing.T, res *LocalResult, cheater int, rule Rule) {
	t.Helper()
	for seat, r := range res.Results {
		if seat == cheater {
			continue
		}
		if r.Violation == nil || r.Violation.Seat != cheater || (rule != "" && r.Violation.Rule != rule) {
			t.Fatalf("seat %d: violation %v (stalled %v, failure %v); want seat %d named for %s", seat, r.Violation, r.Stalled, r.Failure, cheater, rule)
		}
		rep := Verify(peerTranscript(res, seat))
		if rep.Status() != StatusCheating || rep.Violation.Seat != cheater {
			t.Fatalf("verify of seat %d's transcript: status %v violation %v invalid %v", seat, rep.Status(), rep.Violation, rep.Invalid)
		}
	}
}

// TestJunkDealtPrivatelyNamesTheShuffler: the last locker puts junk where
// the deal gives it to an honest seat. The victim's peer claims it at its
// next message, the slot opens in public, the audit names the shuffler; the
// victim's bot is never asked to move with junk in its rack.
func TestJunkDealtPrivatelyNamesTheShuffler(t *testing.T) {
	lane.NoRace(t)
	const n, cheater, victim, seed = 3, 2, 0, 91
	ruleset := "turkish-rummy:rounds=1"
	// An honest run with the same randomness shows where the deal puts
	// each slot.
	var rack []engine.Slot
	honest := runOpts(t, LocalOptions{Ruleset: ruleset, Movers: realBots(n), Seed: seed, Rands: seededRands(n, seed),
		onStep: func(seat int, m *Machine, v *engine.View) {
			if seat == victim && rack == nil && m.phase == phMove {
				rack = append([]engine.Slot(nil), m.Match().Hand().Rack(victim)...)
			}
		}})
	checkHonest(t, honest)
	if len(rack) == 0 {
		t.Fatal("no rack seen")
	}
	// The shuffle proof would refuse the junk at once (bad-shuffle-proof):
	// switched off here, to test the defence behind it.
	res := runOpts(t, LocalOptions{Ruleset: ruleset, Movers: realBots(n), Seed: seed, Rands: seededRands(n, seed),
		Cheat: CheatJunkPrivate, Cheater: cheater, junkSlots: []int{int(rack[3])}, noLockProofs: true})
	expectNamed(t, res, cheater, "audit")
	claimed := false
	for _, raw := range res.Peers[victim].Chain() {
		env, err := DecodeEnvelope(raw)
		if err != nil {
			t.Fatal(err)
		}
		if env.Kind == KindJunk {
			if env.Seat != victim {
				t.Fatalf("seat %d claimed junk, want the victim %d", env.Seat, victim)
			}
			claimed = true
		}
	}
	if !claimed {
		t.Fatal("the victim never claimed its junk tile")
	}
}

// TestFalseJunkClaimNamesTheClaimer: a junk claim on a real tile names the
// claimer.
func TestFalseJunkClaimNamesTheClaimer(t *testing.T) {
	lane.NoRace(t)
	const n, seed = 2, 92
	var before *Machine
	var rack []engine.Slot
	res := runOpts(t, LocalOptions{Ruleset: "turkish-rummy:rounds=1", Movers: realBots(n), Seed: seed, Rands: seededRands(n, seed),
		onStep: func(seat int, m *Machine, v *engine.View) {
			if seat == 0 && before == nil && m.phase == phMove {
				if s, _ := m.Expect(); s == 0 {
					before = m.clone()
					rack = m.Match().Hand().Rack(0)
				}
			}
		}})
	checkHonest(t, res)
	if before == nil {
		t.Skip("seat 0 never moved first in this seeded match")
	}
	_, keys, _ := LocalConfig("turkish-rummy:rounds=1", n, seed)
	sec, err := newSecretForTest(before, 0, seededRands(n, seed)[0])
	if err != nil {
		t.Fatal(err)
	}
	body, err := before.Deck().Shares(sec, []int{int(rack[0])})
	if err != nil {
		t.Fatal(err)
	}
	env := &Envelope{Table: before.cfg.ID, Hand: before.HandNumber(), Step: before.Step(), Seat: 0, Kind: KindJunk,
		Prev: before.Prev(), State: before.StateHash(), Body: body}
	if err := env.Seal(keys[0], before.cfgHash); err != nil {
		t.Fatal(err)
	}
	err = before.Apply(env)
	var v *Violation
	if !errors.As(err, &v) || v.Seat != 0 || v.Rule != "false-junk" {
		t.Fatalf("false claim: %v, want seat 0 false-junk", err)
	}
}

// newSecretForTest re-derives seat's hand-0 secret the way its peer did:
// the seat's source gives the config nonce (RunLocal), then the hello
// nonce, then the seed.
func newSecretForTest(m *Machine, seat int, r io.Reader) (*deck.Secret, error) {
	var nonces [NonceSize + nonceSize]byte
	io.ReadFull(r, nonces[:])
	seed := make([]byte, seedSize)
	io.ReadFull(r, seed)
	return deck.SecretFromSeed(m.Session(), m.HandNumber(), m.n, seat, seed)
}

// TestSplitViewNamesTheEquivocator: seat 0 signs two hellos for step 0 and
// shows one to seat 1, the other to seat 2. The seat that sees a message
// linked to the other hello fetches it by its hash and names seat 0; the
// evidence reaches the others. Nobody names an honest seat.
func TestSplitViewNamesTheEquivocator(t *testing.T) {
	const n, cheater = 3, 0
	res := runOpts(t, LocalOptions{Ruleset: "turkish-rummy:rounds=1", Movers: movers(n, 93), Seed: 93,
		Cheat: CheatSplitView, Cheater: cheater})
	expectNamed(t, res, cheater, "equivocation")
}

// resign returns raw with its fields changed by f and signed again with key.
func resign(t testing.TB, raw []byte, key ed25519.PrivateKey, cfg [32]byte, f func(e *Envelope)) []byte {
	e, err := DecodeEnvelope(raw)
	if err != nil {
		t.Fatal(err)
	}
	f(e)
	if err := e.Seal(key, cfg); err != nil {
		t.Fatal(err)
	}
	return e.Raw
}

// TestVerifyChecksTheLinkFirst: a seat that re-signs one of its own records
// (a take for its draw, another hello) makes the file invalid; the next
// speaker is not named.
func TestVerifyChecksTheLinkFirst(t *testing.T) {
	lane.NoRace(t)
	const seed = 94
	res := run(t, "turkish-rummy:rounds=1", 2, seed, LocalOptions{})
	checkHonest(t, res)
	_, keys, _ := LocalConfig("turkish-rummy:rounds=1", 2, seed)
	tr := res.Transcript(-1)
	h := tr.Config.Hash()
	cases := 0
	for i, raw := range tr.Chain[:len(tr.Chain)-1] {
		env, _ := DecodeEnvelope(raw)
		var change func(e *Envelope)
		switch {
		case env.Kind == KindHello:
			change = func(e *Envelope) { e.Body[40] ^= 1 }
		case env.Kind == KindMove && env.Body[0] == byte(engine.ActDraw):
			change = func(e *Envelope) { e.Body[0] = byte(engine.ActTake) }
		default:
			continue
		}
		c := *tr
		c.Chain = append([][]byte(nil), tr.Chain...)
		c.Chain[i] = resign(t, raw, keys[env.Seat], h, change)
		rep := Verify(&c)
		if rep.Violation != nil && rep.Violation.Seat != int(env.Seat) {
			t.Fatalf("record %d re-signed by seat %d: verify names seat %d (%s)", i, env.Seat, rep.Violation.Seat, rep.Violation.Rule)
		}
		if rep.Status() == StatusHonest {
			t.Fatalf("record %d re-signed: honest", i)
		}
		cases++
	}
	if cases < 3 {
		t.Fatalf("only %d records tried", cases)
	}
}

// TestVerifyStatuses: a cut transcript is unfinished with the next speaker,
// not cheating; a torn signature is invalid; an honest one is honest.
func TestVerifyStatuses(t *testing.T) {
	lane.NoRace(t)
	res := run(t, "turkish-rummy:rounds=1", 2, 95, LocalOptions{})
	tr := res.Transcript(-1)
	if st := Verify(tr).Status(); st != StatusHonest {
		t.Fatalf("honest: %v", st)
	}
	for _, cut := range []int{0, 1, 5, len(tr.Chain) / 2, len(tr.Chain) - 1} {
		c := *tr
		c.Chain = tr.Chain[:cut]
		rep := Verify(&c)
		if rep.Status() != StatusUnfinished || rep.Violation != nil || rep.Next == nil || rep.Next.Step != uint32(cut) {
			t.Fatalf("cut at %d: status %v violation %v next %+v", cut, rep.Status(), rep.Violation, rep.Next)
		}
	}
	// A file whose last record is cut short: read up to it, unfinished.
	var buf bytes.Buffer
	if err := WriteTranscript(&buf, tr); err != nil {
		t.Fatal(err)
	}
	torn, err := ReadTranscript(bytes.NewReader(buf.Bytes()[:buf.Len()-10]))
	if err != nil || !torn.Torn || len(torn.Chain) != len(tr.Chain)-1 {
		t.Fatalf("torn file: %v, torn %v, %d records", err, torn != nil && torn.Torn, len(torn.Chain))
	}
	if rep := Verify(torn); rep.Status() != StatusUnfinished || rep.Violation != nil {
		t.Fatalf("torn file: status %v violation %v", rep.Status(), rep.Violation)
	}
	c := *tr
	c.Chain = append([][]byte(nil), tr.Chain...)
	c.Chain[7] = append([]byte(nil), c.Chain[7]...)
	c.Chain[7][len(c.Chain[7])-1] ^= 1
	if rep := Verify(&c); rep.Status() != StatusInvalid || rep.Violation != nil {
		t.Fatalf("bad signature: status %v violation %v", rep.Status(), rep.Violation)
	}
}

// TestEvidenceInterleavedLoads: evidence written before later chain records
// (a crash between the evidence and the end) still loads and is judged.
func TestEvidenceInterleavedLoads(t *testing.T) {
	res := run(t, "turkish-rummy:rounds=1", 2, 96, LocalOptions{})
	tr := res.Transcript(-1)
	_, keys, _ := LocalConfig("turkish-rummy:rounds=1", 2, 96)
	st, err := OpenDirStore(t.TempDir(), tr.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	twin := resign(t, tr.Chain[3], keys[1], tr.Config.Hash(), func(e *Envelope) { e.Body[len(e.Body)-1] ^= 1 })
	for i, raw := range tr.Chain {
		if i == 10 {
			if err := st.Append(RecEvidence, twin); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Append(RecEnvelope, raw); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Chain) != len(tr.Chain) || len(got.Evidence) != 1 {
		t.Fatalf("loaded %d chain records and %d evidence", len(got.Chain), len(got.Evidence))
	}
	if rep := Verify(got); rep.Violation == nil || rep.Violation.Seat != 1 || rep.Violation.Rule != "equivocation" {
		t.Fatalf("verify: %v %v", rep.Violation, rep.Invalid)
	}
}

// seedStore wraps a store and replaces the seed it loads.
type seedStore struct {
	Store
	seed []byte
}

func (s *seedStore) LoadSecret(hand uint32) ([]byte, error) { return s.seed, nil }

// TestLostSeedRefusesToSpeak: a peer restarted after its lock is in the
// chain, with its saved seed changed or gone, refuses to speak (it would
// contradict its own commitment) and names no one, itself included.
func TestLostSeedRefusesToSpeak(t *testing.T) {
	const seed = 97
	_, keys, _ := LocalConfig("turkish-rummy:rounds=1", 2, seed)
	res := run(t, "turkish-rummy:rounds=1", 2, seed, LocalOptions{})
	checkHonest(t, res)
	cfg := res.Config
	chain := res.Peers[0].Chain()
	for name, bad := range map[string][]byte{"changed": make([]byte, seedSize), "lost": nil} {
		t.Run(name, func(t *testing.T) {
			// Both hellos and both shuffles: seat 0 must re-key next.
			ms := NewMemStore(cfg)
			for _, raw := range chain[:4] {
				ms.Append(RecEnvelope, raw)
			}
			net := NewMemNet(Faults{}, 1)
			p, err := NewPeer(PeerConfig{Table: cfg, Seat: 0, Key: keys[0], Transport: net.Join(cfg.Seats[0].ID),
				Mover: movers(1, 1)[0], Store: &seedStore{Store: ms, seed: bad}, Stall: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			r, err := p.Run(ctx)
			if !errors.Is(err, ErrSeedLost) {
				t.Fatalf("run: %v, want ErrSeedLost", err)
			}
			if r.Violation != nil || len(p.Chain()) != 4 {
				t.Fatalf("violation %v, chain %d steps", r.Violation, len(p.Chain()))
			}
		})
	}
}

// TestRulesThatCannotGoOnNameNoOne: an error nobody caused (the engine
// cannot go on after a valid message) stops the match unfinished, with no
// one named, live and in Verify.
func TestRulesThatCannotGoOnNameNoOne(t *testing.T) {
	lane.NoRace(t)
	res := run(t, "turkish-rummy:rounds=1", 2, 98, LocalOptions{})
	tr := res.Transcript(-1)
	m, err := NewMachine(tr.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.failHook = func(*Machine) error { return fmt.Errorf("%w: no tile left to turn up", engine.ErrEmptyStock) }
	var stopped int = -1
	for i, raw := range tr.Chain {
		env, _ := DecodeEnvelope(raw)
		if err := m.Apply(env); err != nil {
			t.Fatalf("step %d: %v (a Failure must not be an error)", i, err)
		}
		if m.Done() {
			stopped = i
			break
		}
	}
	if stopped < 0 || m.Failure() == nil || m.Aborted() != nil {
		t.Fatalf("stopped at %d, failure %v, violation %v", stopped, m.Failure(), m.Aborted())
	}
	if !errors.Is(m.Failure(), engine.ErrEmptyStock) {
		t.Fatalf("failure %v", m.Failure())
	}
}

// tamper applies one random change a single seat can make to a transcript:
// its own records re-signed, records cut or dropped, copies as evidence.
func tamper(t testing.TB, tr *Transcript, keys []ed25519.PrivateKey, rng *rand.Rand) (*Transcript, int) {
	seat := rng.IntN(len(keys))
	c := &Transcript{Config: tr.Config, Chain: append([][]byte(nil), tr.Chain...), Evidence: append([][]byte(nil), tr.Evidence...)}
	h := tr.Config.Hash()
	var own []int
	for i, raw := range c.Chain {
		if env, err := DecodeEnvelope(raw); err == nil && int(env.Seat) == seat {
			own = append(own, i)
		}
	}
	pick := own[rng.IntN(len(own))]
	mut := func(e *Envelope) {
		switch rng.IntN(6) {
		case 0:
			if len(e.Body) > 0 {
				e.Body[rng.IntN(len(e.Body))] ^= byte(1 + rng.IntN(255))
			}
		case 1:
			e.Kind = Kind(1 + rng.IntN(9))
		case 2:
			e.Step = uint32(rng.IntN(len(c.Chain) + 2))
		case 3:
			e.Prev[rng.IntN(32)] ^= 1
		case 4:
			e.State[rng.IntN(32)] ^= 1
		case 5:
			e.Hand ^= 1
		}
	}
	switch rng.IntN(6) {
	case 0: // re-sign an own record in place
		c.Chain[pick] = resign(t, c.Chain[pick], keys[seat], h, mut)
	case 1: // cut the chain
		c.Chain = c.Chain[:rng.IntN(len(c.Chain))]
	case 2: // drop an own record
		c.Chain = append(c.Chain[:pick:pick], c.Chain[pick+1:]...)
	case 3: // a re-signed own record as evidence
		c.Evidence = append(c.Evidence, resign(t, c.Chain[pick], keys[seat], h, mut))
	case 4: // another seat's record copied as evidence
		c.Evidence = append(c.Evidence, c.Chain[rng.IntN(len(c.Chain))])
	case 5: // re-sign an own record and cut the chain after it
		c.Chain[pick] = resign(t, c.Chain[pick], keys[seat], h, mut)
		c.Chain = c.Chain[:pick+1]
	}
	return c, seat
}

// TestSingleSeatTamperingNamesNoOneElse: random changes a seat can make
// with its own key never make Verify name another seat.
func TestSingleSeatTamperingNamesNoOneElse(t *testing.T) {
	lane.NoRace(t)
	const seed = 99
	res := run(t, "turkish-rummy:rounds=1", 2, seed, LocalOptions{})
	tr := res.Transcript(-1)
	_, keys, _ := LocalConfig("turkish-rummy:rounds=1", 2, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	cases := 30
	if testing.Short() {
		cases = 10
	}
	for k := 0; k < cases; k++ {
		c, seat := tamper(t, tr, keys, rng)
		rep := Verify(c)
		if rep.Violation != nil && rep.Violation.Seat != seat {
			t.Fatalf("case %d: seat %d tampered; verify names seat %d for %s: %v", k, seat, rep.Violation.Seat, rep.Violation.Rule, rep.Violation.Err)
		}
	}
}

// FuzzSingleSeatTampering is the property above with the fuzzer choosing
// the changes.
func FuzzSingleSeatTampering(f *testing.F) {
	tr := runForFuzz(f)
	_, keys, _ := LocalConfig(tr.Config.Ruleset, len(tr.Config.Seats), 5) // the seed of honestTranscriptForFuzz
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(7), uint64(99))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		c, seat := tamper(t, tr, keys, rand.New(rand.NewPCG(a, b)))
		rep := Verify(c)
		if rep.Violation != nil && rep.Violation.Seat != seat {
			t.Fatalf("seat %d tampered; verify names seat %d for %s", seat, rep.Violation.Seat, rep.Violation.Rule)
		}
	})
}

// TestReplayFromEarlierMatch: a cheater delivers an honest seat's messages
// from an earlier match of the same table (same id, roster and ruleset).
// Every seat's fresh nonce makes the configs differ, and envelopes are
// signed under the config hash: the old messages verify nowhere, the match
// finishes, and no one is named.
func TestReplayFromEarlierMatch(t *testing.T) {
	lane.NoRace(t)
	const seed = 88
	first := run(t, "turkish-rummy:rounds=1", 3, seed, LocalOptions{})
	checkHonest(t, first)
	var old [][]byte
	for _, raw := range first.Peers[0].Chain() {
		if env, _ := DecodeEnvelope(raw); env.Seat == 0 {
			old = append(old, raw)
		}
	}
	second := run(t, "turkish-rummy:rounds=1", 3, seed, LocalOptions{Cheat: CheatReplay, Cheater: 1, Replay: old})
	if first.Config.ID != second.Config.ID || first.Config.Hash() == second.Config.Hash() {
		t.Fatalf("want the same table id and different configs")
	}
	checkHonest(t, second)
}
