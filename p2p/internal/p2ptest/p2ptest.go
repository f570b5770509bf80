package p2ptest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/internal/testlog"
)

// Logger is t's logger (testlog.Logger): it prints only when the test
// fails.
func Logger(t testing.TB) *slog.Logger { return testlog.Logger(t) }

// WaitFor polls cond until it holds or the deadline passes.
func WaitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// LockedBuffer is a bytes.Buffer for a logger and a reader.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what was written.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// MockHosts makes n hosts on one mocknet, all linked but the pairs in
// apart (unlinked before anything dials).
func MockHosts(t testing.TB, n int, apart [][2]int) (mocknet.Mocknet, []peer.AddrInfo) {
	t.Helper()
	mn := mocknet.New()
	t.Cleanup(func() { mn.Close() })
	var infos []peer.AddrInfo
	for i := range n {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		h, err := mn.AddPeer(k, ma.StringCast(fmt.Sprintf("/ip4/10.0.0.%d/tcp/4001", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		infos = append(infos, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()})
	}
	if err := mn.LinkAll(); err != nil {
		t.Fatal(err)
	}
	for _, p := range apart {
		if err := mn.UnlinkPeers(infos[p[0]].ID, infos[p[1]].ID); err != nil {
			t.Fatal(err)
		}
	}
	return mn, infos
}

// NoDirect is a connection gater (p2p.WithGater) that refuses direct
// dials to and direct connections from some peers: two hosts that gate
// each other reach each other only through a relay.
type NoDirect struct {
	mu    sync.Mutex
	peers map[peer.ID]bool
}

// Block refuses direct links with p.
func (g *NoDirect) Block(p peer.ID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.peers == nil {
		g.peers = map[peer.ID]bool{}
	}
	g.peers[p] = true
}

func (g *NoDirect) blocked(p peer.ID, a ma.Multiaddr) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.peers[p] {
		return false
	}
	_, err := a.ValueForProtocol(ma.P_CIRCUIT)
	return err != nil
}

// InterceptPeerDial allows every peer (addresses are checked one by one).
func (g *NoDirect) InterceptPeerDial(peer.ID) bool { return true }

// InterceptAddrDial refuses a direct address of a blocked peer.
func (g *NoDirect) InterceptAddrDial(p peer.ID, a ma.Multiaddr) bool {
	return !g.blocked(p, a)
}

// InterceptAccept allows every connection (checked once secured).
func (g *NoDirect) InterceptAccept(network.ConnMultiaddrs) bool { return true }

// InterceptSecured refuses a direct connection with a blocked peer.
func (g *NoDirect) InterceptSecured(_ network.Direction, p peer.ID, c network.ConnMultiaddrs) bool {
	return !g.blocked(p, c.RemoteMultiaddr())
}

// InterceptUpgraded allows every upgraded connection.
func (g *NoDirect) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

// Logger is a debug-level text logger writing to l (a test reads what a
// service logged).
func (l *LockedBuffer) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Allow reports whether a peer is one of ids (a relay.Config's Allowed).
func Allow(ids ...peer.ID) func(peer.ID) bool {
	return func(p peer.ID) bool { return slices.Contains(ids, p) }
}

// Serve makes a host with newHost and starts a service on it with start
// (a relay: relay.New); both close when the test ends. It returns the
// host, the service and the host's address.
func Serve[S interface{ Close() error }](t testing.TB, newHost func() (host.Host, error), start func(host.Host) (S, error)) (host.Host, S, peer.AddrInfo) {
	t.Helper()
	h, err := newHost()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	svc, err := start(h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return h, svc, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()}
}

// OpenStream opens a stream of proto from h to p and writes head (which
// carries the protocol negotiation with it); ended receives the read error
// once p ends the stream, or an error if p answers.
func OpenStream(t testing.TB, ctx context.Context, h host.Host, p peer.ID, proto protocol.ID, head []byte) (s network.Stream, ended chan error) {
	t.Helper()
	s, err := h.NewStream(ctx, p, proto)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(head); err != nil {
		t.Fatal(err)
	}
	ended = make(chan error, 1)
	go func() {
		_, err := s.Read(make([]byte, 1))
		if err == nil {
			err = errors.New("the peer answered")
		}
		ended <- err
	}()
	return s, ended
}
