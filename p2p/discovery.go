package p2p

import (
	"errors"
	"fmt"
	"sync"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/discovery/mdns"

	"github.com/okey-game/okey/p2p/internal/wire"
)

// Discovery finds peers that the Node should dial. Implementations: mDNS
// on the LAN (WithMDNS), static --peer addresses (WithStaticPeers) and
// ManualDiscovery (tests feed it mocknet hosts' addresses).
type Discovery interface {
	// Start begins discovery. found may be called from any goroutine,
	// concurrently, and even shortly after Close (mDNS's callbacks are not
	// waited for): the Node's callback tolerates all of that. A peer may be
	// reported once only: the Node retries failed dials itself.
	Start(found func(peer.AddrInfo)) error
	// Close stops discovery.
	Close() error
}

// mdnsDiscovery is multicast DNS discovery on the LAN with a given service
// name.
// It needs an interface that is up and multicast capable: on a host with
// only loopback, Start fails with "no supported interface".
type mdnsDiscovery struct {
	h       host.Host
	service string

	mu  sync.Mutex
	svc mdns.Service
}

// newMDNS returns mDNS discovery for h; serviceName "" means ServiceName.
func newMDNS(h host.Host, serviceName string) *mdnsDiscovery {
	if serviceName == "" {
		serviceName = ServiceName
	}
	return &mdnsDiscovery{h: h, service: serviceName}
}

type notifee func(peer.AddrInfo)

func (f notifee) HandlePeerFound(ai peer.AddrInfo) { f(ai) }

// Start implements Discovery.
func (m *mdnsDiscovery) Start(found func(peer.AddrInfo)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.svc != nil {
		return errors.New("p2p: mdns already started")
	}
	svc := mdns.NewMdnsService(m.h, m.service, notifee(found))
	if err := svc.Start(); err != nil {
		svc.Close()
		return fmt.Errorf("p2p: start mdns %s: %w", m.service, err)
	}
	m.svc = svc
	return nil
}

// Close implements Discovery.
func (m *mdnsDiscovery) Close() error {
	m.mu.Lock()
	svc := m.svc
	m.svc = nil
	m.mu.Unlock()
	if svc == nil {
		return nil
	}
	return svc.Close()
}

// ParsePeerAddr parses a --peer flag: a multiaddr ending in /p2p/<peer id>,
// e.g. /ip4/192.168.1.20/tcp/4001/p2p/12D3KooW...
func ParsePeerAddr(s string) (peer.AddrInfo, error) { return wire.ParsePeerAddr(s) }

// staticDiscovery reports a fixed list of peers once, at Start.
type staticDiscovery struct {
	peers []peer.AddrInfo
}

// newStaticDiscovery parses addresses with ParsePeerAddr; any bad address is
// an error and nothing is returned.
func newStaticDiscovery(addrs ...string) (*staticDiscovery, error) {
	s := &staticDiscovery{}
	for _, a := range addrs {
		ai, err := ParsePeerAddr(a)
		if err != nil {
			return nil, err
		}
		s.peers = append(s.peers, ai)
	}
	return s, nil
}

// Start implements Discovery.
func (s *staticDiscovery) Start(found func(peer.AddrInfo)) error {
	for _, ai := range s.peers {
		found(ai)
	}
	return nil
}

// Close implements Discovery.
func (s *staticDiscovery) Close() error { return nil }

// ManualDiscovery reports the peers given to Add: tests feed it mocknet
// addresses, and a UI can offer "connect to address".
type ManualDiscovery struct {
	mu      sync.Mutex
	found   func(peer.AddrInfo)
	pending []peer.AddrInfo
	closed  bool
}

// Start implements Discovery; peers added before Start are reported now.
func (d *ManualDiscovery) Start(found func(peer.AddrInfo)) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.found != nil {
		return errors.New("p2p: manual discovery already started")
	}
	d.found = found
	for _, ai := range d.pending {
		found(ai)
	}
	d.pending = nil
	return nil
}

// Add reports a peer (after Start) or queues it (before Start).
func (d *ManualDiscovery) Add(ai peer.AddrInfo) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	if d.found == nil {
		d.pending = append(d.pending, ai)
		return
	}
	d.found(ai)
}

// Close implements Discovery.
func (d *ManualDiscovery) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return nil
}
