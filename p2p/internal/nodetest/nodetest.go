// Package nodetest starts p2p Nodes for the tests of the services built
// beside the node (p2p/lobby, p2p/tournament): package p2p's own tests
// have the same helpers inside the package.
package nodetest

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/internal/p2ptest"
)

// FastRetry is a dial policy for tests: quick, many attempts.
var FastRetry = p2p.RetryPolicy{Attempts: 50, Min: 20 * time.Millisecond, Max: 200 * time.Millisecond, DialTimeout: 2 * time.Second}

// Nodes makes n Nodes on one mocknet, all linked; each discovers the others
// through a ManualDiscovery fed with their mocknet addresses.
func Nodes(t testing.TB, n int, opts ...p2p.NodeOption) (mocknet.Mocknet, []*p2p.Node) {
	t.Helper()
	return NodesApart(t, n, nil, opts...)
}

// NodesApart is Nodes with the pairs in apart never linked.
func NodesApart(t testing.TB, n int, apart [][2]int, opts ...p2p.NodeOption) (mocknet.Mocknet, []*p2p.Node) {
	t.Helper()
	mn, infos := p2ptest.MockHosts(t, n, apart)
	nodes := make([]*p2p.Node, n)
	for i, ai := range infos {
		d := &p2p.ManualDiscovery{}
		for j, other := range infos {
			if j != i {
				d.Add(other)
			}
		}
		o := append([]p2p.NodeOption{p2p.WithLogger(p2ptest.Logger(t).With("node", i)), p2p.WithDiscovery(d), p2p.WithRetry(FastRetry)}, opts...)
		nd, err := p2p.NewNode(mn.Host(ai.ID), o...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nd.Close() })
		nodes[i] = nd
	}
	return mn, nodes
}

// IDs are the nodes' peer ids.
func IDs(nodes []*p2p.Node) []peer.ID {
	out := make([]peer.ID, len(nodes))
	for i, n := range nodes {
		out[i] = n.ID()
	}
	return out
}
