package lobby

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/internal/nodetest"
	"github.com/okey-game/okey/p2p/internal/p2ptest"
	"github.com/okey-game/okey/p2p/invite"
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

// joinAll is p2ptest.JoinAll.
func joinAll(t testing.TB, nodes []*p2p.Node, id string, validate func(peer.ID, []byte) error) []*p2p.TableTransport {
	t.Helper()
	members := ids(nodes)
	return p2ptest.JoinAll(t, len(nodes), func(ctx context.Context, i int) (*p2p.TableTransport, error) {
		return nodes[i].JoinTable(ctx, id, members, validate)
	})
}

// gatedNode is a loopback node, with its lobby, whose gater can forbid
// direct links. Its host has the relay client.
func gatedNode(t *testing.T, name string, g *noDirect, relays ...peer.AddrInfo) *p2p.Node {
	t.Helper()
	return gatedNodeWith(t, name, g, nil, relays...)
}

// gatedNodeWith is gatedNode with more options for its host.
func gatedNodeWith(t *testing.T, name string, g *noDirect, hostOpts []p2p.HostOption, relays ...peer.AddrInfo) *p2p.Node {
	t.Helper()
	h, err := p2p.NewHost(append([]p2p.HostOption{p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"), p2p.WithGater(g), p2p.WithRelayClient()}, hostOpts...)...)
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

// relayCreator is a gatedNode named creator whose relay, started here,
// lets only it register tables.
func relayCreator(t *testing.T, g *noDirect) (creator *p2p.Node, svc *relay.Service, rinfo peer.AddrInfo) {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	_, svc, rinfo = relayHost(t, id)
	creator = gatedNodeWith(t, "creator", g, []p2p.HostOption{p2p.WithIdentity(key)}, rinfo)
	return creator, svc, rinfo
}

// inviteCode is n's invite code for its table, with n's relays.
func inviteCode(t *testing.T, n *p2p.Node, table string) invite.Code {
	t.Helper()
	text, err := lob(n).Invite(table, n.Host().Addrs(), n.InviteRelays())
	if err != nil {
		t.Fatal(err)
	}
	return mustParseCode(t, text)
}

// relayHost starts a relay on loopback that lets allowed register tables.
func relayHost(t *testing.T, allowed ...peer.ID) (host.Host, *relay.Service, peer.AddrInfo) {
	t.Helper()
	return p2ptest.Serve(t, loopbackHost, func(h host.Host) (*relay.Service, error) {
		return relay.New(h, relay.Config{Log: testLogger(t).With("node", "relay"), Allowed: p2ptest.Allow(allowed...)})
	})
}

// loopbackHost is a host listening on loopback TCP.
func loopbackHost() (host.Host, error) {
	return p2p.NewHost(p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
}

// isRelayed reports whether a connection goes through a relay.
func isRelayed(c network.Conn) bool {
	_, err := c.RemoteMultiaddr().ValueForProtocol(ma.P_CIRCUIT)
	return err == nil
}

// exchange is p2ptest.Exchange.
func exchange(t *testing.T, tts []*p2p.TableTransport, count int) {
	t.Helper()
	p2ptest.Exchange(t, tts, count)
}

// testRelay starts a relay service on loopback with cfg, its logs kept in
// the buffer returned.
func testRelay(t *testing.T, cfg relay.Config) (host.Host, *relay.Service, peer.AddrInfo, *p2ptest.LockedBuffer) {
	t.Helper()
	buf := &p2ptest.LockedBuffer{}
	cfg.Log = buf.Logger()
	h, svc, ai := p2ptest.Serve(t, loopbackHost, func(h host.Host) (*relay.Service, error) { return relay.New(h, cfg) })
	return h, svc, ai, buf
}

// startChild starts cmd (this test binary again, as a test's helper
// process) and calls line, in one goroutine, for each line it prints;
// exited closes when its output ends. When the test ends its stdin closes,
// and it is killed if it has not ended within 10 s.
func startChild(t *testing.T, cmd *exec.Cmd, line func(string)) (stdin io.WriteCloser, exited <-chan struct{}) {
	t.Helper()
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line(sc.Text())
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		cmd.Wait()
	})
	return stdin, done
}
