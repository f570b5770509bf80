package p2p

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/okey-game/okey/p2p/invite"
)

// InviteAddrs orders a host's addresses for an invite code: public ones
// first, then private (LAN) ones, then loopback; relayed (/p2p-circuit)
// and /p2p ones left out (relays go in the code's relay list), duplicates
// dropped, at most invite.MaxAddrs.
func InviteAddrs(addrs []ma.Multiaddr) []ma.Multiaddr {
	rank := func(a ma.Multiaddr) int {
		switch {
		case manet.IsIPLoopback(a):
			return 2
		case manet.IsPrivateAddr(a):
			return 1
		}
		return 0
	}
	var out []ma.Multiaddr
	for _, a := range addrs {
		bad := len(a) == 0
		for _, c := range a {
			bad = bad || c.Code() == ma.P_P2P || c.Code() == ma.P_CIRCUIT
		}
		if !bad && !slices.ContainsFunc(out, a.Equal) {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(x, y ma.Multiaddr) int { return rank(x) - rank(y) })
	if len(out) > invite.MaxAddrs {
		out = out[:invite.MaxAddrs]
	}
	return out
}

// InviteRelays are the relays an invite code of this node carries: each
// relay it uses (its first address that is not loopback, else its first),
// and itself first when it serves as a relay (its first public address).
func (n *Node) InviteRelays() []ma.Multiaddr {
	var out []ma.Multiaddr
	add := func(id peer.ID, addrs []ma.Multiaddr) {
		var pick ma.Multiaddr
		for _, a := range InviteAddrs(addrs) {
			if pick == nil || manet.IsIPLoopback(pick) && !manet.IsIPLoopback(a) {
				pick = a
			}
		}
		if pick == nil {
			return
		}
		p2p, err := ma.NewComponent("p2p", id.String())
		if err != nil {
			return
		}
		out = append(out, pick.AppendComponent(p2p))
	}
	if n.RelayService() != nil {
		add(n.h.ID(), n.h.Addrs())
	}
	for _, r := range n.Relays() {
		add(r.ID, r.Addrs)
	}
	return out
}

// Ways DialCode reached a creator.
const (
	ReachLocal  = "local"
	ReachDirect = "direct"
	ReachRelay  = "relay"
)

// DialCode connects to the creator of an invite code: its local (private
// and loopback) addresses first, so that a code works on a LAN where mDNS
// is blocked; then its other addresses; then through each relay of the
// code (/p2p/RELAY/p2p-circuit/p2p/CREATOR, after presenting the table's
// relay token). It returns which way worked, or an error wrapping
// ErrUnreachable that lists each way's failure.
func (n *Node) DialCode(ctx context.Context, c invite.Code) (string, error) {
	if n.Connected(c.Creator) {
		return ReachDirect, nil
	}
	var local, direct []ma.Multiaddr
	for _, a := range c.Addrs {
		if manet.IsIPLoopback(a) || manet.IsPrivateAddr(a) {
			local = append(local, a)
		} else {
			direct = append(direct, a)
		}
	}
	try := func(addrs []ma.Multiaddr, d time.Duration) error {
		dctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return n.h.Connect(dctx, peer.AddrInfo{ID: c.Creator, Addrs: addrs})
	}
	var errs []error
	keep := func(addrs []ma.Multiaddr) {
		n.h.Peerstore().AddAddrs(c.Creator, addrs, peerstore.AddressTTL)
	}
	localWait := min(3*time.Second, n.cfg.retry.DialTimeout)
	if len(local) > 0 {
		if err := try(local, localWait); err == nil {
			keep(local)
			return ReachLocal, nil
		} else {
			errs = append(errs, fmt.Errorf("local addresses: %w", err))
		}
	}
	if len(direct) > 0 {
		if err := try(direct, n.cfg.retry.DialTimeout); err == nil {
			keep(direct)
			return ReachDirect, nil
		} else {
			errs = append(errs, fmt.Errorf("direct addresses: %w", err))
		}
	}
	for _, r := range c.Relays {
		ai, err := peer.AddrInfoFromP2pAddr(r)
		if err != nil {
			errs = append(errs, fmt.Errorf("relay %s: %w", r, err))
			continue
		}
		if err := n.UseRelay(ctx, *ai, c.Table, c.Secret.RelayToken(c.Table, []byte(ai.ID)), false); err != nil {
			errs = append(errs, fmt.Errorf("relay %s: %w", ai.ID, err))
			continue
		}
		circuit, err := ma.NewMultiaddr(r.String() + "/p2p-circuit")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := try([]ma.Multiaddr{circuit}, 2*n.cfg.retry.DialTimeout); err == nil {
			keep([]ma.Multiaddr{circuit})
			return ReachRelay, nil
		} else {
			errs = append(errs, fmt.Errorf("relay %s: %w", ai.ID, err))
		}
	}
	if len(errs) == 0 {
		errs = append(errs, errors.New("the code has no address"))
	}
	if ctx.Err() != nil {
		errs = append(errs, ctx.Err())
	}
	return "", fmt.Errorf("%w %s: %w", ErrUnreachable, c.Creator, errors.Join(errs...))
}
