package p2p

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p/relay"
)

// TestRelayFlood is the relay flood figure (scripts/relay-flood.sh runs
// it against an okey relay process and reads that process's peak RSS).
// Two admitted members with no direct link play "moves" (a message every
// 50 ms each way) through the relay while 100 stranger identities make
// 1,000 attempts: 400 reservations, 400 circuits to a member, 200 joins
// with a wrong token. Every attempt must be refused and every move must
// arrive. Skipped unless OKEY_RELAY_FLOOD names the relay's multiaddr and
// OKEY_RELAY_FLOOD_DATA its data directory (for the allow-list).
func TestRelayFlood(t *testing.T) {
	addr, data := os.Getenv("OKEY_RELAY_FLOOD"), os.Getenv("OKEY_RELAY_FLOOD_DATA")
	if addr == "" || data == "" {
		t.Skip("OKEY_RELAY_FLOOD and OKEY_RELAY_FLOOD_DATA not set (scripts/relay-flood.sh sets them)")
	}
	rinfo, err := relay.ParseAddr(addr)
	if err != nil {
		t.Fatal(err)
	}
	ga, gb := &noDirect{}, &noDirect{}
	a := gatedNode(t, "a", ga)
	b := gatedNode(t, "b", gb)
	ga.Block(b.ID())
	gb.Block(a.ID())
	if err := os.WriteFile(filepath.Join(data, "relay-allow"), []byte(a.ID().String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var token [32]byte
	token[3] = 77
	if err := a.UseRelay(ctx, rinfo, "flood", token, true); err != nil {
		t.Fatal(err)
	}
	if err := b.UseRelay(ctx, rinfo, "flood", token, false); err != nil {
		t.Fatal(err)
	}
	tts := joinAll(t, []*Node{a, b}, "flood", acceptAll)

	// The moves: each side sends a stamped message every 50 ms; the other
	// records its delay.
	var delays []time.Duration
	var dmu sync.Mutex
	var sent, got atomic.Int64
	stopMoves := make(chan struct{})
	var mw sync.WaitGroup
	for i, tt := range tts {
		other := tts[1-i]
		mw.Go(func() {
			tk := time.NewTicker(50 * time.Millisecond)
			defer tk.Stop()
			for {
				select {
				case <-stopMoves:
					return
				case <-tk.C:
				}
				if err := tt.Broadcast(ctx, fmt.Appendf(nil, "%d", time.Now().UnixNano())); err != nil {
					t.Errorf("broadcast: %v", err)
					return
				}
				sent.Add(1)
			}
		})
		mw.Go(func() {
			for {
				select {
				case p, ok := <-other.Inbox():
					if !ok {
						return
					}
					var ns int64
					fmt.Sscan(string(p.Data), &ns)
					dmu.Lock()
					delays = append(delays, time.Since(time.Unix(0, ns)))
					dmu.Unlock()
					got.Add(1)
				case <-stopMoves:
					return
				case <-ctx.Done():
					return
				}
			}
		})
	}

	// The strangers.
	const identities, attempts = 100, 10
	var accepted, refused atomic.Int64
	start := time.Now()
	circ := ma.StringCast(rinfo.Addrs[0].String() + "/p2p/" + rinfo.ID.String() + "/p2p-circuit")
	var sw sync.WaitGroup
	sem := make(chan struct{}, 20) // 20 strangers at a time
	for i := range identities {
		sw.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"), WithRelayClient())
			if err != nil {
				t.Error(err)
				return
			}
			defer h.Close()
			for k := range attempts {
				actx, acancel := context.WithTimeout(ctx, 10*time.Second)
				var err error
				switch {
				case k < 4:
					_, err = client.Reserve(actx, h, rinfo)
				case k < 8:
					err = h.Connect(actx, peer.AddrInfo{ID: a.ID(), Addrs: []ma.Multiaddr{circ}})
				default:
					var wrong [32]byte
					wrong[0] = byte(i)
					err = relay.Join(actx, h, rinfo, "flood", wrong)
				}
				acancel()
				if err == nil {
					accepted.Add(1)
				} else {
					refused.Add(1)
				}
			}
		})
	}
	sw.Wait()
	flood := time.Since(start)
	// Moves keep flowing after the flood too.
	before := got.Load()
	waitFor(t, 20*time.Second, "moves after the flood", func() bool { return got.Load() >= before+20 })
	close(stopMoves)
	mw.Wait()
	if accepted.Load() != 0 {
		t.Fatalf("%d stranger attempts accepted", accepted.Load())
	}
	dmu.Lock()
	slices.Sort(delays)
	p50, p99, worst := delays[len(delays)/2], delays[len(delays)*99/100], delays[len(delays)-1]
	dmu.Unlock()
	t.Logf("flood: %d stranger attempts from %d identities in %v, all refused; moves: %d sent, %d delivered, delay p50 %v p99 %v max %v",
		identities*attempts, identities, flood.Round(time.Millisecond), sent.Load(), got.Load(), p50.Round(time.Microsecond), p99.Round(time.Microsecond), worst.Round(time.Microsecond))
	if got.Load() < sent.Load()-4 { // the last few may still be in flight at stop
		t.Fatalf("moves lost: %d sent, %d delivered", sent.Load(), got.Load())
	}
}
