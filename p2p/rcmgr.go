package p2p

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	"github.com/libp2p/go-libp2p/x/rate"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Connection rate limits. libp2p's default resource manager limits the new
// connections per remote IP address (0.2 a second after a burst of 16 per
// IPv4 address) in both directions: a host's own dials count against the
// address it dials. A player whose relay went away spent that budget on its
// own redials and was then refused, by its own host, the dial that would
// have reached the relay once it was back ("rate limit exceeded", 40-80 s
// after a 20 s outage in a new user's lab; issue 36). Limiting one's own
// dials protects no one: okey's hosts limit inbound connections only, as
// libp2p does by default, and bound their own redials by their schedules
// (nodeRelay's redial, the node's dial loops).
var (
	inboundConnLimitV4 = []rate.SubnetLimit{{PrefixLength: 32, Limit: rate.Limit{RPS: 0.2, Burst: 16}}}
	inboundConnLimitV6 = []rate.SubnetLimit{
		{PrefixLength: 56, Limit: rate.Limit{RPS: 0.2, Burst: 16}},
		{PrefixLength: 48, Limit: rate.Limit{RPS: 0.5, Burst: 80}},
	}
	// loopback connections are never limited (libp2p's default too)
	unlimitedPrefixes = []rate.PrefixLimit{
		{Prefix: netip.MustParsePrefix("127.0.0.0/8")},
		{Prefix: netip.MustParsePrefix("::1/128")},
	}
)

// errConnRate is the refusal of an inbound connection over the rate limit
// (libp2p's own words for it).
var errConnRate = errors.New("rate limit exceeded")

// connTap sees every connection the host opens or accepts, before the
// limits (tests: what a reconnect costs).
type connTap func(dir network.Direction, endpoint ma.Multiaddr)

// inboundRateRM is libp2p's resource manager (its default limits) with the
// connection rate limit applied to inbound connections only.
type inboundRateRM struct {
	network.ResourceManager
	inbound *rate.Limiter
	tap     connTap
}

func newResourceManager(tap connTap) (network.ResourceManager, error) {
	limits := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&limits)
	// The inner manager's own rate limiter allows everything: this
	// wrapper applies the limit, and only to inbound connections.
	inner, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(limits.AutoScale()),
		rcmgr.WithConnRateLimiters(&rate.Limiter{}), rcmgr.WithMetricsDisabled())
	if err != nil {
		return nil, fmt.Errorf("p2p: resource manager: %w", err)
	}
	return &inboundRateRM{
		ResourceManager: inner,
		inbound: &rate.Limiter{
			NetworkPrefixLimits: unlimitedPrefixes,
			SubnetRateLimiter: rate.SubnetLimiter{
				IPv4SubnetLimits: inboundConnLimitV4,
				IPv6SubnetLimits: inboundConnLimitV6,
				GracePeriod:      time.Minute,
			},
		},
		tap: tap,
	}, nil
}

func (m *inboundRateRM) OpenConnection(dir network.Direction, usefd bool, endpoint ma.Multiaddr) (network.ConnManagementScope, error) {
	if m.tap != nil {
		m.tap(dir, endpoint)
	}
	if dir == network.DirInbound {
		if ip, ok := endpointIP(endpoint); ok && !m.inbound.Allow(ip) {
			return nil, errConnRate
		}
	}
	return m.ResourceManager.OpenConnection(dir, usefd, endpoint)
}

// endpointIP is the IP address a connection's endpoint starts with (a
// circuit's is its relay's).
func endpointIP(a ma.Multiaddr) (netip.Addr, bool) {
	ip, err := manet.ToIP(a)
	if err != nil {
		return netip.Addr{}, false
	}
	addr, ok := netip.AddrFromSlice(ip)
	return addr.Unmap(), ok
}
