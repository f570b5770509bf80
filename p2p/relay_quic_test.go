package p2p

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// TestRelayRequestOverQUIC: a relay request over QUIC gets its answer.
// The relay answers and closes its stream, and QUIC's close also stops the
// stream's reading side: before the client half-closed its request the
// answer never arrived ("no answer: EOF"), so no table could use a relay
// reached over QUIC (issue 23's NAT lab).
func TestRelayRequestOverQUIC(t *testing.T) {
	t.Parallel()
	rh, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/udp/0/quic-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer rh.Close()
	c, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/udp/0/quic-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	svc, err := NewRelayService(rh, RelayConfig{Log: testLogger(t), Allowed: func(p peer.ID) bool { return p == c.ID() }})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var tok [32]byte
	relay := peer.AddrInfo{ID: rh.ID(), Addrs: rh.Addrs()}
	if err := RelayRegister(ctx, c, relay, "t1", tok, RelayKey{}); err != nil {
		t.Fatal(err)
	}
	// A refusal arrives too (a stranger: not allowed).
	s, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/udp/0/quic-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := RelayRegister(ctx, s, relay, "t2", tok, RelayKey{}); !errors.Is(err, ErrRelayNotAllowed) {
		t.Fatalf("a stranger's registration over QUIC: %v", err)
	}
}
