package table

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// The tests of this file are issue 25's consequences for the player: the
// peer's loop reads the table while this seat's mover (a person) thinks.

// blockingMover stands for a person who does not answer: its first move
// waits until the peer cancels it (or a long deadline passes).
type blockingMover struct {
	Mover
	asked     chan struct{} // closed at the first Move
	cancel    chan struct{} // closed by CancelMove
	once      sync.Once
	cancelled atomic.Bool
	calls     atomic.Int32
}

func newBlockingMover(m Mover) *blockingMover {
	return &blockingMover{Mover: m, asked: make(chan struct{}), cancel: make(chan struct{})}
}

func (b *blockingMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	if b.calls.Add(1) > 1 {
		return b.Mover.Move(h, v)
	}
	close(b.asked)
	select {
	case <-b.cancel:
		return engine.Action{}, errors.New("cancelled")
	case <-time.After(time.Minute):
		return engine.Action{}, errors.New("the person never answered and nobody cancelled")
	}
}

func (b *blockingMover) CancelMove() {
	b.once.Do(func() {
		b.cancelled.Store(true)
		close(b.cancel)
	})
}

// TestEvidenceDuringOwnTurn: while seat 0's person thinks over its first
// move, another seat's signed proof of equivocation reaches its peer: the
// peer names the cheater at once (Run returns the violation, which the UI
// shows as the match's end), without waiting for the move, and tells the
// mover to stop (CancelMove).
func TestEvidenceDuringOwnTurn(t *testing.T) {
	const n, seed = 3, 133
	ruleset := "turkish-rummy:rounds=1"
	_, keys, err := LocalConfig(ruleset, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	ms := movers(n, seed)
	person := newBlockingMover(ms[0])
	ms[0] = person
	var seat1 Transport
	var cfg Config // the match's (RunLocal draws the nonces)
	var mu sync.Mutex
	sent := make(chan time.Time, 1)
	go func() {
		select {
		case <-person.asked:
		case <-time.After(2 * time.Minute):
			return
		}
		mu.Lock()
		u, cfg := seat1.(unicaster), cfg
		mu.Unlock()
		// A second hello of seat 1 for step 1 (its first is in the chain):
		// signed by seat 1, proof on its own.
		b := helloBody{ConfigHash: cfg.Hash()}
		b.Nonce[0] = 0xee
		env := &Envelope{Table: cfg.ID, Step: 1, Seat: 1, Kind: KindHello, Body: b.encode()}
		if err := env.Seal(keys[1], cfg.Hash()); err != nil {
			t.Error(err)
			return
		}
		sent <- time.Now()
		if err := u.SendTo(context.Background(), cfg.Seats[0].ID, env.Raw); err != nil {
			t.Error(err)
		}
	}()
	res := runOpts(t, LocalOptions{Ruleset: ruleset, Movers: ms, Seed: seed,
		wrap: func(seat int, tr Transport) Transport {
			if seat == 1 {
				mu.Lock()
				seat1 = tr
				mu.Unlock()
			}
			return tr
		},
		onStep: func(seat int, m *Machine, v *engine.View) {
			if seat == 1 {
				mu.Lock()
				cfg = m.Config()
				mu.Unlock()
			}
		}})
	v := res.Results[0].Violation
	if v == nil || v.Seat != 1 || v.Rule != RuleEquivocation {
		t.Fatalf("seat 0: violation %v (stalled %v); want seat 1 named for equivocation during its own turn", v, res.Results[0].Stalled)
	}
	if !person.cancelled.Load() {
		t.Fatal("the mover still thinking when the match ended was not cancelled")
	}
	if got := person.calls.Load(); got != 1 {
		t.Fatalf("the mover was asked %d times, want once", got)
	}
	if len(res.Peers[0].Chain()) == 0 {
		t.Fatal("no chain")
	}
	select {
	case <-sent:
	default:
		t.Fatal("the proof was never sent")
	}
}

// copyMover checks that the hand and view it gets are not the peer's own
// (those of the last OnStep of its seat).
type copyMover struct {
	Mover
	mu         sync.Mutex
	hand       *engine.Hand
	view       *engine.View
	moves, bad int
}

func (c *copyMover) step(m *Machine, v *engine.View) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.view, c.hand = v, nil
	if mt := m.Match(); mt != nil {
		c.hand = mt.Hand()
	}
}

func (c *copyMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	c.mu.Lock()
	c.moves++
	if h == c.hand || v == c.view || v.Seat != c.view.Seat {
		c.bad++
	}
	c.mu.Unlock()
	return c.Mover.Move(h, v)
}

// TestMoverGetsCopies: the mover runs beside the loop, so it gets a copy of
// the hand and of the view, never the peer's own.
func TestMoverGetsCopies(t *testing.T) {
	const n, seed = 2, 134
	ms := movers(n, seed)
	cm := &copyMover{Mover: ms[0]}
	ms[0] = cm
	res := runOpts(t, LocalOptions{Ruleset: "turkish-rummy:rounds=1", Movers: ms, Seed: seed,
		onStep: func(seat int, m *Machine, v *engine.View) {
			if seat == 0 {
				cm.step(m, v)
			}
		}})
	checkHonest(t, res)
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.moves == 0 || cm.bad != 0 {
		t.Fatalf("%d of %d moves got the peer's own hand or view", cm.bad, cm.moves)
	}
}

// slowMover thinks for a while before its first move.
type slowMover struct {
	Mover
	think time.Duration
	once  atomic.Bool
}

func (s *slowMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	if !s.once.Swap(true) {
		time.Sleep(s.think)
	}
	return s.Mover.Move(h, v)
}

// TestOwnThinkingIsNotSilence: while this seat's own mover thinks past the
// move withhold time, its peer goes on ticking, and does not count its own
// seat as silent: it never ends the match naming itself as the seat that
// stopped answering.
func TestOwnThinkingIsNotSilence(t *testing.T) {
	const seed = 135
	cfg, keys, err := LocalConfig("turkish-rummy:rounds=1", 2, seed)
	if err != nil {
		t.Fatal(err)
	}
	net := NewMemNet(Faults{}, seed)
	ms := movers(2, seed)
	const moveWithhold = 300 * time.Millisecond
	ms[0] = &slowMover{Mover: ms[0], think: 5 * moveWithhold}
	var peers [2]*Peer
	for i := range peers {
		pc := PeerConfig{Table: cfg, Seat: i, Key: keys[i], Transport: net.Join(cfg.Seats[i].ID), Mover: ms[i],
			Stall: 40 * time.Millisecond, Withhold: 10 * time.Minute, MoveWithhold: 10 * time.Second}
		if i == 0 {
			pc.MoveWithhold = moveWithhold
		}
		if peers[i], err = NewPeer(pc); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var results [2]Result
	var errs [2]error
	var wg sync.WaitGroup
	for i := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = peers[i].Run(ctx)
			if i == 0 {
				// The other seat would wait its withhold time for a
				// peer that stopped: the test's answer is in.
				cancel()
			}
		}()
	}
	wg.Wait()
	if errs[0] != nil {
		t.Fatalf("seat 0: %v", errs[0])
	}
	if s := results[0].Stalled; s != nil && s.Seat == 0 {
		t.Fatalf("seat 0's peer named its own seat silent while its mover thought: %v", s)
	}
}
