package netplay

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/metrics"

	"github.com/okey-game/okey/p2p"
)

// BenchmarkMatchBytes plays whole 4-seat classic matches between 4 peers
// over real libp2p on 127.0.0.1 (TCP), each host with a bandwidth counter,
// and reports what one seat sends: the basis of the relay's data-rate cap
// (relay.DefaultRate; protocol.md 7.11). Every byte a seat sends would
// cross a relay if all its links were relayed.
//
//	sent-KB/seat    bytes sent by a seat over the whole match (the mean)
//	max-sent-KB     the seat that sent most
//	peak-KB/s       the most one seat sent in one second
//	hands           hands in the match
//
// go test -run '^$' -bench MatchBytes -benchtime 1x ./lan/
func BenchmarkMatchBytes(b *testing.B) {
	const n = 4
	var sent, maxSent, peak float64
	var hands int
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		clients := make([]*Client, n)
		bws := make([]*metrics.BandwidthCounter, n)
		var addrs []string
		for k := range n {
			dir := b.TempDir()
			key, err := p2p.LoadOrCreateIdentity(dir)
			if err != nil {
				b.Fatal(err)
			}
			bws[k] = metrics.NewBandwidthCounter()
			h, err := p2p.NewHost(p2p.WithIdentity(key), p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"), p2p.WithBandwidthCounter(bws[k]))
			if err != nil {
				b.Fatal(err)
			}
			c, err := Open(ctx, Options{Data: dir, Name: fmt.Sprintf("bytes %d", k), NoMDNS: true, Host: h, Peers: addrs, Lobby: fastLobby, NodeOptions: testNodeOptions()})
			if err != nil {
				b.Fatal(err)
			}
			clients[k] = c
			addrs = append(addrs, c.Addrs()...)
		}
		_, anns := seatCreated(b, ctx, clients, "classic", nil)
		base := make([]int64, n)
		for k := range n {
			base[k] = bws[k].GetBandwidthTotals().TotalOut
		}
		// Sample each seat's bytes sent once a second: the peak rate.
		stop := make(chan struct{})
		var peakMu sync.Mutex
		var peakRate int64
		var sampler sync.WaitGroup
		sampler.Go(func() {
			last := append([]int64(nil), base...)
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
				}
				for k := range n {
					now := bws[k].GetBandwidthTotals().TotalOut
					peakMu.Lock()
					peakRate = max(peakRate, now-last[k])
					peakMu.Unlock()
					last[k] = now
				}
			}
		})
		outs := func() []*Outcome {
			defer func() { close(stop); sampler.Wait() }()
			return playAll(b, ctx, clients, anns, func(int) PlayOptions {
				return PlayOptions{Out: b.TempDir(), Withhold: 10 * time.Minute, Linger: 2 * time.Second}
			})
		}()
		checkHonest(b, outs)
		hands += len(outs[0].Report.Hands)
		for k := range n {
			s := float64(bws[k].GetBandwidthTotals().TotalOut-base[k]) / 1024
			sent += s / n
			maxSent = max(maxSent, s)
		}
		peak = max(peak, float64(peakRate)/1024)
		for _, c := range clients {
			c.Close()
		}
		cancel()
	}
	b.ReportMetric(sent/float64(b.N), "sent-KB/seat")
	b.ReportMetric(maxSent, "max-sent-KB")
	b.ReportMetric(peak, "peak-KB/s")
	b.ReportMetric(float64(hands)/float64(b.N), "hands")
}
