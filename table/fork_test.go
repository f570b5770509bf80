package table

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// The tests of this file are issue 20's first section: a member signs
// messages for past steps where another seat spoke, each linking to a
// made-up previous message, floods an honest peer with them and answers its
// fetches for them late (with made-up predecessors, or nothing). The
// victim's loop must not freeze, the table must keep its pace, and a real
// split view after such a flood must still get its author named.

// pacedMover thinks for a fixed time before each move, as a person does:
// the table's pace is then set by its moves, not by the machine's load.
type pacedMover struct {
	Mover
	pace time.Duration
	on   *atomic.Bool
}

func (p pacedMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	if p.on.Load() {
		time.Sleep(p.pace)
	}
	return p.Mover.Move(h, v)
}

// forkFlood is a member that floods one seat with bogus forks. Its peer
// plays honestly; the test sends the forks with its key through its
// transport and answers the victim's fetches of their made-up links.
type forkFlood struct {
	attacker, victim int
	key              ed25519.PrivateKey
	late             time.Duration // how long it takes to answer a fetch of a made-up link
	chains           bool          // answer with made-up predecessors (else nothing)
	depth            int           // links of a made-up chain, at most

	mu      sync.Mutex
	inner   Transport           // the attacker's own transport
	speaker map[uint32]int      // who spoke at each step (seen by the attacker)
	madeUp  map[[32]byte][]byte // made-up link -> the envelope answered for it (nil: none)
	asked   map[PeerID]int      // fetches of made-up links, by asker, as the attacker saw them
	others  int                 // fetches of made-up links the other members got
	held    time.Duration       // the victim's time in fetch-by-hash calls
	holds   int                 // their number
}

func newForkFlood(attacker, victim int, key ed25519.PrivateKey) *forkFlood {
	return &forkFlood{attacker: attacker, victim: victim, key: key, depth: maxForkDepth,
		speaker: map[uint32]int{}, madeUp: map[[32]byte][]byte{}, asked: map[PeerID]int{}}
}

// see records who speaks next (call from the attacker's OnStep).
func (f *forkFlood) see(m *Machine) {
	if m.Done() {
		return
	}
	seat, _ := m.Expect()
	f.mu.Lock()
	f.speaker[m.Step()] = seat
	f.mu.Unlock()
}

// bogus signs an attacker's message for step k linking to a made-up
// previous message: with chains, a signed made-up message for step k-1
// (itself linked the same way, while the steps before were spoken by
// others), else a hash nobody can produce.
func (f *forkFlood) bogus(t testing.TB, m *Machine, k uint32, depth int) []byte {
	var prev [32]byte
	var answer []byte
	if f.chains && depth > 0 && k > 0 {
		if s, ok := f.speaker[k-1]; ok && s != f.attacker {
			answer = f.bogus(t, m, k-1, depth-1)
			prev = sha256Raw(answer)
		}
	}
	if answer == nil {
		rand.Read(prev[:])
	}
	f.madeUp[prev] = answer
	var body [8]byte
	rand.Read(body[:])
	env := &Envelope{Table: m.cfg.ID, Hand: 0, Step: k, Seat: uint8(f.attacker), Kind: KindMove, Prev: prev,
		Body: moveBody{Action: engine.ActDraw, Slot: engine.NoSlot}.encode()}
	copy(env.State[:], body[:])
	if err := env.Seal(f.key, m.cfgHash); err != nil {
		t.Error(err)
	}
	return env.Raw
}

// flood sends count bogus forks to the victim, one for each of the latest
// past steps that another seat spoke (fewer when there are fewer such
// steps: a second message of the attacker for one step would be
// equivocation, named at once, protocol.md 5.2). It returns how many it
// sent.
func (f *forkFlood) flood(t testing.TB, m *Machine, to PeerID, count int) int {
	f.mu.Lock()
	var steps []uint32
	for k := m.Step(); k > 0; k-- {
		if s, ok := f.speaker[k-1]; ok && s != f.attacker {
			steps = append(steps, k-1)
		}
	}
	var raws [][]byte
	for i := 0; i < count && i < len(steps); i++ {
		raws = append(raws, f.bogus(t, m, steps[i], f.depth))
	}
	u := f.inner.(unicaster)
	f.mu.Unlock()
	for _, raw := range raws {
		if err := u.SendTo(context.Background(), to, raw); err != nil {
			t.Error(err)
		}
	}
	return len(raws)
}

