package p2p

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
)

// DefaultListenAddrs listen on every IPv4 and IPv6 interface, on random
// ports, over TCP and QUIC.
var DefaultListenAddrs = []string{
	"/ip4/0.0.0.0/tcp/0",
	"/ip4/0.0.0.0/udp/0/quic-v1",
	"/ip6/::/tcp/0",
	"/ip6/::/udp/0/quic-v1",
}

// LoopbackListenAddrs listen on 127.0.0.1 only (TCP and QUIC, random ports):
// for tests and single-machine games.
var LoopbackListenAddrs = []string{
	"/ip4/127.0.0.1/tcp/0",
	"/ip4/127.0.0.1/udp/0/quic-v1",
}

// UserAgent is what the host tells its peers in identify.
const UserAgent = "okey/1"

type hostConfig struct {
	key    crypto.PrivKey
	listen []string
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

// NewHost makes a libp2p host with okey's fixed stack: TCP and QUIC
// transports, the Noise handshake, the Yamux multiplexer, no relay, no NAT
// port mapping, no metrics. The caller owns the host (Close it), or hands it
// to NewNode, which then owns it.
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
	h, err := libp2p.New(
		libp2p.Identity(c.key),
		libp2p.ListenAddrStrings(c.listen...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(libp2pquic.NewTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.DisableRelay(),
		libp2p.DisableMetrics(),
		libp2p.UserAgent(UserAgent),
	)
	if err != nil {
		return nil, fmt.Errorf("p2p: start host: %w", err)
	}
	return h, nil
}
