package p2p

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"

	"github.com/okey-game/okey/p2p/invite"
)

// lockedBuffer is a bytes.Buffer for a logger and a reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// testRelay starts a relay service on loopback with cfg (its log also
// goes to the returned buffer).
func testRelay(t *testing.T, cfg RelayConfig) (host.Host, *RelayService, peer.AddrInfo, *lockedBuffer) {
	t.Helper()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	buf := &lockedBuffer{}
	cfg.Log = slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc, err := NewRelayService(h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return h, svc, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()}, buf
}

// keyedPeer is a peer id with its private key.
func keyedPeer(t *testing.T) (peer.ID, crypto.PrivKey) {
	t.Helper()
	priv, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return id, priv
}

// memberList is a request frame of a member list signed by priv.
func memberList(t *testing.T, priv crypto.PrivKey, relay peer.ID, table string, seq uint64, started bool, members ...peer.ID) []byte {
	t.Helper()
	r := relayRequest{Kind: relayMembers, Table: table, Seq: seq, Started: started, Members: members}
	sig, err := priv.Sign(relayMembersMessage(relay, r))
	if err != nil {
		t.Fatal(err)
	}
	r.Sig = sig
	b, err := r.encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func relayReq(t *testing.T, svc *RelayService, p peer.ID, r relayRequest) byte {
	t.Helper()
	b, err := r.encode()
	if err != nil {
		t.Fatal(err)
	}
	return svc.request(p, b)
}

// TestRelayKeyRegisters: a peer that holds the relay's key (its line)
// registers tables with no allow-list entry; a wrong key or none is
// refused; the key is in neither the relay's log nor its state file; a
// relay started with a new key drops the tables registered with the old
// one and keeps those of its allow-list.
func TestRelayKeyRegisters(t *testing.T) {
	t.Parallel()
	key, err := NewRelayKey()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := NewRelayKey()
	friend, listed := gatedNode(t, "friend", &noDirect{}), gatedNode(t, "listed", &noDirect{})
	state := t.TempDir() + "/relay.json"
	cfg := RelayConfig{Key: key, State: state, Allowed: func(p peer.ID) bool { return p == listed.ID() }}
	h, svc, rinfo, logs := testRelay(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var tok [32]byte
	tok[0] = 7
	if err := RelayRegister(ctx, friend.Host(), rinfo, "t1", tok, RelayKey{}); !errors.Is(err, ErrRelayNotAllowed) {
		t.Fatalf("no key: %v", err)
	}
	if err := RelayRegister(ctx, friend.Host(), rinfo, "t1", tok, other); !errors.Is(err, ErrRelayNotAllowed) {
		t.Fatalf("another key: %v", err)
	}
	if svc.Tables() != 0 {
		t.Fatal("a refused registration changed the tables")
	}
	if err := RelayRegister(ctx, friend.Host(), rinfo, "t1", tok, key); err != nil {
		t.Fatalf("with the relay's key: %v", err)
	}
	if err := RelayRegister(ctx, listed.Host(), rinfo, "t2", tok, RelayKey{}); err != nil {
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
	svc2, err := NewRelayService(h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer svc2.Close()
	if svc2.Tables() != 1 || svc2.member(friend.ID(), "") || !svc2.member(listed.ID(), "") {
		t.Fatalf("after a new key: %d tables, the old key's table kept: %v", svc2.Tables(), svc2.member(friend.ID(), ""))
	}
}

// TestRelayLine: a relay line is the address, RelayKeyMarker and the key;
// an address alone is a line without key; a bad key is refused.
func TestRelayLine(t *testing.T) {
	key, _ := NewRelayKey()
	addr := "/ip4/127.0.0.1/tcp/4001/p2p/" + pidA
	line := FormatRelayLine(addr, key)
	ai, k, err := ParseRelayLine(" " + line + "\n")
	if err != nil || k != key || ai.ID.String() != pidA || len(ai.Addrs) != 1 {
		t.Fatalf("%v %v %v", ai, k == key, err)
	}
	if ai, err := ParseRelayAddr(line); err != nil || ai.ID.String() != pidA {
		t.Fatalf("ParseRelayAddr of a line: %v %v", ai, err)
	}
	if _, k, err := ParseRelayLine(addr); err != nil || !k.IsZero() {
		t.Fatalf("an address alone: %v %v", k.IsZero(), err)
	}
	for _, bad := range []string{addr + RelayKeyMarker, addr + RelayKeyMarker + "00000000000000000000000000000000", addr + RelayKeyMarker + strings.ToUpper(key.Text()), addr + RelayKeyMarker + key.Text() + "0"} {
		if _, _, err := ParseRelayLine(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestRelayMemberList: 7 throwaway identities of one code holder fill a
// table's places before the start; an honest joiner is refused "full"
// until the oldest of them has not been seated for RelayPendingGrace. Once
// the creator's signed list says the table started, only its seated
// members, the creator and at most RelayMaxSpectators spectators are
// admitted (a peer left out by the list is not let back in as one); two
// spectators get no circuit; a list signed by another key, or
// not newer, changes nothing.
func TestRelayMemberList(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	creator, cpriv := keyedPeer(t)
	_, svc, rinfo, _ := testRelay(t, RelayConfig{Now: clock, Allowed: func(p peer.ID) bool { return p == creator }})
	acl := relayACL{svc}
	var tok [32]byte
	tok[3] = 1
	if st := relayReq(t, svc, creator, relayRequest{Kind: relayRegister, Table: "t", Token: tok}); st != RelayOK {
		t.Fatalf("register: %d", st)
	}
	var junk []peer.ID
	for i := range RelayMaxMembers - 1 {
		p, _ := keyedPeer(t)
		junk = append(junk, p)
		if st := relayReq(t, svc, p, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != RelayOK {
			t.Fatalf("throwaway %d: %d", i, st)
		}
		advance(time.Second)
	}
	honest, _ := keyedPeer(t)
	if st := relayReq(t, svc, honest, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != RelayFull {
		t.Fatalf("an honest joiner while the throwaways are fresh: %d, want full", st)
	}
	advance(RelayPendingGrace)
	if st := relayReq(t, svc, honest, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != RelayOK {
		t.Fatalf("an honest joiner after the grace: %d", st)
	}
	if acl.AllowReserve(junk[0], nil) {
		t.Fatal("the oldest throwaway kept its place")
	}
	// A list signed by someone else, then the creator's list: started.
	_, mallory := keyedPeer(t)
	if st := svc.request(honest, memberList(t, mallory, rinfo.ID, "t", 5, true, honest, junk[1])); st != RelayNotAllowed {
		t.Fatalf("a list not signed by the creator: %d", st)
	}
	if !acl.AllowConnect(junk[1], nil, honest) {
		t.Fatal("a forged list changed the admissions")
	}
	if st := svc.request(honest, memberList(t, cpriv, rinfo.ID, "t", 5, true, creator, honest)); st != RelayOK {
		t.Fatalf("the creator's list: %d", st)
	}
	if st := svc.request(creator, memberList(t, cpriv, rinfo.ID, "t", 5, true, creator, honest, junk[1])); st != RelayStale {
		t.Fatalf("an old list again: %d", st)
	}
	if st := svc.request(creator, memberList(t, cpriv, "another relay", "t", 9, true, creator, honest, junk[1])); st != RelayNotAllowed {
		t.Fatalf("a list signed for another relay: %d", st)
	}
	for _, j := range junk {
		if acl.AllowReserve(j, nil) || acl.AllowConnect(j, nil, honest) || acl.AllowConnect(honest, nil, j) {
			t.Fatalf("a throwaway identity is still served after the start")
		}
	}
	if !acl.AllowConnect(honest, nil, creator) || !acl.AllowReserve(honest, nil) {
		t.Fatal("a seated member is not served")
	}
	// A former member is not let back in as a spectator.
	if st := relayReq(t, svc, junk[2], relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != RelayNotAllowed {
		t.Fatalf("a former member presents the token after the start: %d", st)
	}
	// Spectators: the token after the start, at most RelayMaxSpectators.
	var watch []peer.ID
	for range RelayMaxSpectators {
		p, _ := keyedPeer(t)
		watch = append(watch, p)
		if st := relayReq(t, svc, p, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != RelayOK {
			t.Fatalf("spectator: %d", st)
		}
	}
	extra, _ := keyedPeer(t)
	if st := relayReq(t, svc, extra, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != RelayFull {
		t.Fatalf("one spectator too many: %d", st)
	}
	if !acl.AllowConnect(watch[0], nil, honest) || acl.AllowConnect(watch[0], nil, watch[1]) {
		t.Fatal("a spectator to a member refused, or two spectators served")
	}
}

// TestRelayRevocationDropsOldToken: a creator that registers a new token
// (a revoked code) drops whoever the old token admitted, and the old token
// admits no one; the members on its list stay.
func TestRelayRevocationDropsOldToken(t *testing.T) {
	t.Parallel()
	creator, cpriv := keyedPeer(t)
	_, svc, rinfo, _ := testRelay(t, RelayConfig{Allowed: func(p peer.ID) bool { return p == creator }})
	acl := relayACL{svc}
	var old, fresh [32]byte
	old[0], fresh[0] = 1, 2
	seated, _ := keyedPeer(t)
	holder, _ := keyedPeer(t)
	relayReq(t, svc, creator, relayRequest{Kind: relayRegister, Table: "t", Token: old})
	for _, p := range []peer.ID{seated, holder} {
		if st := relayReq(t, svc, p, relayRequest{Kind: relayJoin, Table: "t", Token: old}); st != RelayOK {
			t.Fatal(st)
		}
	}
	if st := svc.request(creator, memberList(t, cpriv, rinfo.ID, "t", 1, false, creator, seated)); st != RelayOK {
		t.Fatalf("list: %d", st)
	}
	if st := relayReq(t, svc, creator, relayRequest{Kind: relayRegister, Table: "t", Token: fresh}); st != RelayOK {
		t.Fatalf("new token: %d", st)
	}
	if acl.AllowReserve(holder, nil) || acl.AllowConnect(holder, nil, creator) {
		t.Fatal("a peer the old token admitted is still served")
	}
	if st := relayReq(t, svc, holder, relayRequest{Kind: relayJoin, Table: "t", Token: old}); st != RelayBadToken {
		t.Fatalf("the old token: %d", st)
	}
	if !acl.AllowConnect(seated, nil, creator) {
		t.Fatal("a seated member lost its place at the revocation")
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
	key, _ := NewRelayKey()
	ga, gb, gc := &noDirect{}, &noDirect{}, &noDirect{}
	a, b, c := gatedNode(t, "a", ga), gatedNode(t, "b", gb), gatedNode(t, "c", gc)
	for _, g := range []*noDirect{ga, gb, gc} {
		for _, n := range []*Node{a, b, c} {
			g.block(n.ID())
		}
	}
	_, svc, rinfo, _ := testRelay(t, RelayConfig{Key: key})
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
func (n *Node) addRelayKey(id peer.ID, key RelayKey) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cfg.relayKeys == nil {
		n.cfg.relayKeys = map[peer.ID]RelayKey{}
	}
	n.cfg.relayKeys[id] = key
}

// relayNode is a loopback node that uses relay with key (WithRelayKey).
func relayNode(t *testing.T, name string, relay peer.AddrInfo, key RelayKey) *Node {
	t.Helper()
	h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"), withRelayClient())
	if err != nil {
		t.Fatal(err)
	}
	opts := []NodeOption{WithLogger(testLogger(t).With("node", name)), WithRetry(fastRetry), WithLobbyConfig(fastLobby), WithNodeRelays(relay)}
	if !key.IsZero() {
		opts = append(opts, WithRelayKey(relay.ID, key))
	}
	n, err := NewNode(h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// TestCreatorRelayLifecycle: a creator with the relay's line registers its
// private table there; a join makes it send its seated members; closing
// the table unregisters it. A creator the relay refuses learns it from
// WaitRelayAnswers, and its code leaves that relay out.
func TestCreatorRelayLifecycle(t *testing.T) {
	t.Parallel()
	key, _ := NewRelayKey()
	_, svc, rinfo, _ := testRelay(t, RelayConfig{Key: key})
	a := relayNode(t, "creator", rinfo, key)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ann, err := a.Lobby().CreatePrivate(RandomTableID(""), "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	id := ann.Table
	if ref := a.WaitRelayAnswers(ctx, id); len(ref) != 0 {
		t.Fatalf("refused: %v", ref)
	}
	waitFor(t, 20*time.Second, "the table registered", func() bool { return svc.Tables() == 1 })
	text, err := a.Lobby().Invite(id, a.Host().Addrs(), a.InviteRelays())
	if err != nil || !strings.Contains(mustParseCodeRelays(t, text), rinfo.ID.String()) {
		t.Fatalf("the code lacks the relay: %v", err)
	}
	b := relayNode(t, "joiner", rinfo, RelayKey{})
	code := mustParseCode(t, text)
	if _, err := b.Lobby().JoinByCode(ctx, code); err != nil {
		t.Fatalf("join by code: %v", err)
	}
	waitFor(t, 20*time.Second, "the relay learns the seated members", func() bool {
		svc.mu.Lock()
		defer svc.mu.Unlock()
		tb := svc.tables[id]
		return tb != nil && tb.Seated[a.ID()] && tb.Seated[b.ID()] && !tb.Started
	})
	if err := a.Lobby().CloseTable(id); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the closed table unregistered", func() bool { return svc.Tables() == 0 })

	// A creator without the key (nor on the allow-list) is refused: told,
	// and its code does not carry the relay.
	c := relayNode(t, "stranger", rinfo, RelayKey{})
	ann, err = c.Lobby().CreatePrivate(RandomTableID(""), "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	ref := c.WaitRelayAnswers(ctx, ann.Table)
	if !errors.Is(ref[rinfo.ID], ErrRelayNotAllowed) {
		t.Fatalf("refusals %v", ref)
	}
	text, err = c.Lobby().Invite(ann.Table, c.Host().Addrs(), c.InviteRelays())
	if err != nil || strings.Contains(mustParseCodeRelays(t, text), rinfo.ID.String()) {
		t.Fatalf("the code still carries the relay that refused it (%v)", err)
	}
}

func mustParseCode(t *testing.T, text string) invite.Code {
	t.Helper()
	c, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustParseCodeRelays is the relays of a code, as text.
func mustParseCodeRelays(t *testing.T, text string) string {
	t.Helper()
	var out []string
	for _, r := range mustParseCode(t, text).Relays {
		out = append(out, r.String())
	}
	return strings.Join(out, " ")
}
