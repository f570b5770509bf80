package p2p

import (
	"context"
	"testing"
	"time"

	"github.com/okey-game/okey/table"
)

// TestLoopbackStaticPeers runs real hosts (TCP on 127.0.0.1, no mDNS)
// that find each other through --peer style static addresses.
func TestLoopbackStaticPeers(t *testing.T) {
	t.Parallel()
	const n = 3
	var nodes []*Node
	var addrs []string
	for i := range n {
		h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
		if err != nil {
			t.Fatal(err)
		}
		nd, err := NewNode(h, WithLogger(testLogger(t).With("node", i)), WithStaticPeers(addrs...), WithRetry(fastRetry))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nd.Close() })
		nodes = append(nodes, nd)
		addrs = append(addrs, nd.Addrs()...)
	}
	start := time.Now()
	tts := joinAll(t, nodes, "loop", acceptAll)
	t.Logf("loopback TCP, %d peers: JoinTable ready on all after %v", n, time.Since(start))
	exchange(t, tts, 50)
	tts[1].Serve(func(_ table.PeerID, req []byte) [][]byte { return [][]byte{req} })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := tts[0].Fetch(ctx, tts[1].Self(), []byte("ping"))
	if err != nil || len(got) != 1 || string(got[0]) != "ping" {
		t.Fatalf("fetch: %q %v", got, err)
	}
}

func TestStaticPeerParsing(t *testing.T) {
	for _, bad := range []string{"", "nonsense", "/ip4/127.0.0.1/tcp/1", "/p2p/12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf", "/ip4/1.2.3.4/tcp/1/p2p/notapeer"} {
		if _, err := ParsePeerAddr(bad); err == nil {
			t.Errorf("ParsePeerAddr(%q) accepted", bad)
		}
		if _, err := newStaticDiscovery(bad); err == nil {
			t.Errorf("newStaticDiscovery(%q) accepted", bad)
		}
	}
	ai, err := ParsePeerAddr("/ip4/192.168.1.20/tcp/4001/p2p/" + pidA)
	if err != nil || ai.ID.String() != pidA || len(ai.Addrs) != 1 {
		t.Fatalf("%+v %v", ai, err)
	}
}
