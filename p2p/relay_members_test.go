package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"

	"github.com/okey-game/okey/p2p/internal/p2ptest"
	"github.com/okey-game/okey/p2p/relay"
)

// TestRelayKeyRegisters: a peer that holds the relay's key (its line)
// registers tables with no allow-list entry; a wrong key or none is
// refused; the key is in neither the relay's log nor its state file; a
// relay started with a new key drops the tables registered with the old
// one and keeps those of its allow-list.
func TestRelayKeyRegisters(t *testing.T) {
	t.Parallel()
	key, err := relay.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := relay.NewKey()
	friend, listed := gatedNode(t, "friend", &noDirect{}), gatedNode(t, "listed", &noDirect{})
	state := t.TempDir() + "/relay.json"
	cfg := relay.Config{Key: key, State: state, Allowed: func(p peer.ID) bool { return p == listed.ID() }}
	h, svc, rinfo, logs := testRelay(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var tok [32]byte
	tok[0] = 7
	if err := relay.Register(ctx, friend.Host(), rinfo, "t1", tok, relay.Key{}); !errors.Is(err, relay.ErrNotAllowed) {
		t.Fatalf("no key: %v", err)
	}
	if err := relay.Register(ctx, friend.Host(), rinfo, "t1", tok, other); !errors.Is(err, relay.ErrNotAllowed) {
		t.Fatalf("another key: %v", err)
	}
	if svc.Tables() != 0 {
		t.Fatal("a refused registration changed the tables")
	}
	if err := relay.Register(ctx, friend.Host(), rinfo, "t1", tok, key); err != nil {
		t.Fatalf("with the relay's key: %v", err)
	}
	if err := relay.Register(ctx, listed.Host(), rinfo, "t2", tok, relay.Key{}); err != nil {
		t.Fatalf("by the allow-list: %v", err)
	}
	if svc.Tables() != 2 {
		t.Fatalf("%d tables", svc.Tables())
	}
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"log": logs.String(), "state": string(b), "formatted": fmt.Sprintf("%v %+v %#v %s", key, key, key, key)} {
		if strings.Contains(text, key.Text()) {
			t.Errorf("the key is in the %s", what)
		}
	}
	// The operator replaces the key: the relay restarts with the new one.
	svc.Close()
	cfg.Key = other
	svc2, err := relay.New(h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer svc2.Close()
	if svc2.Tables() != 1 || svc2.Admits(friend.ID(), "") || !svc2.Admits(listed.ID(), "") {
		t.Fatalf("after a new key: %d tables, the old key's table kept: %v", svc2.Tables(), svc2.Admits(friend.ID(), ""))
	}
}

// TestRelayFormerMemberCut: live circuits and reservations follow the
// admissions. Three members (no direct links) reach each other through the
// relay; the creator's list at the start leaves one out: its circuit is
// closed, its reservation dropped, and it cannot open another. When the
// creator forgets the table (its end), the relay forgets it and the
// remaining members' circuit is closed too.
func TestRelayFormerMemberCut(t *testing.T) {
	t.Parallel()
	key, _ := relay.NewKey()
	ga, gb, gc := &noDirect{}, &noDirect{}, &noDirect{}
	a, b, c := gatedNode(t, "a", ga), gatedNode(t, "b", gb), gatedNode(t, "c", gc)
	for _, g := range []*noDirect{ga, gb, gc} {
		for _, n := range []*Node{a, b, c} {
			g.Block(n.ID())
		}
	}
	_, svc, rinfo, _ := testRelay(t, relay.Config{Key: key})
	a.addRelayKey(rinfo.ID, key)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var tok [32]byte
	tok[1] = 5
	if err := a.UseRelay(ctx, rinfo, "t", tok, true); err != nil {
		t.Fatalf("register with the key: %v", err)
	}
	for _, n := range []*Node{b, c} {
		if err := n.UseRelay(ctx, rinfo, "t", tok, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Connect(ctx, peer.AddrInfo{ID: c.ID()}); err != nil {
		t.Fatalf("b to c: %v", err)
	}
	a.SetRelayMembers("t", []peer.ID{a.ID(), b.ID()}, true)
	waitFor(t, 20*time.Second, "c's circuit to b closed", func() bool { return !b.Connected(c.ID()) })
	if _, err := client.Reserve(ctx, c.Host(), rinfo); err == nil {
		t.Fatal("the former member reserved again")
	}
	if err := c.Connect(ctx, peer.AddrInfo{ID: b.ID()}); err == nil {
		t.Fatal("the former member reached b again")
	}
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID()}); err != nil {
		t.Fatalf("a to b after the list: %v", err)
	}
	a.ForgetTable("t")
	waitFor(t, 20*time.Second, "the relay forgets the table", func() bool { return svc.Tables() == 0 })
	waitFor(t, 20*time.Second, "a's circuit to b closed", func() bool { return !a.Connected(b.ID()) })
}

// addRelayKey is WithRelayKey on a running node (tests).
func (n *Node) addRelayKey(id peer.ID, key relay.Key) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cfg.relayKeys == nil {
		n.cfg.relayKeys = map[peer.ID]relay.Key{}
	}
	n.cfg.relayKeys[id] = key
}

// testRelay starts a relay service on loopback with cfg, its logs kept in
// the buffer returned.
func testRelay(t *testing.T, cfg relay.Config) (host.Host, *relay.Service, peer.AddrInfo, *p2ptest.LockedBuffer) {
	t.Helper()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
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
