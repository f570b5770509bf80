package p2p

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// maxTrustedObserved bounds the addresses kept from trusted observers.
const maxTrustedObserved = 8

// observedAddrs is okey's fix for the addresses of a small group behind
// NATs. libp2p adds an address that its peers say they see (identify's
// observed address) to the host's own addresses only once 4 distinct
// observers agree (observedaddrs.ActivationThresh). A table of 2-4 players
// and one relay has at most 4 observers, often fewer, so a player's public
// address would never be advertised: not in its invite code, and not in
// identify for a direct dial. (go-libp2p v0.51's hole puncher itself already
// offers addresses with a single observer: HolePunchAddrs.)
//
// The host trusts the relays it was configured with (WithRelays) as
// observers: a relay is a peer the player chose, on the public side of every
// NAT, and every seat connects to it. What a relay says it sees of a
// connection whose local port is one of this host's listening ports (TCP
// dials reuse the listening port; QUIC uses the listening socket) is added
// to the host's addresses. Behind a NAT whose mapping does not depend on
// the destination (full, restricted and port-restricted cone), that is the
// address every other peer sees too, so a direct dial or a hole punch can
// use it. Behind a symmetric NAT it is the relay's mapping only: dials to it
// fail, and the seat stays relayed (the NAT lab's symmetric home).
//
// A relay that lies can only make this host advertise an address that does
// not answer; it cannot make anyone accept a forged message.
type observedAddrs struct {
	relays map[peer.ID]bool

	mu   sync.Mutex
	seen map[peer.ID][]ma.Multiaddr // per relay, the latest per transport
	h    host.Host
}

func newObservedAddrs(relays []peer.AddrInfo) *observedAddrs {
	o := &observedAddrs{relays: map[peer.ID]bool{}, seen: map[peer.ID][]ma.Multiaddr{}}
	for _, r := range relays {
		o.relays[r.ID] = true
	}
	return o
}

// trust adds a relay learned after the host started (a relay in an invite
// code).
func (o *observedAddrs) trust(p peer.ID) {
	o.mu.Lock()
	o.relays[p] = true
	o.mu.Unlock()
}

func (o *observedAddrs) start(h host.Host) error {
	o.mu.Lock()
	o.h = h
	o.mu.Unlock()
	sub, err := h.EventBus().Subscribe(new(event.EvtPeerIdentificationCompleted))
	if err != nil {
		return fmt.Errorf("p2p: subscribe to identify events: %w", err)
	}
	go func() {
		defer sub.Close()
		for e := range sub.Out() {
			ev := e.(event.EvtPeerIdentificationCompleted)
			o.observe(ev.Peer, ev.Conn.LocalMultiaddr(), ev.ObservedAddr)
		}
	}()
	return nil
}

// observe records what relay p says it sees of a connection whose local
// address is local.
func (o *observedAddrs) observe(p peer.ID, local, observed ma.Multiaddr) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.relays[p] || observed == nil || o.h == nil {
		return
	}
	obs, ok := thinWaist(observed)
	if !ok || manet.IsIPLoopback(obs) || manet.IsIPUnspecified(obs) {
		return
	}
	loc, ok := thinWaist(local)
	if !ok || !o.listensOn(loc) {
		return // an ephemeral port: the mapping says nothing of the listening one
	}
	kind := transportKind(obs)
	if kind == "" || transportKind(loc) != kind {
		return
	}
	list := slices.DeleteFunc(slices.Clone(o.seen[p]), func(a ma.Multiaddr) bool { return transportKind(a) == kind })
	o.seen[p] = append(list, obs)
}

// listensOn reports whether loc's port is one of the host's listening
// ports of the same transport.
func (o *observedAddrs) listensOn(loc ma.Multiaddr) bool {
	port := portOf(loc)
	kind := transportKind(loc)
	for _, l := range o.h.Network().ListenAddresses() {
		if tw, ok := thinWaist(l); ok && transportKind(tw) == kind && portOf(tw) == port {
			return true
		}
	}
	return false
}

// factory is the host's AddrsFactory: its own addresses and those its
// relays see.
func (o *observedAddrs) factory(addrs []ma.Multiaddr) []ma.Multiaddr {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := slices.Clone(addrs)
	n := 0
	for _, p := range slices.Sorted(func(yield func(peer.ID) bool) {
		for p := range o.seen {
			if !yield(p) {
				return
			}
		}
	}) {
		for _, a := range o.seen[p] {
			if n < maxTrustedObserved {
				out = append(out, a)
				n++
			}
		}
	}
	return ma.Unique(out)
}

