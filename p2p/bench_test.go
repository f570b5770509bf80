package p2p

import (
	"context"
	"testing"
	"time"
)

// BenchmarkTableRoundTripLoopback measures one table message there and
// back between two nodes over real TCP on 127.0.0.1: a broadcast, and the
// other member's broadcast sent when it arrives (the table protocol's
// lockstep pays this latency per step).
func BenchmarkTableRoundTripLoopback(b *testing.B) {
	var nodes []*Node
	var addrs []string
	for range 2 {
		h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
		if err != nil {
			b.Fatal(err)
		}
		nd, err := NewNode(h, WithStaticPeers(addrs...), WithRetry(fastRetry))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { nd.Close() })
		nodes = append(nodes, nd)
		addrs = append(addrs, nd.Addrs()...)
	}
	tts := joinAll(b, nodes, "rtt", acceptAll)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go func() {
		for p := range tts[1].Inbox() {
			if err := tts[1].Broadcast(ctx, p.Data); err != nil {
				return
			}
		}
	}()
	msg := make([]byte, 600)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg[0], msg[1] = byte(i), byte(i>>8)
		if err := tts[0].Broadcast(ctx, msg); err != nil {
			b.Fatal(err)
		}
		select {
		case <-tts[0].Inbox():
		case <-ctx.Done():
			b.Fatal("no echo")
		}
	}
}
