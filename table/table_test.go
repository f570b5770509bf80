package table

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
)

// simpleMover draws, wins when it can, and otherwise discards the tile the
// analysis likes least. It sees only the seat's view.
type simpleMover struct{ rng *rand.Rand }

func (s *simpleMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	seat, drawn := h.Turn()
	if !drawn {
		if h.StockLen() == 0 {
			return engine.Action{Kind: engine.ActExhaust, Seat: seat}, nil
		}
		return engine.Action{Kind: engine.ActDraw, Seat: seat}, nil
	}
	slots, faces := v.Rack(h)
	for _, sl := range slots {
		if a, ok := v.WinAction(h, sl); ok {
			return a, nil
		}
	}
	pick := slots[s.rng.IntN(len(slots))]
	if best, _ := engine.BestDiscards(h.Okey(), faces); len(best) > 0 && len(faces) == 15 {
		for i, f := range faces {
			if f == best[0] {
				pick = slots[i]
			}
		}
	}
	return engine.Action{Kind: engine.ActDiscard, Seat: seat, Slot: pick}, nil
}

func testConfig(t testing.TB, preset string, n int, seed uint64) (Config, []ed25519.PrivateKey) {
	t.Helper()
	cfg := Config{Ruleset: preset}
	var keys []ed25519.PrivateKey
	for i := 0; i < n; i++ {
		h := sha256.Sum256([]byte(fmt.Sprintf("seat %d seed %d", i, seed)))
		k := ed25519.NewKeyFromSeed(h[:])
		keys = append(keys, k)
		cfg.Seats = append(cfg.Seats, Seat{ID: PeerID(fmt.Sprintf("peer-%d", i)), Name: fmt.Sprintf("p%d", i),
			Key: k.Public().(ed25519.PublicKey)})
	}
	cfg.ID[0] = byte(seed)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg, keys
}

type runOpts struct {
	faults  Faults
	cheat   Cheat
	cheater int
	stall   time.Duration
}

func runTable(t *testing.T, preset string, n int, seed uint64, o runOpts) ([]Result, []*Peer) {
	t.Helper()
	cfg, keys := testConfig(t, preset, n, seed)
	net := NewMemNet(o.faults, seed)
	peers := make([]*Peer, n)
	for i := 0; i < n; i++ {
		pc := PeerConfig{Table: cfg, Seat: i, Key: keys[i], Transport: net.Join(cfg.Seats[i].ID),
			Mover: &simpleMover{rng: rand.New(rand.NewPCG(seed, uint64(i)))}, Stall: o.stall}
		if pc.Stall == 0 {
			pc.Stall = 500 * time.Millisecond
		}
		if i == o.cheater {
			pc.Cheat = o.cheat
		}
		p, err := NewPeer(pc)
		if err != nil {
			t.Fatal(err)
		}
		peers[i] = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	results := make([]Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = peers[i].Run(ctx)
			if o.cheat != "" && results[i].Violation != nil {
				// Once an honest peer has named the cheater, the rest stop soon.
			}
		}()
	}
	if o.cheat != "" {
		// Honest peers end on their own; a withholding cheater waits for ctx.
		done := make(chan struct{})
		go func() {
			for i := range peers {
				if i == o.cheater {
					continue
				}
				for results[i].Machine == nil && errs[i] == nil {
					time.Sleep(10 * time.Millisecond)
				}
			}
			close(done)
		}()
		_ = done
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !(o.cheat != "" && i == o.cheater) {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
	return results, peers
}

func TestHonestMatch(t *testing.T) {
	for _, tc := range []struct {
		preset string
		n      int
	}{{"turkish-rummy:rounds=1", 2}, {"turkish-rummy:rounds=1", 4}, {"german:rounds=1,strokes", 3}} {
		t.Run(fmt.Sprintf("%s/%d", tc.preset, tc.n), func(t *testing.T) {
			res, peers := runTable(t, tc.preset, tc.n, 1, runOpts{})
			for i, r := range res {
				if r.Violation != nil {
					t.Fatalf("peer %d: violation %v", i, r.Violation)
				}
				if !r.Machine.Done() {
					t.Fatalf("peer %d not done", i)
				}
			}
			want := peers[0].Chain()
			for i, p := range peers {
				got := p.Chain()
				if len(got) != len(want) {
					t.Fatalf("peer %d chain has %d steps, peer 0 %d", i, len(got), len(want))
				}
				if p.Machine().StateHash() != peers[0].Machine().StateHash() {
					t.Fatalf("peer %d state differs", i)
				}
			}
		})
	}
}

var _ = errors.New
