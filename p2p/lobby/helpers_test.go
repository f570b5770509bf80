package lobby

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/internal/nodetest"
	"github.com/okey-game/okey/p2p/internal/p2ptest"
	"github.com/okey-game/okey/p2p/relay"
)

var fastRetry = nodetest.FastRetry

var fastLobby = Config{AnnounceInterval: 100 * time.Millisecond, Expiry: 500 * time.Millisecond, RequestTimeout: 5 * time.Second}

type noDirect = p2ptest.NoDirect

func testLogger(t testing.TB) *slog.Logger { return p2ptest.Logger(t) }

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	p2ptest.WaitFor(t, d, what, cond)
}

// lobbies are the tests' lobbies by node (startLobby), so that a test
// reaches a node's lobby as lob(node).
var lobbies sync.Map

// lob is node n's lobby, started by startLobby.
func lob(n *p2p.Node) *Lobby {
	l, ok := lobbies.Load(n)
	if !ok {
		panic("lobby test: no lobby started for this node")
	}
	return l.(*Lobby)
}

// startLobby starts n's lobby with cfg; it closes before the node.
func startLobby(t testing.TB, n *p2p.Node, cfg Config) *Lobby {
	t.Helper()
	l, err := New(n, cfg)
	if err != nil {
		t.Fatal(err)
	}
	lobbies.Store(n, l)
	t.Cleanup(func() {
		l.Close()
		lobbies.Delete(n)
	})
	return l
}

// mockNodes makes n Nodes on one mocknet, all linked, each with its lobby
// (fastLobby).
func mockNodes(t *testing.T, n int, opts ...p2p.NodeOption) (mocknet.Mocknet, []*p2p.Node) {
	t.Helper()
	return mockNodesWith(t, n, fastLobby, opts...)
}

// mockNodesWith is mockNodes with the lobbies' cfg.
func mockNodesWith(t *testing.T, n int, cfg Config, opts ...p2p.NodeOption) (mocknet.Mocknet, []*p2p.Node) {
	t.Helper()
	mn, nodes := nodetest.Nodes(t, n, opts...)
	for _, nd := range nodes {
		startLobby(t, nd, cfg)
	}
	return mn, nodes
}

func ids(nodes []*p2p.Node) []peer.ID { return nodetest.IDs(nodes) }

func acceptAll(peer.ID, []byte) error { return nil }

// joinAll has every node join table id, with validate.
func joinAll(t testing.TB, nodes []*p2p.Node, id string, validate func(peer.ID, []byte) error) []*p2p.TableTransport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	members := ids(nodes)
	tts := make([]*p2p.TableTransport, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() {
			tts[i], errs[i] = n.JoinTable(ctx, id, members, validate)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d JoinTable: %v", i, err)
		}
		t.Cleanup(func() { tts[i].Close() })
	}
	return tts
}

// gatedNode is a loopback node, with its lobby, whose gater can forbid
// direct links. Its host has the relay client.
func gatedNode(t *testing.T, name string, g *noDirect, relays ...peer.AddrInfo) *p2p.Node {
	t.Helper()
	h, err := p2p.NewHost(p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"), p2p.WithGater(g), p2p.WithRelayClient())
	if err != nil {
		t.Fatal(err)
	}
	n, err := p2p.NewNode(h, p2p.WithLogger(testLogger(t).With("node", name)), p2p.WithRetry(fastRetry), p2p.WithNodeRelays(relays...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	startLobby(t, n, fastLobby)
	return n
}

// relayHost starts a relay on loopback that lets allowed register tables.
func relayHost(t *testing.T, allowed ...peer.ID) (host.Host, *relay.Service, peer.AddrInfo) {
	t.Helper()
	h, err := p2p.NewHost(p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	svc, err := relay.New(h, relay.Config{Log: testLogger(t).With("node", "relay"), Allowed: func(p peer.ID) bool {
		return slices.Contains(allowed, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return h, svc, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()}
}

// isRelayed reports whether a connection goes through a relay.
func isRelayed(c network.Conn) bool {
	_, err := c.RemoteMultiaddr().ValueForProtocol(ma.P_CIRCUIT)
	return err == nil
}

// exchange makes every member broadcast count messages and checks that
// every other member receives all of them (any order), and none of its own.
func exchange(t *testing.T, tts []*p2p.TableTransport, count int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	got := make([]map[string]bool, len(tts))
	errs := make([]error, len(tts))
	start := time.Now()
	for i, tt := range tts {
		got[i] = map[string]bool{}
		want := count * (len(tts) - 1)
		wg.Go(func() {
			for len(got[i]) < want {
				select {
				case p, ok := <-tt.Inbox():
					if !ok {
						errs[i] = errors.New("inbox closed")
						return
					}
					if p.From == tt.Self() {
						errs[i] = errors.New("own message delivered")
						return
					}
					if !strings.HasPrefix(string(p.Data), string(p.From)+"/") {
						errs[i] = fmt.Errorf("message %q attributed to %s", p.Data, p.From)
						return
					}
					got[i][string(p.Data)] = true
				case <-ctx.Done():
					errs[i] = fmt.Errorf("received %d of %d messages: %w", len(got[i]), want, ctx.Err())
					return
				}
			}
		})
	}
	for _, tt := range tts {
		wg.Go(func() {
			for k := range count {
				if err := tt.Broadcast(ctx, fmt.Appendf(nil, "%s/%d", tt.Self(), k)); err != nil {
					t.Errorf("broadcast: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("member %d: %v (stats %+v)", i, err, tts[i].Stats())
		}
	}
	t.Logf("%d members x %d messages delivered everywhere in %v", len(tts), count, time.Since(start))
}

// testRelay starts a relay service on loopback with cfg, its logs kept in
// the buffer returned.
func testRelay(t *testing.T, cfg relay.Config) (host.Host, *relay.Service, peer.AddrInfo, *p2ptest.LockedBuffer) {
	t.Helper()
	h, err := p2p.NewHost(p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	buf := &p2ptest.LockedBuffer{}
	cfg.Log = slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc, err := relay.New(h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return h, svc, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()}, buf
}
