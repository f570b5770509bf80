package p2p

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// TestReachableAddrs: the address others can reach a node at with --peer
// is one that is reachable: none for a host on loopback only (issue 36 item
// 7 showed /ip4/127.0.0.1/...), the relay's circuit while a reservation
// there is held, and a public address AutoNAT v2 confirmed, first.
func TestReachableAddrs(t *testing.T) {
	h, err := NewHost(WithListenAddrs(LoopbackListenAddrs...))
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNode(h, WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if _, ok := h.(confirmedAddrser); !ok {
		t.Fatal("NewHost's host does not give AutoNAT v2's confirmed addresses")
	}
	if len(n.Addrs()) == 0 {
		t.Fatal("the host listens nowhere")
	}
	if got := n.ReachableAddrs(); len(got) != 0 {
		t.Fatalf("a loopback-only host has reachable addresses %q, want none", got)
	}

	// A relay the node is connected to: its circuit only once the relay
	// granted a reservation.
	rh, err := NewHost(WithListenAddrs(LoopbackListenAddrs...))
	if err != nil {
		t.Fatal(err)
	}
	defer rh.Close()
	relay := peer.AddrInfo{ID: rh.ID(), Addrs: rh.Addrs()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Connect(ctx, relay); err != nil {
		t.Fatal(err)
	}
	r, err := n.addRelay(relay)
	if err != nil {
		t.Fatal(err)
	}
	if got := n.ReachableAddrs(); len(got) != 0 {
		t.Fatalf("with no reservation at the relay: %q, want none", got)
	}
	r.mu.Lock()
	r.expires = time.Now().Add(time.Hour)
	r.mu.Unlock()
	viaRelay := relay.Addrs[0].String() + "/p2p/" + relay.ID.String() + "/p2p-circuit"
	circuit := viaRelay + "/p2p/" + h.ID().String()
	if got := n.ReachableAddrs(); !slices.Equal(got, []string{circuit}) {
		t.Fatalf("with a reservation: %q, want %q", got, circuit)
	}

	// What AutoNAT v2 confirmed: public ones only (a private or loopback
	// one is never "from the internet"), before the relay's circuit.
	pub := ma.StringCast("/ip4/203.0.113.7/udp/4001/quic-v1")
	confirmed := []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/4001"), ma.StringCast("/ip4/192.168.1.5/tcp/4001"), pub}
	got := reachableAddrs(h.ID(), confirmed, []ma.Multiaddr{ma.StringCast(viaRelay)})
	want := []string{pub.String() + "/p2p/" + h.ID().String(), circuit}
	if !slices.Equal(got, want) {
		t.Fatalf("confirmed %q: %q, want %q", confirmed, got, want)
	}
	if got := reachableAddrs(h.ID(), []ma.Multiaddr{pub}, nil); !slices.Equal(got, want[:1]) {
		t.Fatalf("a confirmed public address alone: %q, want %q", got, want[:1])
	}
}