// punchAddrs are the addresses the host offers in a hole punch: what its
// trusted relays see, and for a transport the host listens on that no relay
// saw (a relay connection runs over one transport, usually TCP: an invite
// code carries the relay's first address), the observed IP with that
// transport's listening port, when a relay saw a listening port unchanged:
// the NAT keeps ports (as Linux's MASQUERADE and most home routers do when
// the port is free), so a cone NAT maps that transport's port to the same
// address once the host sends from it. The guess matters for QUIC: a TCP
// punch between two cone homes fails where a router still holds the
// half-open state of an earlier direct dial between the same ports (its
// answer to the punch leaves without NAT, docs/nat-lab.md), a QUIC one
// does not. Behind a NAT that changes ports (symmetric) nothing is
// guessed. A wrong guess costs one failed dial: the punch dials every
// address offered at once.
func (o *observedAddrs) punchAddrs() []ma.Multiaddr {
	o.mu.Lock()
	defer o.mu.Unlock()
	var seen []ma.Multiaddr
	for _, p := range slices.Sorted(maps.Keys(o.seen)) {
		seen = append(seen, o.seen[p]...)
	}
	if o.h == nil {
		return seen
	}
	var listen []ma.Multiaddr
	for _, l := range o.h.Network().ListenAddresses() {
		if tw, ok := thinWaist(l); ok {
			listen = append(listen, tw)
		}
	}
	return ma.Unique(append(seen, guessPunchAddrs(seen, listen)...))
}

// guessPunchAddrs is punchAddrs' guess: for each observation whose port is
// the listening port of its transport, the same IP with the listening port
// of each other transport (same IP family) that no observation covers.
func guessPunchAddrs(seen, listen []ma.Multiaddr) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, obs := range seen {
		kind, fam := transportKind(obs), ipFamily(obs)
		kept := slices.ContainsFunc(listen, func(l ma.Multiaddr) bool {
			return transportKind(l) == kind && ipFamily(l) == fam && portOf(l) == portOf(obs)
		})
		if !kept {
			continue
		}
		for _, l := range listen {
			k := transportKind(l)
			if k == kind || k == "" || ipFamily(l) != fam || slices.ContainsFunc(seen, func(s ma.Multiaddr) bool { return transportKind(s) == k }) {
				continue
			}
			ip := obs[0]
			out = append(out, append(ma.Multiaddr{ip}, l[1:]...))
		}
	}
	return out
}

func ipFamily(a ma.Multiaddr) int {
	if len(a) == 0 {
		return 0
	}
	return a[0].Protocol().Code
}

// thinWaist cuts a multiaddr to ip/tcp/port or ip/udp/port/quic-v1.
func thinWaist(a ma.Multiaddr) (ma.Multiaddr, bool) {
	if a == nil {
		return nil, false
	}
	var out ma.Multiaddr
	for i, c := range a {
		switch c.Protocol().Code {
		case ma.P_IP4, ma.P_IP6:
			if i != 0 {
				return nil, false
			}
			out = append(out, c)
		case ma.P_TCP:
			return append(out, c), len(out) == 1
		case ma.P_UDP:
			out = append(out, c)
		case ma.P_QUIC_V1:
			return append(out, c), len(out) == 2
		default:
			return nil, false
		}
	}
	return nil, false
}

func transportKind(a ma.Multiaddr) string {
	if _, err := a.ValueForProtocol(ma.P_TCP); err == nil {
		return "tcp"
	}
	if _, err := a.ValueForProtocol(ma.P_QUIC_V1); err == nil {
		return "quic"
	}
	return ""
}

func portOf(a ma.Multiaddr) string {
	if v, err := a.ValueForProtocol(ma.P_TCP); err == nil {
		return v
	}
	if v, err := a.ValueForProtocol(ma.P_UDP); err == nil {
		return v
	}
	return ""
}

// reachHost is a host with okey's own hole-punching service (DCUtR).
// libp2p.EnableHolePunching would start the same service inside the host,
// out of reach: it tries once, when a relayed connection comes in, and a
// peer that has not yet learnt its public address at that moment (its
// relay's observation arrives a few hundred milliseconds later, measured in
// the NAT lab) answers that it does not speak the protocol. Holding the
// service, the node tries again (Node.punchLater).
type reachHost struct {
	host.Host
	hps   *holepunch.Service
	punch func() []ma.Multiaddr // holePunchAddrs
}

func (h *reachHost) Close() error {
	err := h.hps.Close()
	return errors.Join(err, h.Host.Close())
}

