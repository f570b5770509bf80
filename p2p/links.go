package p2p

import (
	"context"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	ma "github.com/multiformats/go-multiaddr"
)

// LinkKind is how this node reaches a table member.
type LinkKind int

const (
	// LinkNone means no connection, and nothing heard from the member lately
	// or since its last connection dropped: the member is reconnecting.
	LinkNone LinkKind = iota
	// LinkDirect means a direct connection (LAN, public address, port mapping
	// or hole punch).
	LinkDirect
	// LinkRelayed means only a connection through a relay.
	LinkRelayed
	// LinkViaMember means no connection, but the member's table messages arrive
	// (forwarded by another member's gossip) within linkHeardWithin, and
	// since its last connection dropped.
	LinkViaMember
)

// pingEvery is how often the node pings the table members it is connected
// to, for their round-trip time.
const pingEvery = 10 * time.Second

func (k LinkKind) String() string {
	switch k {
	case LinkDirect:
		return "direct"
	case LinkRelayed:
		return "relayed"
	case LinkViaMember:
		return "via-member"
	}
	return "none"
}

// Link is one member's link as seen from this node.
type Link struct {
	Peer peer.ID
	Kind LinkKind
	// RTT is the smoothed round-trip time of the pings over the member's
	// connection (0: not measured yet, or no connection).
	RTT time.Duration
}

// isRelayed reports whether a connection goes through a relay.
func isRelayed(c network.Conn) bool {
	_, err := c.RemoteMultiaddr().ValueForProtocol(ma.P_CIRCUIT)
	return err == nil
}

// connKinds reports whether this node has a direct connection to p, and
// whether it has one through a relay.
func (n *Node) connKinds(p peer.ID) (direct, relayed bool) {
	for _, c := range n.h.Network().ConnsToPeer(p) {
		if isRelayed(c) {
			relayed = true
		} else {
			direct = true
		}
	}
	return direct, relayed
}

// LinkTo says how this node reaches p.
func (n *Node) LinkTo(p peer.ID) Link {
	l := Link{Peer: p}
	direct, relayed := n.connKinds(p)
	switch {
	case direct:
		l.Kind = LinkDirect
	case relayed:
		l.Kind = LinkRelayed
	default:
		n.mu.Lock()
		t, ok := n.heard[p]
		n.mu.Unlock()
		if ok && time.Since(t) < linkHeardWithin {
			l.Kind = LinkViaMember
		}
	}
	if l.Kind == LinkDirect || l.Kind == LinkRelayed {
		l.RTT = n.h.Peerstore().LatencyEWMA(p)
	}
	return l
}

// Links says how this node reaches each of ps, in order.
func (n *Node) Links(ps []peer.ID) []Link {
	out := make([]Link, len(ps))
	for i, p := range ps {
		out[i] = n.LinkTo(p)
	}
	return out
}

// heardFrom records that a table message authored by p arrived.
func (n *Node) heardFrom(p peer.ID) {
	n.mu.Lock()
	if len(n.heard) < 4096 || n.want[p] > 0 {
		n.heard[p] = time.Now()
	}
	n.mu.Unlock()
}

// linkDropped forgets when p was last heard, as its last connection
// dropped: what was heard came through that connection as likely as not,
// so p counts as reached through a member only once a message of its
// arrives after the drop; until then its link is LinkNone (reconnecting).
func (n *Node) linkDropped(p peer.ID) {
	n.mu.Lock()
	delete(n.heard, p)
	n.mu.Unlock()
}

// pingLoop pings the connected table members now and then, so that their
// round-trip time is known (libp2p's ping records it in the peerstore).
func (n *Node) pingLoop() {
	defer n.wg.Done()
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		}
		n.mu.Lock()
		var ps []peer.ID
		for p := range n.want {
			ps = append(ps, p)
		}
		n.mu.Unlock()
		for _, p := range ps {
			if !n.Connected(p) {
				continue
			}
			ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
			select {
			case <-ping.Ping(network.WithNoDial(ctx, "okey rtt"), n.h, p):
			case <-ctx.Done():
			}
			cancel()
		}
	}
}