// wrap installs the attacker's late answers and measures the victim's
// fetches by hash.
func (f *forkFlood) wrap(seat int, t Transport) Transport {
	switch seat {
	case f.attacker:
		f.inner = t
		return &floodTransport{Transport: t, f: f, attacker: true}
	case f.victim:
		return &floodTransport{Transport: t, f: f}
	}
	return &floodTransport{Transport: t, f: f, other: true}
}

type floodTransport struct {
	Transport
	f               *forkFlood
	attacker, other bool
}

func (t *floodTransport) SendTo(ctx context.Context, peer PeerID, data []byte) error {
	return t.Transport.(unicaster).SendTo(ctx, peer, data)
}

func (t *floodTransport) Fetch(ctx context.Context, peer PeerID, req []byte) ([][]byte, error) {
	start := time.Now()
	frames, err := t.Transport.Fetch(ctx, peer, req)
	if !t.attacker && !t.other && len(req) == len(fetchHashLabel)+32 && string(req[:len(fetchHashLabel)]) == fetchHashLabel {
		t.f.mu.Lock()
		t.f.held += time.Since(start)
		t.f.holds++
		t.f.mu.Unlock()
	}
	return frames, err
}

func (t *floodTransport) Serve(h func(from PeerID, req []byte) [][]byte) {
	t.Transport.Serve(func(from PeerID, req []byte) [][]byte {
		if len(req) != len(fetchHashLabel)+32 || string(req[:len(fetchHashLabel)]) != fetchHashLabel {
			return h(from, req)
		}
		f := t.f
		f.mu.Lock()
		answer, made := f.madeUp[[32]byte(req[len(fetchHashLabel):])]
		if made && t.attacker {
			f.asked[from]++
		} else if made {
			f.others++
		}
		f.mu.Unlock()
		if !made {
			return h(from, req)
		}
		if !t.attacker {
			return h(from, req) // an honest member has none
		}
		time.Sleep(f.late)
		if answer == nil {
			return nil
		}
		return [][]byte{answer}
	})
}

// floodRun is a paced 3-seat match in which seat 0 floods seat 1 with bogus
// forks at some of its move steps.
type floodRun struct {
	res   *LocalResult
	f     *forkFlood
	fired uint32      // the step at which the first flood was sent
	times []time.Time // seat 2's time of applying each step
}

// floodOpts: at the attacker's n-th move step (from 1), floods[n] forks;
// pacing stops after the paced steps from the first flood on.
type floodOpts struct {
	stall  time.Duration
	late   time.Duration
	chains bool
	floods map[int]int
	paced  int
}

const floodSeed = 120