// holePunchAddrs are the host's public direct addresses: its own, those
// its relays see and the guesses from them (observedAddrs.punchAddrs).
// Private ones are useless to a peer behind another NAT.
func holePunchAddrs(h host.Host, o *observedAddrs) func() []ma.Multiaddr {
	return func() []ma.Multiaddr {
		var out []ma.Multiaddr
		for _, a := range ma.Unique(append(h.Addrs(), o.punchAddrs()...)) {
			if _, err := a.ValueForProtocol(ma.P_CIRCUIT); err == nil {
				continue
			}
			if manet.IsPublicAddr(a) {
				out = append(out, a)
			}
		}
		return out
	}
}

func startHolePunching(h host.Host, o *observedAddrs) (host.Host, error) {
	bh, ok := h.(interface{ IDService() identify.IDService })
	if !ok || bh.IDService() == nil {
		return nil, errors.New("p2p: the host has no identify service for hole punching")
	}
	// The hole puncher first dials the peer's public addresses directly;
	// behind a NAT that drops unsolicited packets this waits for its
	// timeout (10 s by default) before the punch itself: 3 s is plenty for
	// an address that answers.
	hps, err := holepunch.NewService(h, bh.IDService(), holePunchAddrs(h, o), holepunch.DirectDialTimeout(3*time.Second))
	if err != nil {
		return nil, fmt.Errorf("p2p: start hole punching: %w", err)
	}
	return &reachHost{Host: h, hps: hps, punch: holePunchAddrs(h, o)}, nil
}

// confirmedAddrser is a host that gives the addresses AutoNAT v2 checked
// (libp2p's basic host, and okey's hosts around it).
type confirmedAddrser interface {
	ConfirmedAddrs() (reachable, unreachable, unknown []ma.Multiaddr)
}

// confirmedAddrs are the host's addresses AutoNAT v2 confirmed reachable
// (none without AutoNAT v2: a host without WithReach).
func confirmedAddrs(h host.Host) []ma.Multiaddr {
	if c, ok := h.(confirmedAddrser); ok {
		reachable, _, _ := c.ConfirmedAddrs()
		return reachable
	}
	return nil
}

// ConfirmedAddrs gives the wrapped host's (see confirmedAddrser).
func (h *ownedRMHost) ConfirmedAddrs() (reachable, unreachable, unknown []ma.Multiaddr) {
	if c, ok := h.Host.(confirmedAddrser); ok {
		return c.ConfirmedAddrs()
	}
	return nil, nil, nil
}

// ConfirmedAddrs gives the wrapped host's (see confirmedAddrser).
func (h *reachHost) ConfirmedAddrs() (reachable, unreachable, unknown []ma.Multiaddr) {
	if c, ok := h.Host.(confirmedAddrser); ok {
		return c.ConfirmedAddrs()
	}
	return nil, nil, nil
}

// ReachableAddrs are the addresses others can reach this node at with
// --peer, as full multiaddrs ending in /p2p/<id>: the public ones AutoNAT v2
// confirmed reachable from the internet (a forwarded or UPnP-mapped port, a
// public host), then the node's circuit through each relay it is connected
// to and holds a reservation at. Never a loopback or LAN address, and never
// an address a peer only says it sees (behind a symmetric NAT that is a
// port no one else can use): none at all is the usual answer behind a NAT
// without a relay, and the lobby then says so.
func (n *Node) ReachableAddrs() []string {
	var circuits []ma.Multiaddr
	now := time.Now()
	for _, r := range n.relayList() {
		r.mu.Lock()
		held := r.expires.After(now)
		r.mu.Unlock()
		if held && n.h.Network().Connectedness(r.info.ID) == network.Connected {
			circuits = append(circuits, circuitAddrs(r.info, n.h.ID())...)
		}
	}
	return reachableAddrs(n.h.ID(), confirmedAddrs(n.h), circuits)
}

// reachableAddrs is ReachableAddrs' choice: of confirmed (AutoNAT v2's
// reachable addresses) the direct ones beyond the LAN (libp2p confirms
// public ones only; the NAT lab's "internet" is a documentation range), then circuits (relayed
// addresses without /p2p/self), each with /p2p/self.
func reachableAddrs(self peer.ID, confirmed, circuits []ma.Multiaddr) []string {
	var keep []ma.Multiaddr
	for _, a := range confirmed {
		if _, err := a.ValueForProtocol(ma.P_CIRCUIT); err == nil || manet.IsIPLoopback(a) || manet.IsPrivateAddr(a) || manet.IsIPUnspecified(a) {
			continue
		}
		keep = append(keep, a)
	}
	p2pSelf, err := ma.NewMultiaddr("/p2p/" + self.String())
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range append(keep, circuits...) {
		if s := a.Encapsulate(p2pSelf).String(); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
