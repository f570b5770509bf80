package p2p

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p/internal/p2ptest"
	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/p2p/relay"
	"github.com/okey-game/okey/table"
)

type noDirect = p2ptest.NoDirect

// relayHost starts a relay on loopback that lets allowed register tables.
func relayHost(t *testing.T, allowed ...peer.ID) (host.Host, *relay.Service, peer.AddrInfo) {
	t.Helper()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	svc, err := relay.New(h, relay.Config{Log: testLogger(t).With("node", "relay"), Allowed: func(p peer.ID) bool {
		for _, a := range allowed {
			if a == p {
				return true
			}
		}
		return false
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return h, svc, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()}
}

// gatedNode is a loopback node whose gater can forbid direct links. Its
// host has the relay client (WithReach is not used: no port mapping in
// tests).
func gatedNode(t *testing.T, name string, g *noDirect, relays ...peer.AddrInfo) *Node {
	t.Helper()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"), WithGater(g), WithRelayClient())
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNode(h, WithLogger(testLogger(t).With("node", name)), WithRetry(fastRetry), WithNodeRelays(relays...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// TestRelayOnlyLink: two members with no direct link reach each other
// through the relay: the table's gossip, the catch-up stream (/okey/sync)
// and the lobby's direct stream all flow over the circuit, which is not
// Limited; the link is classified relayed, with a round-trip time.
func TestRelayOnlyLink(t *testing.T) {
	t.Parallel()
	ga, gb := &noDirect{}, &noDirect{}
	a0 := gatedNode(t, "a", ga)
	_, svc, rinfo := relayHost(t, a0.ID())
	a := a0
	b := gatedNode(t, "b", gb)
	ga.Block(b.ID())
	gb.Block(a.ID())
	var token [32]byte
	copy(token[:], "a table's relay token, 32 bytes")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// A joiner before the table is registered: refused, nothing admitted.
	if err := b.UseRelay(ctx, rinfo, "t1", token, false); !errors.Is(err, relay.ErrUnknownTable) {
		t.Fatalf("join before registration: %v", err)
	}
	if err := a.UseRelay(ctx, rinfo, "t1", token, true); err != nil {
		t.Fatalf("register: %v", err)
	}
	if err := b.UseRelay(ctx, rinfo, "t1", token, false); err != nil {
		t.Fatalf("join: %v", err)
	}
	if svc.Tables() != 1 {
		t.Fatalf("relay has %d tables", svc.Tables())
	}
	// A direct dial fails (the gater), so Connect goes through the relay.
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID()}); err != nil {
		t.Fatalf("connect through the relay: %v", err)
	}
	for _, c := range a.Host().Network().ConnsToPeer(b.ID()) {
		if !isRelayed(c) {
			t.Fatalf("a direct connection exists: %v", c.RemoteMultiaddr())
		}
		if c.Stat().Limited {
			t.Fatal("the relayed connection is Limited: pubsub would not use it")
		}
	}
	tts := joinAll(t, []*Node{a, b}, "t1", acceptAll)
	exchange(t, tts, 20)
	tts[1].Serve(func(_ table.PeerID, req []byte) [][]byte { return [][]byte{req, []byte("ok")} })
	got, err := tts[0].Fetch(ctx, tts[1].Self(), []byte("catch-up"))
	if err != nil || len(got) != 2 || string(got[0]) != "catch-up" {
		t.Fatalf("fetch over the relay: %q %v", got, err)
	}
	if l := a.LinkTo(b.ID()); l.Kind != LinkRelayed {
		t.Fatalf("link a->b is %v, want relayed", l.Kind)
	}
	waitFor(t, 25*time.Second, "a round-trip time to b", func() bool { return a.LinkTo(b.ID()).RTT > 0 })
	// The lobby's stream (admission) is a direct stream too: b serves the
	// lobby protocol's id here (p2p/lobby registers it on a node's host).
	const lobbyProtocol = "/okey/lobby/1.0.0"
	b.Host().SetStreamHandler(lobbyProtocol, func(s network.Stream) { io.Copy(io.Discard, s); s.Close() })
	s, err := a.Host().NewStream(ctx, b.ID(), lobbyProtocol)
	if err != nil {
		t.Fatalf("lobby stream over the relay: %v", err)
	}
	s.Reset()
}

// TestRelayACL: the relay is never open. A stranger cannot reserve, cannot
// open a circuit to an admitted peer, cannot register, is refused with a
// wrong token, and is rate-limited after repeated failures.
func TestRelayACL(t *testing.T) {
	t.Parallel()
	g := &noDirect{}
	creator := gatedNode(t, "creator", g)
	rh, svc, rinfo := relayHost(t, creator.ID())
	stranger := gatedNode(t, "stranger", &noDirect{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var token, wrong [32]byte
	token[0], wrong[0] = 1, 2

	if err := relay.Register(ctx, stranger.Host(), rinfo, "t2", token, relay.Key{}); !errors.Is(err, relay.ErrNotAllowed) {
		t.Fatalf("a stranger's registration: %v", err)
	}
	if err := creator.UseRelay(ctx, rinfo, "t2", token, true); err != nil {
		t.Fatal(err)
	}
	if err := relay.Register(ctx, stranger.Host(), rinfo, "t2", token, relay.Key{}); !errors.Is(err, relay.ErrNotAllowed) {
		t.Fatalf("a stranger's registration of a taken table: %v", err)
	}
	if _, err := client.Reserve(ctx, stranger.Host(), rinfo); err == nil {
		t.Fatal("a stranger reserved a slot")
	}
	// A circuit from the stranger to the admitted creator is refused.
	circ := ma.StringCast(rinfo.Addrs[0].String() + "/p2p/" + rinfo.ID.String() + "/p2p-circuit")
	if err := stranger.Host().Connect(ctx, peer.AddrInfo{ID: creator.ID(), Addrs: []ma.Multiaddr{circ}}); err == nil {
		t.Fatal("a stranger opened a circuit to an admitted peer")
	}
	if err := relay.Join(ctx, stranger.Host(), rinfo, "t2", wrong); !errors.Is(err, relay.ErrBadToken) && !errors.Is(err, relay.ErrRateLimited) {
		t.Fatalf("a wrong token: %v", err)
	}
	// By now the stranger failed at least 3 times; two more and it is
	// refused even with the right token.
	for range 3 {
		relay.Join(ctx, stranger.Host(), rinfo, "t2", wrong)
	}
	if err := relay.Join(ctx, stranger.Host(), rinfo, "t2", token); !errors.Is(err, relay.ErrRateLimited) {
		t.Fatalf("after 5 failures: %v", err)
	}
	if svc.Refused() < 2 {
		t.Fatalf("refused %d, want the reservation and the circuit", svc.Refused())
	}
	// Malformed requests are answered, nothing changes.
	if st := rawRelayRequest(ctx, t, stranger.Host(), rinfo, []byte{9, 1, 'x'}); st != relay.StatusMalformed {
		t.Fatalf("malformed: %d", st)
	}
	if svc.Tables() != 1 {
		t.Fatalf("tables %d", svc.Tables())
	}
	_ = rh
}

// TestServeRelay: a player's own node serves its table as the relay
// (--serve-relay): it registers the table with itself, and two joiners with
// no direct link between them reach each other through it.
func TestServeRelay(t *testing.T) {
	t.Parallel()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"), WithRelayClient())
	if err != nil {
		t.Fatal(err)
	}
	creator, err := NewNode(h, WithLogger(testLogger(t).With("node", "creator")), WithRetry(fastRetry), WithServeRelay(relay.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { creator.Close() })
	if creator.RelayService() == nil {
		t.Fatal("no relay service")
	}
	self := peer.AddrInfo{ID: creator.ID(), Addrs: creator.Host().Addrs()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var token [32]byte
	token[9] = 4
	if err := creator.UseRelay(ctx, self, "mine", token, true); err != nil {
		t.Fatalf("register with the own relay: %v", err)
	}
	if err := creator.UseRelay(ctx, self, "mine", token, false); err == nil {
		t.Fatal("a node joined its own relay")
	}
	gb, gc := &noDirect{}, &noDirect{}
	b := gatedNode(t, "b", gb)
	c := gatedNode(t, "c", gc)
	gb.Block(c.ID())
	gc.Block(b.ID())
	for _, n := range []*Node{b, c} {
		if err := n.UseRelay(ctx, self, "mine", token, false); err != nil {
			t.Fatalf("join the player's relay: %v", err)
		}
	}
	if err := b.Connect(ctx, peer.AddrInfo{ID: c.ID()}); err != nil {
		t.Fatalf("b to c through the player's relay: %v", err)
	}
	if l := b.LinkTo(c.ID()); l.Kind != LinkRelayed {
		t.Fatalf("b to c is %v", l.Kind)
	}
	// A stranger is not served.
	stranger := gatedNode(t, "stranger", &noDirect{})
	if err := relay.Join(ctx, stranger.Host(), self, "mine", [32]byte{}); !errors.Is(err, relay.ErrBadToken) {
		t.Fatalf("a stranger's join: %v", err)
	}
	if err := relay.Register(ctx, stranger.Host(), self, "theirs", token, relay.Key{}); !errors.Is(err, relay.ErrNotAllowed) {
		t.Fatalf("a stranger's registration at a player's relay: %v", err)
	}
}

// TestRelayStaleTableDoesNotBlock: a table the relay no longer knows (a
// record of a table that is gone, a revoked code) does not keep a node from
// being admitted and reserving for its other tables at that relay.
func TestRelayStaleTableDoesNotBlock(t *testing.T) {
	t.Parallel()
	ga, gb := &noDirect{}, &noDirect{}
	a := gatedNode(t, "a", ga)
	_, _, rinfo := relayHost(t, a.ID())
	b := gatedNode(t, "b", gb)
	ga.Block(b.ID())
	gb.Block(a.ID())
	var token, stale [32]byte
	copy(token[:], "a table's relay token, 32 bytes")
	copy(stale[:], "a gone table's token, 32 bytes.")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := b.UseRelay(ctx, rinfo, "gone", stale, false); !errors.Is(err, relay.ErrUnknownTable) {
		t.Fatalf("a table the relay does not know: %v", err)
	}
	if err := a.UseRelay(ctx, rinfo, "t1", token, true); err != nil {
		t.Fatalf("register: %v", err)
	}
	if err := b.UseRelay(ctx, rinfo, "t1", token, false); err != nil {
		t.Fatalf("join t1 while a gone table is still presented: %v", err)
	}
	// b holds a reservation: a reaches it through the relay.
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID()}); err != nil {
		t.Fatalf("connect through the relay: %v", err)
	}
}

// rawRelayRequest sends the bytes b as one relay request, as a client
// would, and returns the relay's status byte.
func rawRelayRequest(ctx context.Context, t *testing.T, h host.Host, r peer.AddrInfo, b []byte) byte {
	t.Helper()
	st, err := h.NewStream(ctx, r.ID, protocol.ID(relay.Protocol))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := wire.WriteFrame(st, b); err != nil {
		t.Fatal(err)
	}
	if err := st.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	var resp [1]byte
	if _, err := io.ReadFull(st, resp[:]); err != nil {
		t.Fatal(err)
	}
	return resp[0]
}