func runFlood(t *testing.T, o floodOpts) *floodRun {
	t.Helper()
	const n, attacker, victim, other = 3, 0, 1, 2
	ruleset := "turkish-rummy:rounds=1"
	_, keys, err := LocalConfig(ruleset, n, floodSeed)
	if err != nil {
		t.Fatal(err)
	}
	f := newForkFlood(attacker, victim, keys[attacker])
	f.chains, f.late = o.chains, o.late
	r := &floodRun{f: f}
	var mu sync.Mutex
	moves := 0
	var pacing atomic.Bool
	pacing.Store(true)
	ms := movers(n, floodSeed)
	for i := range ms {
		ms[i] = pacedMover{Mover: ms[i], pace: o.stall / 2, on: &pacing}
	}
	r.res = runOpts(t, LocalOptions{Ruleset: ruleset, Movers: ms, Seed: floodSeed, Rands: seededRands(n, floodSeed),
		Stall: o.stall, wrap: f.wrap,
		onStep: func(seat int, m *Machine, v *engine.View) {
			switch seat {
			case other:
				mu.Lock()
				r.times = append(r.times, time.Now())
				if r.fired > 0 && len(r.times) > int(r.fired)+o.paced {
					pacing.Store(false)
				}
				mu.Unlock()
			case attacker:
				f.see(m)
				if m.phase != phMove {
					return
				}
				moves++
				count, ok := o.floods[moves]
				if !ok {
					return
				}
				mu.Lock()
				if r.fired == 0 {
					r.fired = m.Step()
				}
				mu.Unlock()
				if count > 0 {
					sent := f.flood(t, m, m.cfg.Seats[victim].ID, count)
					t.Logf("flood at the attacker's move %d (step %d): %d forks", moves, m.Step(), sent)
				}
			}
		}})
	checkHonest(t, r.res)
	if r.fired == 0 {
		t.Fatal("the match never reached its first flood")
	}
	return r
}

// window is how long seat 2 took for the steps from the flood's on.
func (r *floodRun) window(t *testing.T, steps int) time.Duration {
	t.Helper()
	from, to := int(r.fired), int(r.fired)+steps
	if to >= len(r.times) {
		t.Fatalf("the match has %d steps, want %d", len(r.times), to+1)
	}
	return r.times[to].Sub(r.times[from])
}

// floodStall is the stall interval of the flood test: 100 ms, or the
// OKEY_FLOOD_STALL environment variable (the figures at lan's default:
// OKEY_FLOOD_STALL=2s).
func floodStall(t *testing.T) time.Duration {
	stall := 100 * time.Millisecond
	if s := os.Getenv("OKEY_FLOOD_STALL"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		stall = d
	}
	return stall
}

// TestForkFloodDoesNotFreezeTheLoop: 63 bogus forks from one member (one for
// each past step another seat spoke, at its 40th move: a second for one
// step would be equivocation, named at once), each answered late with a
// made-up chain, hold the victim's loop at most
// 2 x Stall in all, and the table's pace during the flood (its next 120
// steps, with moves of Stall/2 each) stays within 20% of the same match's
// without it. Figures: go test -run TestForkFloodDoesNotFreezeTheLoop -v
// ./table/ (OKEY_FLOOD_STALL=2s for lan's default stall).
func TestForkFloodDoesNotFreezeTheLoop(t *testing.T) {
	stall := floodStall(t)
	const steps = 120
	// The two matches (the same seeds, so the same steps) run at once, so
	// that the machine's load weighs on both alike.
	var base, flood *floodRun
	t.Run("both", func(t *testing.T) {
		t.Run("without", func(t *testing.T) {
			t.Parallel()
			base = runFlood(t, floodOpts{stall: stall, late: stall * 9 / 10, chains: true, floods: map[int]int{40: 0}, paced: steps})
		})
		t.Run("with", func(t *testing.T) {
			t.Parallel()
			flood = runFlood(t, floodOpts{stall: stall, late: stall * 9 / 10, chains: true, floods: map[int]int{40: 64}, paced: steps})
		})
	})
	if base == nil || flood == nil {
		t.Fatal("a match failed")
	}
	if base.fired != flood.fired {
		t.Fatalf("flood sent at step %d, the match without it reached the same point at %d", flood.fired, base.fired)
	}
	without, with := base.window(t, steps), flood.window(t, steps)
	f := flood.f
	f.mu.Lock()
	held, holds, asked := f.held, f.holds, f.asked[flood.res.Config.Seats[1].ID]
	f.mu.Unlock()
	rate := func(d time.Duration) float64 { return float64(steps) / d.Seconds() }
	t.Logf("stall %v: the victim's loop waited %v on %d fetches by hash (the attacker asked %d times); seat 2's pace over %d steps: %.1f steps/s without the flood (%v), %.1f with it (%v)",
		stall, held.Round(time.Millisecond), holds, asked, steps, rate(without), without.Round(time.Millisecond), rate(with), with.Round(time.Millisecond))
	if held > 2*stall {
		t.Errorf("the victim's loop waited %v on forks, want at most 2 x Stall = %v", held, 2*stall)
	}
	if rate(with) < 0.8*rate(without) {
		t.Errorf("seat 2's pace fell from %.1f to %.1f steps/s under the flood, want within 20%%", rate(without), rate(with))
	}
}

