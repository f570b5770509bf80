package table

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// TestRestartMidHand stops one peer in the middle of the first hand (its
// process "dies"), starts it again from its data directory with a fresh
// transport, and checks the match finishes with identical chains.
func TestRestartMidHand(t *testing.T) {
	cfg, keys, err := LocalConfig("turkish-rummy:rounds=1", 3, 77)
	if err != nil {
		t.Fatal(err)
	}
	net := NewMemNet(Faults{}, 77)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mk := func(seat int, store Store, onStep func(*Machine)) *Peer {
		pc := PeerConfig{Table: cfg, Seat: seat, Key: keys[seat], Transport: net.Join(cfg.Seats[seat].ID),
			Mover: &simpleMover{rng: rand.New(rand.NewPCG(77, uint64(seat)))}, Store: store, Stall: 300 * time.Millisecond, Withhold: 10 * time.Minute}
		if onStep != nil {
			pc.OnStep = func(m *Machine, _ *engine.View) { onStep(m) }
		}
		p, err := NewPeer(pc)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	store1, err := OpenDirStore(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	dieCtx, die := context.WithCancel(ctx)
	diedAt := uint32(0)
	victim := mk(1, store1, func(m *Machine) {
		if m.Match() != nil && m.phase == phMove && m.Match().Hand().Turns() >= 3 && diedAt == 0 {
			diedAt = m.Step()
			die()
		}
	})
	peers := []*Peer{mk(0, nil, nil), victim, mk(2, nil, nil)}
	results := make([]Result, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for _, i := range []int{0, 2} {
		wg.Add(1)
		go func() { defer wg.Done(); results[i], errs[i] = peers[i].Run(ctx) }()
	}
	if _, err := victim.Run(dieCtx); err == nil {
		t.Fatal("victim finished before it died")
	}
	net.Leave(cfg.Seats[1].ID)
	store1.Close()
	if diedAt == 0 {
		t.Fatal("victim never reached the point of death")
	}
	store2, err := OpenDirStore(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	reborn := mk(1, store2, nil)
	if reborn.Machine().Step() < diedAt {
		t.Fatalf("resumed at step %d, died at %d", reborn.Machine().Step(), diedAt)
	}
	peers[1] = reborn
	results[1], errs[1] = reborn.Run(ctx)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	checkHonest(t, &LocalResult{Config: cfg, Results: results, Peers: peers})
}
