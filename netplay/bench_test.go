package netplay

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkLoopbackMatch plays whole 4-player matches (turkish-rummy,
// one hand) between 4 peers over real libp2p on 127.0.0.1 (TCP, no mDNS),
// each peer with its own host, identity and data directory, and reports:
//
//	ms/hand        wall time of the match per hand (compare: okey sim)
//	seat-ms        lobby: from create to every peer holding the started table
//	deal-ms        first shuffle to a full rack, the slowest seat
//	draw-p50-ms    a draw from the stock: applied to the tile's face known
//	draw-p99-ms
func BenchmarkLoopbackMatch(b *testing.B) {
	const n = 4
	var hands int
	var play, seat time.Duration
	var deals, draws []time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		clients := make([]*Client, n)
		var addrs []string
		for k := range n {
			c, err := Open(ctx, Options{Data: b.TempDir(), Name: fmt.Sprintf("bench %d", k), NoMDNS: true,
				Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Peers: addrs, Lobby: fastLobby, NodeOptions: testNodeOptions()})
			if err != nil {
				b.Fatal(err)
			}
			clients[k] = c
			addrs = append(addrs, c.Addrs()...)
		}
		// Every peer connected to every other before the clock starts.
		for _, c := range clients {
			for _, o := range clients {
				for c != o && !c.Node().Connected(o.Node().ID()) {
					if ctx.Err() != nil {
						b.Fatal("peers never connected")
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
		}
		t0 := time.Now()
		_, anns := seatCreated(b, ctx, clients, "turkish-rummy", map[string]string{"rounds": "1"})
		seat += time.Since(t0)
		b.StartTimer()
		outs := playAll(b, ctx, clients, anns, func(int) PlayOptions {
			return PlayOptions{Out: b.TempDir(), Withhold: 10 * time.Minute, Linger: 5 * time.Second}
		})
		b.StopTimer()
		checkHonest(b, outs)
		var slowestPlay time.Duration
		for _, o := range outs {
			slowestPlay = max(slowestPlay, o.Elapsed)
		}
		play += slowestPlay
		hands += len(outs[0].Report.Hands)
		var slowest time.Duration
		for _, o := range outs {
			for _, d := range o.Timing.Deals {
				slowest = max(slowest, d)
			}
			draws = append(draws, o.Timing.Draws...)
		}
		deals = append(deals, slowest)
		for _, c := range clients {
			c.Close()
		}
		cancel()
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(play)/float64(hands), "ms/hand")
	b.ReportMetric(ms(seat)/float64(b.N), "seat-ms")
	b.ReportMetric(ms(percentile(deals, 50)), "deal-ms")
	b.ReportMetric(ms(percentile(draws, 50)), "draw-p50-ms")
	b.ReportMetric(ms(percentile(draws, 99)), "draw-p99-ms")
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, (len(s)*p+99)/100-1)]
}
