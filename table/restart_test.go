package table

import (
	"context"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// TestRestartMidHand stops one peer in the middle of the first hand (its
// process "dies"), starts it again from its data directory with a fresh
// transport, and checks the match finishes with identical chains; also
// when the machine stopped in the middle of writing a record (a torn last
// record, dropped on loading).
func TestRestartMidHand(t *testing.T) {
	t.Run("clean", func(t *testing.T) { restartMidHand(t, false, "turkish-rummy:rounds=1", 3) })
	t.Run("torn-tail", func(t *testing.T) { restartMidHand(t, true, "turkish-rummy:rounds=1", 3) })
}

// TestRestartMidHand101: the same in an Okey 101 match (2 seats; without
// the race detector only, make test's non-race line).
func TestRestartMidHand101(t *testing.T) {
	lane.NoRace(t)
	restartMidHand(t, true, "101:rounds=3", 2)
}

func restartMidHand(t *testing.T, tear bool, ruleset string, n int) {
	cfg, keys, err := LocalConfig(ruleset, n, 77)
	if err != nil {
		t.Fatal(err)
	}
	net := NewMemNet(Faults{}, 77)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	mk := func(seat int, store Store, onStep func(*Machine)) *Peer {
		var mv Mover = &simpleMover{rng: rand.New(rand.NewPCG(77, uint64(seat)))}
		if cfg.Rules().Preset == engine.Preset101 {
			mv = bot.NewB101()
		}
		pc := PeerConfig{Table: cfg, Seat: seat, Key: keys[seat], Transport: net.Join(cfg.Seats[seat].ID),
			Mover: mv, Store: store, Stall: 300 * time.Millisecond, Withhold: 10 * time.Minute}
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
		turns := 0
		switch {
		case m.Match() != nil:
			turns = m.Match().Hand().Turns()
		case m.Match101() != nil:
			turns = m.Match101().Game().Turns()
		}
		if m.phase == phMove && turns >= 3 && diedAt == 0 {
			diedAt = m.Step()
			die()
		}
	})
	peers := []*Peer{mk(0, nil, nil), victim}
	for i := 2; i < n; i++ {
		peers = append(peers, mk(i, nil, nil))
	}
	results := make([]Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range peers {
		if i == 1 {
			continue
		}
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
	if tear {
		f, err := os.OpenFile(store1.TranscriptPath(), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte{RecEnvelope, 0, 0, 1, 0, 'O', 'K', 'Y'}) // 256 bytes announced, 3 written
		f.Close()
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
