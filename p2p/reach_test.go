package p2p

import (
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// TestTrustedObservation: what a configured relay sees of a connection
// from a listening port becomes one of the host's addresses at once (one
// observer, where libp2p waits for 4); what anyone else says, or what a
// relay sees of an ephemeral port, does not.
func TestTrustedObservation(t *testing.T) {
	t.Parallel()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	relay, stranger := peer.ID("relay"), peer.ID("stranger")
	o := newObservedAddrs([]peer.AddrInfo{{ID: relay}})
	o.h = h
	listen, _ := thinWaist(h.Network().ListenAddresses()[0])
	port := portOf(listen)
	local := ma.StringCast("/ip4/10.0.1.2/tcp/" + port)
	seen := ma.StringCast("/ip4/11.77.0.11/tcp/40000")

	o.observe(stranger, local, seen)
	if got := o.factory(nil); len(got) != 0 {
		t.Fatalf("a stranger's observation was taken: %v", got)
	}
	o.observe(relay, ma.StringCast("/ip4/10.0.1.2/tcp/1"), seen)
	if got := o.factory(nil); len(got) != 0 {
		t.Fatalf("an ephemeral port's observation was taken: %v", got)
	}
	o.observe(relay, local, ma.StringCast("/ip4/127.0.0.1/tcp/40000"))
	if got := o.factory(nil); len(got) != 0 {
		t.Fatalf("a loopback observation was taken: %v", got)
	}
	own := []ma.Multiaddr{listen}
	o.observe(relay, local, seen)
	if got := o.factory(own); len(got) != 2 || !slices.ContainsFunc(got, seen.Equal) {
		t.Fatalf("the relay's observation is not an address: %v", got)
	}
	// A newer observation replaces the older one of the same transport.
	seen2 := ma.StringCast("/ip4/11.77.0.11/tcp/40001")
	o.observe(relay, local, seen2)
	if got := o.factory(nil); len(got) != 1 || !got[0].Equal(seen2) {
		t.Fatalf("after a new observation: %v", got)
	}
	// A relay learnt later (from a code) is trusted from then on.
	later := peer.ID("later")
	o.trust(later)
	o.observe(later, local, ma.StringCast("/ip4/11.77.0.11/tcp/40002"))
	if got := o.factory(nil); len(got) != 2 {
		t.Fatalf("a relay trusted later: %v", got)
	}
}

func TestThinWaist(t *testing.T) {
	for in, want := range map[string]string{
		"/ip4/1.2.3.4/tcp/5":                      "/ip4/1.2.3.4/tcp/5",
		"/ip4/1.2.3.4/tcp/5/p2p/" + pidA:          "/ip4/1.2.3.4/tcp/5",
		"/ip6/::1/udp/7/quic-v1":                  "/ip6/::1/udp/7/quic-v1",
		"/ip4/1.2.3.4/udp/7/quic-v1/webtransport": "/ip4/1.2.3.4/udp/7/quic-v1",
		"/ip4/1.2.3.4/udp/7":                      "",
		"/dns4/example.com/tcp/5":                 "",
		"/p2p/" + pidA + "/p2p-circuit":           "",
	} {
		got, ok := thinWaist(ma.StringCast(in))
		if (want == "") == ok || (ok && got.String() != want) {
			t.Errorf("thinWaist(%s) = %v %v, want %q", in, got, ok, want)
		}
	}
}

// TestPunchAddrsOfferQUIC: a host that listens on TCP and QUIC and whose
// relay connection runs over TCP (the usual case: an invite code carries the
// relay's TCP address) offers a QUIC address in its hole punches too, at
// the observed IP and its QUIC listening port, when the relay sees its TCP
// listening port unchanged (a NAT that keeps ports: a cone NAT's mapping
// of the QUIC port is then that address). Before, it offered TCP only, and
// a TCP punch between two cone homes fails where a QUIC one works (a
// router's half-open TCP state from an earlier dial: docs/nat-lab.md).
// Behind a NAT that changed the port (symmetric), nothing is guessed; a
// transport the relay saw itself is not guessed again.
func TestPunchAddrsOfferQUIC(t *testing.T) {
	t.Parallel()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	relay := peer.ID("relay")
	o := newObservedAddrs([]peer.AddrInfo{{ID: relay}})
	o.h = h
	var tcpPort, quicPort string
	for _, a := range h.Network().ListenAddresses() {
		tw, _ := thinWaist(a)
		switch transportKind(tw) {
		case "tcp":
			tcpPort = portOf(tw)
		case "quic":
			quicPort = portOf(tw)
		}
	}
	if tcpPort == "" || quicPort == "" {
		t.Fatalf("listen addresses: %v", h.Network().ListenAddresses())
	}
	local := ma.StringCast("/ip4/10.0.1.2/tcp/" + tcpPort)
	has := func(got []ma.Multiaddr, s string) bool { return slices.ContainsFunc(got, ma.StringCast(s).Equal) }

	// Symmetric NAT: the relay sees another port; no QUIC guess.
	o.observe(relay, local, ma.StringCast("/ip4/11.77.0.13/tcp/6056"))
	got := o.punchAddrs()
	if len(got) != 1 || !has(got, "/ip4/11.77.0.13/tcp/6056") {
		t.Fatalf("behind a NAT that changes ports: %v", got)
	}
	// A cone NAT that keeps ports: the QUIC port at the same IP is offered.
	o.observe(relay, local, ma.StringCast("/ip4/11.77.0.12/tcp/"+tcpPort))
	got = o.punchAddrs()
	if !has(got, "/ip4/11.77.0.12/tcp/"+tcpPort) || !has(got, "/ip4/11.77.0.12/udp/"+quicPort+"/quic-v1") || len(got) != 2 {
		t.Fatalf("behind a NAT that keeps ports: %v", got)
	}
	// What the hole puncher is given (holePunchAddrs) carries it too, and
	// only public addresses.
	hp := holePunchAddrs(h, o)()
	if !has(hp, "/ip4/11.77.0.12/udp/"+quicPort+"/quic-v1") || slices.ContainsFunc(hp, manetIsLoopback) {
		t.Fatalf("hole punch addresses: %v", hp)
	}
	// The relay saw a QUIC mapping itself: that one, no guess.
	o.observe(relay, ma.StringCast("/ip4/10.0.1.2/udp/"+quicPort+"/quic-v1"), ma.StringCast("/ip4/11.77.0.12/udp/50000/quic-v1"))
	got = o.punchAddrs()
	if !has(got, "/ip4/11.77.0.12/udp/50000/quic-v1") || has(got, "/ip4/11.77.0.12/udp/"+quicPort+"/quic-v1") {
		t.Fatalf("with a QUIC observation: %v", got)
	}
}

func manetIsLoopback(a ma.Multiaddr) bool { return manet.IsIPLoopback(a) }
