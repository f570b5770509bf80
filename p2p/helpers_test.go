package p2p

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"

	"github.com/okey-game/okey/p2p/internal/p2ptest"
)

func testLogger(t testing.TB) *slog.Logger { return p2ptest.Logger(t) }

var fastRetry = RetryPolicy{Attempts: 50, Min: 20 * time.Millisecond, Max: 200 * time.Millisecond, DialTimeout: 2 * time.Second}

// mockNodes makes n Nodes on one mocknet, all linked; each discovers the
// others through a ManualDiscovery fed with their mocknet addresses.
func mockNodes(t *testing.T, n int, opts ...NodeOption) (mocknet.Mocknet, []*Node) {
	t.Helper()
	return mockNodesApart(t, n, nil, opts...)
}

// mockNodesApart is mockNodes with the pairs in apart never linked: they
// are unlinked before any node starts, so no dial (the nodes' discovery
// dials every other node at once) can connect them. Unlinking after the
// nodes start races with those dials: a dial that passed the link check
// connects the pair after DisconnectPeers.
func mockNodesApart(t *testing.T, n int, apart [][2]int, opts ...NodeOption) (mocknet.Mocknet, []*Node) {
	t.Helper()
	mn, infos := p2ptest.MockHosts(t, n, apart)
	nodes := make([]*Node, n)
	for i, ai := range infos {
		d := &ManualDiscovery{}
		for j, other := range infos {
			if j != i {
				d.Add(other)
			}
		}
		o := append([]NodeOption{WithLogger(testLogger(t).With("node", i)), WithDiscovery(d), WithRetry(fastRetry)}, opts...)
		nd, err := NewNode(mn.Host(ai.ID), o...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nd.Close() })
		nodes[i] = nd
	}
	return mn, nodes
}

func ids(nodes []*Node) []peer.ID {
	out := make([]peer.ID, len(nodes))
	for i, n := range nodes {
		out[i] = n.ID()
	}
	return out
}

func acceptAll(peer.ID, []byte) error { return nil }

// joinAll opens table id on every node concurrently (each JoinTable waits
// for the others) and returns the transports in node order.
func joinAll(t testing.TB, nodes []*Node, id string, validate func(peer.ID, []byte) error) []*TableTransport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	members := ids(nodes)
	tts := make([]*TableTransport, len(nodes))
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

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	p2ptest.WaitFor(t, d, what, cond)
}

// pidA is a well-formed peer id.
const pidA = "12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf"
