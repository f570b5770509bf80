package netplay

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestWatchMocknet: a third peer watches a two-seat match from its middle,
// leaves, comes back with the same data folder, and keeps the very
// transcript file the seats keep (verified honest), in a seat's folder
// layout, with no secret; a seat cannot watch its own table, and a watched
// match is not watched again.
func TestWatchMocknet(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 3, 4*time.Minute)
	seats, spect := clients[:2], clients[2]
	created, a := seatCreated(t, ctx, seats, "turkish-rummy", map[string]string{"rounds": "1"})
	if _, err := spect.Watch(ctx, created, WatchOptions{}); !errors.Is(err, ErrAnnouncement) {
		t.Fatalf("watching an open table: %v", err)
	}
	// Seat 0's mover holds its move from the fourth turn until the first
	// visit is over, so that the match cannot end before the spectator
	// leaves (a two-seat match on mocknet takes well under a second).
	var midway atomic.Bool
	var heldAt atomic.Uint32
	release := make(chan struct{})
	var releaseOnce sync.Once
	unhold := func() { releaseOnce.Do(func() { close(release) }) }
	defer unhold()
	var outs []*Outcome
	var wg sync.WaitGroup
	wg.Go(func() {
		outs = playAllMovers(t, ctx, seats, a, func(i int) PlayOptions {
			o := honestPlay(t.TempDir())
			if i == 0 {
				o.OnStep = func(m *table.Machine, _ *engine.View) {
					if !midway.Load() && m.Match() != nil && m.Match().Hand().Turns() >= 4 {
						heldAt.Store(m.Step())
						midway.Store(true)
					}
				}
			}
			return o
		}, func(i int, m table.Mover) table.Mover {
			if i != 0 {
				return m
			}
			return heldMover{m, &midway, release}
		})
	})
	for !midway.Load() {
		select {
		case <-ctx.Done():
			t.Fatal("the match never reached its fourth turn")
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := seats[1].Watch(ctx, a, WatchOptions{}); !errors.Is(err, ErrSeated) {
		t.Fatalf("a seat watching its own table: %v", err)
	}
	// First visit: catch up to where seat 0 holds the match, then leave.
	leaveCtx, leave := context.WithCancel(ctx)
	_, err := spect.Watch(leaveCtx, a, WatchOptions{Stall: 500 * time.Millisecond, OnStep: func(m *table.Machine) {
		if m.Step() >= heldAt.Load() {
			leave()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first visit: %v", err)
	}
	unhold()
	if u, err := spect.Unfinished(); err != nil || len(u) != 0 {
		t.Fatalf("a watched match offered for play: %v %v", u, err)
	}
	// Second visit: it resumes and follows to the end.
	out, err := spect.Watch(ctx, a, WatchOptions{Stall: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if out.Resumed == 0 || out.Seat != table.NoSeat {
		t.Fatalf("second visit resumed at %d, seat %d", out.Resumed, out.Seat)
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	checkHonest(t, append(outs, out))
	dir := filepath.Join(spect.Data(), MatchesDir, a.Table)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
		if strings.HasPrefix(e.Name(), "secret-") {
			t.Fatalf("a spectator saved %s", e.Name())
		}
	}
	for _, want := range []string{announcementFile, "transcript", doneFile, spectatorFile, a.Table + ".okey"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("%s missing from the spectator's folder (%v)", want, names)
		}
	}
	kept, _ := os.ReadFile(filepath.Join(dir, a.Table+".okey"))
	if seat, _ := os.ReadFile(outs[0].Transcript); !bytes.Equal(kept, seat) {
		t.Error("the spectator's saved transcript differs from the seat's")
	}
	if _, err := spect.Watch(ctx, a, WatchOptions{}); !errors.Is(err, ErrMatchOver) {
		t.Fatalf("a watched match watched again: %v", err)
	}
}

// heldMover holds its moves while hold is set, until release is closed.
type heldMover struct {
	table.Mover
	hold    *atomic.Bool
	release <-chan struct{}
}

func (h heldMover) Move(hand *engine.Hand, v *engine.View) (engine.Action, error) {
	if h.hold.Load() {
		<-h.release
	}
	return h.Mover.Move(hand, v)
}
