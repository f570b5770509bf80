package table

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// noSendTransport is a spectator's transport that fails the test when the
// spectator sends or serves anything.
type noSendTransport struct {
	Transport
	sent atomic.Int32
}

func (t *noSendTransport) Broadcast(context.Context, []byte) error {
	t.sent.Add(1)
	return errors.New("test: a spectator broadcast")
}

func (t *noSendTransport) Serve(func(PeerID, []byte) [][]byte) { t.sent.Add(1) }

// TestSpectatorJoinsMidMatchLeavesAndResumes: a spectator joins a table
// in the middle of its first hand, catches up from the members, leaves,
// comes back with the same store, and ends with the very chain the seats
// have (the same transcript, verified honest), having sent nothing and
// saved no secret.
func TestSpectatorJoinsMidMatchLeavesAndResumes(t *testing.T) {
	const n = 2
	cfg, keys, err := LocalConfig("turkish-rummy:rounds=1", n, 91)
	if err != nil {
		t.Fatal(err)
	}
	net := NewMemNet(Faults{}, 91)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	midway := make(chan uint32, 1)
	// The seats hold their eighth turn until the first visit is over, so the
	// match cannot end before the spectator leaves (on a loaded machine it
	// caught up with the end, and its Run ended without leaving).
	visited := make(chan struct{})
	peers := make([]*Peer, n)
	for i := range peers {
		pc := PeerConfig{Table: cfg, Seat: i, Key: keys[i], Transport: net.Join(cfg.Seats[i].ID),
			Mover: &heldMover{Mover: &simpleMover{rng: rand.New(rand.NewPCG(91, uint64(i)))}, turn: 8, until: visited},
			Stall: 300 * time.Millisecond, Withhold: 10 * time.Minute}
		if i == 0 {
			pc.OnStep = func(m *Machine, _ *engine.View) {
				if m.Match() != nil && m.phase == phMove && m.Match().Hand().Turns() == 4 {
					select {
					case midway <- m.Step():
					default:
					}
				}
			}
		}
		if peers[i], err = NewPeer(pc); err != nil {
			t.Fatal(err)
		}
	}
	results := make([]Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range peers {
		wg.Go(func() { results[i], errs[i] = peers[i].Run(ctx) })
	}
	var joinedAt uint32
	select {
	case joinedAt = <-midway:
	case <-ctx.Done():
		t.Fatal("the match never reached its fourth turn")
	}
	dir := t.TempDir()
	watcher := PeerID("spectator-1")
	mk := func(onStep func(*Machine)) (*Spectator, *noSendTransport, *DirStore) {
		store, err := OpenDirStore(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tr := &noSendTransport{Transport: net.Join(watcher)}
		s, err := NewSpectator(SpectatorConfig{Table: cfg, Transport: tr, Store: store, Stall: 300 * time.Millisecond, OnStep: onStep})
		if err != nil {
			t.Fatal(err)
		}
		return s, tr, store
	}
	// First visit: it catches up past the step it joined at, then leaves.
	leaveCtx, leave := context.WithCancel(ctx)
	var leftAt atomic.Uint32
	s1, tr1, store1 := mk(func(m *Machine) {
		if m.Step() > joinedAt+5 && leftAt.Load() == 0 {
			leftAt.Store(m.Step())
			leave()
		}
	})
	if _, err := s1.Run(leaveCtx); !errors.Is(err, context.Canceled) {
		t.Fatalf("first visit: %v, want it to leave (context canceled)", err)
	}
	net.Leave(watcher)
	store1.Close()
	close(visited)
	if leftAt.Load() == 0 {
		t.Fatal("the spectator never caught up")
	}
	// Second visit, same folder: it resumes where it left.
	s2, tr2, store2 := mk(nil)
	defer store2.Close()
	if got := s2.Machine().Step(); got < leftAt.Load() {
		t.Fatalf("resumed at step %d, left at %d", got, leftAt.Load())
	}
	res, err := s2.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", i, err)
		}
	}
	if res.Ended() != nil {
		t.Fatalf("the spectator saw the match end early: %v", res.Ended())
	}
	if tr1.sent.Load()+tr2.sent.Load() != 0 {
		t.Fatal("the spectator sent or served something")
	}
	want := peers[0].Chain()
	got := s2.Chain()
	if len(got) != len(want) {
		t.Fatalf("spectator's chain has %d steps, the seats' %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("step %d differs from the seats'", i)
		}
	}
	// The store's transcript is the seats' transcript, and verifies.
	tr := readTranscriptFile(t, store2.TranscriptPath())
	if rep := Verify(tr); !rep.Honest {
		t.Fatalf("spectator's transcript: %+v", rep)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "secret-") {
			t.Fatalf("a spectator saved a secret: %s", filepath.Join(dir, e.Name()))
		}
	}
	// Racks: before the audit no slot of a rack is public to a spectator;
	// the audit's log has every tile.
	if hs := s2.Machine().Hands(); len(hs) == 0 || len(hs[0].Tiles) != engine.DeckSize {
		t.Fatalf("the audit's tiles are missing from the spectator's log: %d hands", len(hs))
	}
}

