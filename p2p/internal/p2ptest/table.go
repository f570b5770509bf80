package p2ptest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/table"
)

// Member is a table member's transport as the table tests drive it
// (p2p.TableTransport): S is its statistics, printed when a member fails.
type Member[S any] interface {
	Self() table.PeerID
	Broadcast(ctx context.Context, data []byte) error
	Inbox() <-chan table.Packet
	Stats() S
	Close() error
}

// JoinAll calls join(ctx, i) for each of n nodes concurrently (a node's
// JoinTable waits for the others) and returns the transports in node
// order; they close when the test ends.
func JoinAll[T interface{ Close() error }](t testing.TB, n int, join func(ctx context.Context, i int) (T, error)) []T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tts := make([]T, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			tts[i], errs[i] = join(ctx, i)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d JoinTable: %v", i, err)
		}
		t.Cleanup(func() { tts[i].Close() })
	}
	return tts
}

// Exchange makes every member broadcast count messages and checks that
// every other member receives all of them (any order), and none of its own.
func Exchange[S any, M Member[S]](t testing.TB, tts []M, count int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	got := make([]map[string]bool, len(tts))
	errs := make([]error, len(tts))
	start := time.Now()
	for i, tt := range tts {
		got[i] = map[string]bool{}
		want := count * (len(tts) - 1)
		wg.Go(func() {
			for len(got[i]) < want {
				select {
				case p, ok := <-tt.Inbox():
					if !ok {
						errs[i] = errors.New("inbox closed")
						return
					}
					if p.From == tt.Self() {
						errs[i] = errors.New("own message delivered")
						return
					}
					if !strings.HasPrefix(string(p.Data), string(p.From)+"/") {
						errs[i] = fmt.Errorf("message %q attributed to %s", p.Data, p.From)
						return
					}
					got[i][string(p.Data)] = true
				case <-ctx.Done():
					errs[i] = fmt.Errorf("received %d of %d messages: %w", len(got[i]), want, ctx.Err())
					return
				}
			}
		})
	}
	for _, tt := range tts {
		wg.Go(func() {
			for k := range count {
				if err := tt.Broadcast(ctx, fmt.Appendf(nil, "%s/%d", tt.Self(), k)); err != nil {
					t.Errorf("broadcast: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("member %d: %v (stats %+v)", i, err, tts[i].Stats())
		}
	}
	t.Logf("%d members x %d messages delivered everywhere in %v", len(tts), count, time.Since(start))
}
