package netplay

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestFigureSpectatorJoinsMidMatch measures how long a spectator that
// joins a four-seat match in its second hand takes to see the current
// position: the step the seats were at when it started watching. A figure,
// not part of make test:
// OKEY_FIGURES=1 go test -run TestFigureSpectatorJoinsMidMatch -v ./lan/
func TestFigureSpectatorJoinsMidMatch(t *testing.T) {
	if os.Getenv("OKEY_FIGURES") == "" {
		t.Skip("a figure: set OKEY_FIGURES=1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	_, clients := mockClients(t, 5)
	seats, spect := clients[:4], clients[4]
	_, a := seatCreated(t, ctx, seats, "turkish-rummy", map[string]string{"rounds": "3"})
	var seatStep atomic.Uint32
	var hand2 atomic.Bool
	var wg sync.WaitGroup
	played := make(chan struct{})
	wg.Go(func() {
		defer close(played)
		var pw sync.WaitGroup
		for i, c := range seats {
			mover, err := bot.New("greedy", uint64(i))
			if err != nil {
				t.Error(err)
				return
			}
			o := honestPlay(t.TempDir())
			if i == 0 {
				o.OnStep = func(m *table.Machine, _ *engine.View) {
					seatStep.Store(m.Step())
					if m.HandNumber() >= 1 && m.Match() != nil && m.Match().Hand().Turns() >= 8 {
						hand2.Store(true)
					}
				}
			}
			pw.Go(func() { c.Play(ctx, a, mover, o) }) // ended by cancel once measured
		}
		pw.Wait()
	})
	for !hand2.Load() {
		select {
		case <-ctx.Done():
			t.Fatal("the match never reached its second hand")
		case <-played:
			t.Fatal("the match ended before its second hand")
		case <-time.After(20 * time.Millisecond):
		}
	}
	target := seatStep.Load()
	start := time.Now()
	var reached atomic.Int64
	wctx, leave := context.WithCancel(ctx)
	_, err := spect.Watch(wctx, a, WatchOptions{OnStep: func(m *table.Machine) {
		if m.Step() >= target && reached.Load() == 0 {
			reached.Store(int64(time.Since(start)))
			leave()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("watch: %v", err)
	}
	took := time.Duration(reached.Load())
	t.Logf("a spectator joining at step %d (hand 2, turn 8+, 4 seats) saw that position after %v", target, took.Round(time.Millisecond))
	if took > 3*time.Second {
		t.Errorf("it took %v (limit 3 s)", took)
	}
	cancel()
	wg.Wait()
}
