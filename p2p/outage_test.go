package p2p

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	"golang.org/x/time/rate"

	"github.com/okey-game/okey/p2p/relay"
)

// connLog records the connections a host opens and accepts.
type connLog struct {
	mu  sync.Mutex
	log []connEvent
}

type connEvent struct {
	at       time.Time
	dir      network.Direction
	endpoint string
}

func (l *connLog) tap(dir network.Direction, a ma.Multiaddr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log = append(l.log, connEvent{at: time.Now(), dir: dir, endpoint: a.String()})
}

// to are the connections whose remote address starts with one of prefixes
// (a relay's addresses: its own connections and the circuits through it).
func (l *connLog) to(prefixes []string) []connEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []connEvent
	for _, e := range l.log {
		for _, p := range prefixes {
			if strings.HasPrefix(e.endpoint, p+"/") || e.endpoint == p {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// overBudget replays connections through libp2p's default per-IP
// connection rate limit (0.2 a second after a burst of 16; both
// directions count) and returns those it would refuse.
func overBudget(es []connEvent) []connEvent {
	lim := rate.NewLimiter(0.2, 16)
	var out []connEvent
	for _, e := range es {
		if !lim.AllowN(e.at, 1) {
			out = append(out, e)
		}
	}
	return out
}

// startRelayAt starts a relay with key k on addrs (loopback, TCP and QUIC),
// its tables kept in state.
func startRelayAt(t *testing.T, k crypto.PrivKey, addrs []string, state string, allowed peer.ID) (host.Host, *relay.Service) {
	t.Helper()
	h, err := NewHost(WithIdentity(k), WithListenAddrs(addrs...))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relay.New(h, relay.Config{State: state, Log: testLogger(t).With("node", "relay"),
		Allowed: func(p peer.ID) bool { return p == allowed }})
	if err != nil {
		h.Close()
		t.Fatal(err)
	}
	return h, svc
}

// TestRelayOutageRedialWithinBudget: three members reach each other only
// through a relay (TCP and QUIC), with the default retry policy. The relay
// goes away for 25 s and comes back on the same addresses. Every member's
// connections to the relay's address (its own dials of the relay, the
// circuits it dials and receives through it), replayed through libp2p's
// default per-IP connection rate limit, are all allowed: on the internet
// no limiter, the member's own or the relay's, would have refused one
// (issue 36: before, the members' redials spent the budget during the
// outage and their own hosts refused the dial of the relay once it was
// back, "rate limit exceeded", for 40-80 s). And every member is back,
// through the relay, after it returns (the time is logged).
func TestRelayOutageRedialWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a 25 s relay outage")
	}
	t.Parallel()
	const outage = 25 * time.Second

	rk, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir() + "/relay-tables.json"
	names := []string{"a", "b", "c"}
	gates := make([]*noDirect, len(names))
	logs := make([]*connLog, len(names))
	nodes := make([]*Node, len(names))
	for i, name := range names {
		gates[i], logs[i] = &noDirect{}, &connLog{}
		h, err := NewHost(WithListenAddrs(LoopbackListenAddrs...), WithGater(gates[i]), WithRelayClient(), withConnTap(logs[i].tap))
		if err != nil {
			t.Fatal(err)
		}
		n, err := NewNode(h, WithLogger(testLogger(t).With("node", name)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		nodes[i] = n
	}
	for i := range nodes {
		for j := range nodes {
			if i != j {
				gates[i].Block(nodes[j].ID())
			}
		}
	}
	rh, svc := startRelayAt(t, rk, LoopbackListenAddrs, state, nodes[0].ID())
	rinfo := peer.AddrInfo{ID: rh.ID(), Addrs: rh.Addrs()}
	var relayAddrs []string
	for _, a := range rinfo.Addrs {
		relayAddrs = append(relayAddrs, a.String())
	}
	if len(relayAddrs) != 2 {
		t.Fatalf("relay addresses %v, want TCP and QUIC", relayAddrs)
	}
	closeRelay := func() {
		svc.Close()
		rh.Close()
	}
	defer func() { closeRelay() }()

	var token [32]byte
	copy(token[:], "a table's relay token, 32 bytes")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i, n := range nodes {
		if err := n.UseRelay(ctx, rinfo, "t1", token, i == 0); err != nil {
			t.Fatalf("node %s UseRelay: %v", names[i], err)
		}
	}
	joinAll(t, nodes, "t1", acceptAll)
	allLinked := func() bool {
		for _, n := range nodes {
			for _, m := range nodes {
				if n != m && n.LinkTo(m.ID()).Kind != LinkRelayed {
					return false
				}
			}
		}
		return true
	}
	waitFor(t, 30*time.Second, "every pair linked through the relay", allLinked)

	closeRelay()
	down := time.Now()
	waitFor(t, 10*time.Second, "the members to notice the relay is gone", func() bool {
		for _, n := range nodes {
			if n.Connected(rinfo.ID) {
				return false
			}
		}
		return true
	})
	time.Sleep(time.Until(down.Add(outage)))
	// The same relay (identity, addresses, tables) again.
	var addrs []string
	for _, a := range rinfo.Addrs {
		addrs = append(addrs, a.String())
	}
	rh, svc = startRelayAt(t, rk, addrs, state, nodes[0].ID())
	back := time.Now()
	for !allLinked() && time.Since(back) < 60*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if allLinked() {
		t.Logf("relay away %.1f s; every pair linked again %.2f s after its return", back.Sub(down).Seconds(), time.Since(back).Seconds())
	} else {
		t.Errorf("relay away %.1f s; the pairs not linked again 60 s after its return", back.Sub(down).Seconds())
	}

	for i, l := range logs {
		es := l.to(relayAddrs)
		during := 0
		for _, e := range es {
			if e.at.After(down) && e.at.Before(back) {
				during++
			}
		}
		t.Logf("member %s: %d connections to the relay's address in all, %d during the outage", names[i], len(es), during)
		if over := overBudget(es); len(over) > 0 {
			var lines []string
			for _, e := range over[:min(len(over), 5)] {
				lines = append(lines, e.at.Sub(down).Round(time.Millisecond).String()+" "+e.dir.String()+" "+e.endpoint)
			}
			t.Errorf("member %s: %d of its %d connections to the relay's address exceed libp2p's per-IP rate limit (first, from the outage's start: %s)",
				names[i], len(over), len(es), strings.Join(lines, "; "))
		}
	}
}
