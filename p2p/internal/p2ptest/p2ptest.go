package p2ptest

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	ma "github.com/multiformats/go-multiaddr"
)

// Logger collects logs and prints them only when the test fails (a
// goroutine logging after the test ended must not call t.Log).
func Logger(t testing.TB) *slog.Logger {
	var mu sync.Mutex
	var buf bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	})
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			t.Logf("logs:\n%s", buf.String())
			mu.Unlock()
		}
	})
	return slog.New(&skipPubsubDebug{slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

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

// skipPubsubDebug drops pubsub's debug chatter (every RPC), keeping ours.
type skipPubsubDebug struct{ slog.Handler }

func (h *skipPubsubDebug) Handle(ctx context.Context, r slog.Record) error {
	return h.Handler.Handle(ctx, r)
}

func (h *skipPubsubDebug) WithAttrs(as []slog.Attr) slog.Handler {
	for _, a := range as {
		if a.Key == "component" && a.Value.String() == "pubsub" {
			return &levelFloor{h.Handler.WithAttrs(as), slog.LevelInfo}
		}
	}
	return &skipPubsubDebug{h.Handler.WithAttrs(as)}
}

type levelFloor struct {
	slog.Handler
	min slog.Level
}

func (h *levelFloor) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h *levelFloor) WithAttrs(as []slog.Attr) slog.Handler {
	return &levelFloor{h.Handler.WithAttrs(as), h.min}
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