// TestSpectatorNeverSpeaks: a node without a seat is never asked to speak,
// whatever the machine expects.
func TestSpectatorNeverSpeaks(t *testing.T) {
	cfg, _, err := LocalConfig("classic", 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMachine(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := newNode(nodeConfig{Table: cfg, Seat: NoSeat, StallTicks: 8, WithholdTicks: 64, MoveWithholdTicks: 64, Spectator: true}, m)
	if rd := n.Ready(); rd.Speak != 0 {
		t.Fatalf("spectator asked to speak %v", rd.Speak)
	}
	// Its first tick asks a member for the chain at once.
	n.Tick()
	rd := n.Ready()
	if len(rd.Fetches) != 1 || rd.Fetches[0].Seat != 0 || rd.Fetches[0].ByHash {
		t.Fatalf("first tick's fetches: %+v", rd.Fetches)
	}
}

// TestSpectatorCannotPoseOrFetchARack: an envelope a spectator signs with
// its own key under a seat's number is rejected by a seat's node and
// changes nothing; a request for anything but the chain (a rack, a seed)
// gets no answer from a seat.
func TestSpectatorCannotPoseOrFetchARack(t *testing.T) {
	cfg, keys, err := LocalConfig("classic", 2, 17)
	if err != nil {
		t.Fatal(err)
	}
	_, spectKeys, err := LocalConfig("classic", 2, 18)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPeer(PeerConfig{Table: cfg, Seat: 0, Key: keys[0], Transport: NewMemNet(Faults{}, 1).Join(cfg.Seats[0].ID),
		Mover: &simpleMover{rng: rand.New(rand.NewPCG(1, 2))}})
	if err != nil {
		t.Fatal(err)
	}
	m := p.Machine()
	for seat := range cfg.Seats {
		env := &Envelope{Table: cfg.ID, Step: 0, Seat: uint8(seat), Kind: KindHello, Prev: m.Prev(), State: m.StateHash(),
			Body: helloBody{ConfigHash: m.cfgHash}.encode()}
		if err := env.Seal(spectKeys[0], m.cfgHash); err != nil {
			t.Fatal(err)
		}
		before := p.n.rejects
		p.n.Step(env.Raw)
		if p.n.rejects != before+1 || len(p.n.buf) != 0 || m.Step() != 0 || p.n.Ready().Apply != nil || m.Aborted() != nil {
			t.Fatalf("a spectator's envelope as seat %d was not rejected or changed the state", seat)
		}
	}
	// Two honest hellos, so that the seat has a chain to serve.
	for seat := range cfg.Seats {
		env := &Envelope{Table: cfg.ID, Step: m.Step(), Seat: uint8(seat), Kind: KindHello, Prev: m.Prev(), State: m.StateHash(),
			Body: helloBody{ConfigHash: m.cfgHash}.encode()}
		if err := env.Seal(keys[seat], m.cfgHash); err != nil {
			t.Fatal(err)
		}
		if err := p.n.applyEnv(env); err != nil {
			t.Fatal(err)
		}
	}
	serve := p.serve(func() ([][]byte, [][32]byte) { return p.n.chain, p.n.hashes })
	if got := serve("spectator", fetchRequest(0)); len(got) != 2 {
		t.Fatalf("the chain itself: %d frames, want 2", len(got))
	}
	for _, req := range [][]byte{
		[]byte("okey/rack/v1\x00"), []byte("okey/secret/v1\x00\x00\x00\x00"), []byte("okey/fetch/v1"),
		fetchHashRequest([32]byte{1}), append(fetchRequest(0), 0),
	} {
		if got := serve("spectator", req); got != nil {
			t.Fatalf("request %q answered with %d frames", req, len(got))
		}
	}
}

// heldMover is Mover until the hand's turn th: from there it waits for
// until to close (a minute at most, so that a failing test ends).
type heldMover struct {
	Mover
	turn  int
	until <-chan struct{}
}

func (m *heldMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	if h.Turns() >= m.turn {
		select {
		case <-m.until:
		case <-time.After(time.Minute):
		}
	}
	return m.Mover.Move(h, v)
}