// TestForkSignerNotAskedTwice: a member that once failed to produce the
// message its own fork links to is not asked again in that match; its later
// forks are still checked with the other members.
func TestForkSignerNotAskedTwice(t *testing.T) {
	stall := 200 * time.Millisecond
	r := runFlood(t, floodOpts{stall: stall, floods: map[int]int{10: 4, 30: 4}})
	f := r.f
	f.mu.Lock()
	defer f.mu.Unlock()
	if got := f.asked[r.res.Config.Seats[1].ID]; got != 1 {
		t.Errorf("the victim asked the forks' signer %d times for their made-up links, want once", got)
	}
	if f.others != 8 {
		t.Errorf("the other members were asked %d times for the made-up links, want 8 (once for each fork)", f.others)
	}
}

// TestSplitViewNamedAfterForkFlood: a member floods seat 2 with bogus forks
// (one for each past step: three), answered late with made-up chains, and then shows seat 2 another
// hello than the others (a split view). Seat 2, and through its evidence
// every honest seat, still names it for equivocation on its two signed
// hellos, and Verify agrees; well before the flood could have been worked
// through one late answer at a time.
func TestSplitViewNamedAfterForkFlood(t *testing.T) {
	const n, cheater, victim = 4, 3, 2
	stall := 400 * time.Millisecond
	ruleset := "turkish-rummy:rounds=1"
	_, keys, err := LocalConfig(ruleset, n, 121)
	if err != nil {
		t.Fatal(err)
	}
	f := newForkFlood(cheater, victim, keys[cheater])
	f.chains, f.late = true, stall*9/10
	fired := false
	// Every honest seat gets a fork for each past step, answered in 0.9 x
	// Stall, one or two links each, before the split hello (more would be
	// a second message of the cheater for one step, named at once:
	// TestTwoForksOfOneSeatNamed).
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	hellos := make(chan int, n)
	res, err := RunLocal(ctx, LocalOptions{Ruleset: ruleset, Movers: movers(n, 121), Seed: 121, Stall: stall,
		Withhold: 10 * time.Minute, Cheat: CheatSplitView, Cheater: cheater, wrap: f.wrap,
		onStep: func(seat int, m *Machine, v *engine.View) {
			if seat != cheater {
				if m.Step() == cheater {
					hellos <- seat // it has the others' hellos: they are past steps
				}
				return
			}
			f.see(m)
			if m.Step() != cheater || fired {
				return
			}
			fired = true
			deadline := time.After(10 * time.Second)
			for range n - 1 {
				select {
				case <-hellos:
				case <-deadline:
					t.Error("the honest seats did not all apply the first three hellos in 10 s")
					return
				}
			}
			for i := range n - 1 {
				f.flood(t, m, m.cfg.Seats[i].ID, 64)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !fired {
		t.Fatal("no flood sent")
	}
	f.mu.Lock()
	t.Logf("the victim waited %v on %d fetches by hash", f.held.Round(time.Millisecond), f.holds)
	f.mu.Unlock()
	expectNamed(t, res, cheater, "equivocation")
	v := res.Results[victim].Violation
	if len(v.Evidence) != 2 {
		t.Fatalf("evidence: %d envelopes, want the two hellos", len(v.Evidence))
	}
	for _, raw := range v.Evidence {
		env, err := DecodeEnvelope(raw)
		if err != nil || env.Seat != cheater || env.Kind != KindHello || env.Verify(res.Config.Seats[cheater].Key, res.Config.Hash()) != nil {
			t.Fatalf("evidence %x: not a hello signed by seat %d (%v)", raw[:16], cheater, err)
		}
	}
}
