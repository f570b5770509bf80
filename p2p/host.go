package p2p

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/connmgr"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/metrics"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	ma "github.com/multiformats/go-multiaddr"
)

// Listen addresses for NewHost (WithListenAddrs).
var (
	// DefaultListenAddrs listen on every IPv4 and IPv6 interface, on
	// random ports, over TCP and QUIC.
	DefaultListenAddrs = []string{
		"/ip4/0.0.0.0/tcp/0",
		"/ip4/0.0.0.0/udp/0/quic-v1",
		"/ip6/::/tcp/0",
		"/ip6/::/udp/0/quic-v1",
	}

	// LoopbackListenAddrs listen on 127.0.0.1 only (TCP and QUIC, random
	// ports): for tests and single-machine games.
	LoopbackListenAddrs = []string{
		"/ip4/127.0.0.1/tcp/0",
		"/ip4/127.0.0.1/udp/0/quic-v1",
	}
)

type hostConfig struct {
	key    crypto.PrivKey
	listen []string
	reach  bool
	relays []peer.AddrInfo
	gater  connmgr.ConnectionGater // tests: forbid some dials
	client bool                    // tests: the relay client alone
	bw     *metrics.BandwidthCounter
	tap    connTap // tests: every connection opened or accepted
}

// HostOption configures NewHost.
type HostOption func(*hostConfig) error

// WithIdentity sets the host's private key (default: a fresh Ed25519 key, an
// identity that lasts as long as the process; use LoadOrCreateIdentity for
// the user's persistent one).
func WithIdentity(k crypto.PrivKey) HostOption {
	return func(c *hostConfig) error {
		if k == nil {
			return errors.New("p2p: WithIdentity: nil key")
		}
		c.key = k
		return nil
	}
}

// WithListenAddrs sets the multiaddrs to listen on (default
// DefaultListenAddrs). An empty list is an error: a table peer must be
// reachable.
func WithListenAddrs(addrs ...string) HostOption {
	return func(c *hostConfig) error {
		if len(addrs) == 0 {
			return errors.New("p2p: WithListenAddrs: no address")
		}
		c.listen = append([]string(nil), addrs...)
		return nil
	}
}

// WithReach turns on what reaches peers beyond one LAN (protocol.md section
// 7.8): UPnP/NAT-PMP port mapping, AutoNAT v2, DCUtR hole punching and the
// circuit relay v2 client (dialling through a relay, and accepting
// connections a relay brings). Off by default: a host made for a test never
// sends a UPnP query on the machine's interfaces, and a LAN-only host stays
// exactly as it was.
func WithReach() HostOption {
	return func(c *hostConfig) error {
		c.reach = true
		return nil
	}
}

// WithRelays names the relays this host uses (each with its peer id). It
// implies WithReach. A relay is also a trusted observer of this host's
// public address: what it says it sees is added to the host's addresses at
// once (see observedAddrs), where libp2p itself waits for 4 distinct
// observers, which a table of 2-4 and one relay may never have.
func WithRelays(relays ...peer.AddrInfo) HostOption {
	return func(c *hostConfig) error {
		for _, r := range relays {
			if r.ID == "" || len(r.Addrs) == 0 {
				return errors.New("p2p: WithRelays: a relay needs a peer id and an address")
			}
		}
		c.reach = true
		c.relays = append(c.relays, relays...)
		return nil
	}
}

// WithBandwidthCounter counts the bytes the host sends and receives, in all
// and per protocol (measurements: the bytes a match sends per seat).
func WithBandwidthCounter(bw *metrics.BandwidthCounter) HostOption {
	return func(c *hostConfig) error {
		c.bw = bw
		return nil
	}
}

// WithRelayClient gives the host the relay client without port mapping,
// AutoNAT or hole punching (WithReach has them all): for tests and labs on
// one machine.
func WithRelayClient() HostOption {
	return func(c *hostConfig) error {
		c.client = true
		return nil
	}
}

// WithGater sets the host's connection gater (tests: one that forbids
// direct dials, so that two hosts reach each other only through a relay).
func WithGater(g connmgr.ConnectionGater) HostOption {
	return func(c *hostConfig) error {
		c.gater = g
		return nil
	}
}

// withConnTap is for tests: tap sees every connection the host opens or
// accepts (direction and remote address) before the resource manager's
// limits.
func withConnTap(tap func(network.Direction, ma.Multiaddr)) HostOption {
	return func(c *hostConfig) error {
		c.tap = tap
		return nil
	}
}

// NewHost makes a libp2p host with okey's fixed stack: TCP and QUIC
// transports, the Noise handshake, the Yamux multiplexer, no metrics; with
// WithReach (or WithRelays) also port mapping, AutoNAT v2, hole punching and
// the relay client, and without it no relay and no port mapping. Its
// resource manager has libp2p's default limits, with the connection rate
// limit on inbound connections only (rcmgr.go). The caller
// owns the host (Close it), or hands it to NewNode, which then owns it.
func NewHost(opts ...HostOption) (host.Host, error) {
	c := hostConfig{listen: DefaultListenAddrs}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	if c.key == nil {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			return nil, fmt.Errorf("p2p: generate identity: %w", err)
		}
		c.key = k
	}
	rm, err := newResourceManager(c.tap)
	if err != nil {
		return nil, err
	}
	lopts := []libp2p.Option{
		libp2p.Identity(c.key),
		libp2p.ResourceManager(rm),
		libp2p.ListenAddrStrings(c.listen...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(libp2pquic.NewTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.DisableMetrics(),
		libp2p.UserAgent(UserAgent),
	}
	if c.gater != nil {
		lopts = append(lopts, libp2p.ConnectionGater(c.gater))
	}
	if c.bw != nil {
		lopts = append(lopts, libp2p.BandwidthReporter(c.bw))
	}
	var obs *observedAddrs
	if c.reach {
		obs = newObservedAddrs(c.relays)
		lopts = append(lopts,
			libp2p.EnableRelay(),
			libp2p.NATPortMap(),
			libp2p.EnableAutoNATv2(),
			libp2p.AddrsFactory(obs.factory),
		)
	} else if c.client {
		lopts = append(lopts, libp2p.EnableRelay())
	} else {
		lopts = append(lopts, libp2p.DisableRelay())
	}
	h, err := libp2p.New(lopts...)
	if err != nil {
		rm.Close()
		return nil, fmt.Errorf("p2p: start host: %w", err)
	}
	h = &ownedRMHost{Host: h, rm: rm}
	if obs != nil {
		if err := obs.start(h); err != nil {
			h.Close()
			return nil, err
		}
		observersMu.Lock()
		observers[h.ID()] = obs
		observersMu.Unlock()
		rh, err := startHolePunching(h, obs)
		if err != nil {
			h.Close()
			return nil, err
		}
		return rh, nil
	}
	return h, nil
}

// ownedRMHost is a host with the resource manager NewHost made for it
// (libp2p does not close a resource manager it was given).
type ownedRMHost struct {
	host.Host
	rm network.ResourceManager
}

func (h *ownedRMHost) Close() error {
	err := h.Host.Close()
	return errors.Join(err, h.rm.Close())
}

// IDService is the host's identify service (hole punching needs it).
func (h *ownedRMHost) IDService() identify.IDService {
	if bh, ok := h.Host.(interface{ IDService() identify.IDService }); ok {
		return bh.IDService()
	}
	return nil
}
