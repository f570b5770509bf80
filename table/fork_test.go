package table

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// A member that signs messages for past steps where another seat spoke,
// each linking to a made-up previous message, over a real transport
// (TestTwoForksOfOneSeatNamed). The flood of such forks, issue 20's first
// section, is the node scripts' (testdata/node/fork_flood*.txt), in ticks.

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
