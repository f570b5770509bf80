package relay

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p/internal/p2ptest"
)

// TestRelayStatePersists: a restarted relay keeps its registrations and
// members.
func TestRelayStatePersists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	state := dir + "/relay.json"
	svc, err := New(h, Config{State: state})
	if err != nil {
		t.Fatal(err)
	}
	var token [32]byte
	token[5] = 9
	if err := svc.Register("kept", token); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	svc2, err := New(h, Config{State: state})
	if err != nil {
		t.Fatal(err)
	}
	defer svc2.Close()
	if svc2.Tables() != 1 || !svc2.member(h.ID(), "") {
		t.Fatal("registration lost across a restart")
	}
	if st := svc2.join(peer.ID("x"), "kept", token); st != StatusOK {
		t.Fatalf("join after restart: %d", st)
	}
}

func TestRelayRequestCodec(t *testing.T) {
	var tok [32]byte
	tok[31] = 1
	b, err := relayRequest{Kind: relayJoin, Table: "abc", Token: tok}.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRelayRequest(b)
	if err != nil || got.Kind != relayJoin || got.Table != "abc" || got.Token != tok {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := (relayRequest{Kind: relayJoin, Table: "bad id!", Token: tok}).encode(); err == nil {
		t.Fatal("bad table id encoded")
	}
	for _, bad := range [][]byte{nil, {1}, {1, 3, 'a', 'b', 'c'}, append([]byte{6, 3, 'a', 'b', 'c'}, tok[:]...), append([]byte{1, 3, 'a', '!', 'c'}, tok[:]...),
		append([]byte{4, 3, 'a', 'b', 'c'}, tok[:]...), {5, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 1, 1}} {
		if _, err := decodeRelayRequest(bad); err == nil {
			t.Errorf("decoded %x", bad)
		}
	}
}

func FuzzRelayRequest(f *testing.F) {
	var tok [32]byte
	b, _ := relayRequest{Kind: relayRegister, Table: "t", Token: tok}.encode()
	f.Add(b)
	f.Add([]byte{2, 0})
	b, _ = relayRequest{Kind: relayRegisterKey, Table: "t", Token: tok, MAC: tok}.encode()
	f.Add(b)
	b, _ = relayRequest{Kind: relayMembers, Table: "t", Seq: 7, Started: true, Members: []peer.ID{peer.ID("\x00\x01x")}, Sig: []byte{1, 2}}.encode()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRelayRequest(b)
		if err != nil {
			return
		}
		again, err := r.encode()
		if err != nil || string(again) != string(b) {
			t.Fatalf("round trip: %x -> %x %v", b, again, err)
		}
	})
}

func TestParseAllowList(t *testing.T) {
	l, err := ParseAllowList("# friends\n\n" + pidA + "\n  \n")
	if err != nil || len(l) != 1 || l[0].String() != pidA {
		t.Fatalf("%v %v", l, err)
	}
	if _, err := ParseAllowList("nope"); err == nil {
		t.Fatal("accepted a bad id")
	}
}

// TestRelayBounds: the relay's access list and bounds as protocol.md 7.11
// states them, on the service itself: no circuit between members of two
// tables, a token good for one table admits to no other, a table id
// registered by one creator is refused to another, only the creator
// unregisters, at most MaxMembers members a table and MaxTables
// tables.
func TestRelayBounds(t *testing.T) {
	t.Parallel()
	c1, c2 := peer.ID("creator-1"), peer.ID("creator-2")
	_, svc, _ := relayHost(t, c1, c2)
	acl := relayACL{svc}
	req := func(p peer.ID, kind byte, table string, tok [32]byte) byte {
		t.Helper()
		b, err := relayRequest{Kind: kind, Table: table, Token: tok}.encode()
		if err != nil {
			t.Fatal(err)
		}
		return svc.request(p, b)
	}
	var tok1, tok2 [32]byte
	tok1[0], tok2[0] = 1, 2
	if st := req(c1, relayRegister, "t1", tok1); st != StatusOK {
		t.Fatalf("register t1: %d", st)
	}
	if st := req(c2, relayRegister, "t2", tok2); st != StatusOK {
		t.Fatalf("register t2: %d", st)
	}
	m1, m2 := peer.ID("member-1"), peer.ID("member-2")
	if st := req(m1, relayJoin, "t1", tok1); st != StatusOK {
		t.Fatalf("join t1: %d", st)
	}
	if st := req(m2, relayJoin, "t2", tok1); st != StatusBadToken {
		t.Fatalf("t1's token presented for t2: %d, want %d", st, StatusBadToken)
	}
	if st := req(m2, relayJoin, "t2", tok2); st != StatusOK {
		t.Fatalf("join t2: %d", st)
	}
	for _, c := range []struct {
		src, dst peer.ID
		want     bool
	}{{m1, c1, true}, {c1, m1, true}, {m2, c2, true}, {m1, m2, false}, {m2, c1, false}, {c1, c2, false}, {"stranger", c1, false}} {
		if got := acl.AllowConnect(c.src, nil, c.dst); got != c.want {
			t.Errorf("circuit %s -> %s allowed %v, want %v", c.src, c.dst, got, c.want)
		}
	}
	if acl.AllowReserve("stranger", nil) || !acl.AllowReserve(m1, nil) {
		t.Error("reservations: a stranger's allowed or a member's refused")
	}
	if st := req(c2, relayRegister, "t1", tok2); st != StatusTaken {
		t.Fatalf("another creator registers t1: %d, want %d", st, StatusTaken)
	}
	if st := req(m1, relayUnregister, "t1", tok1); st != StatusBadToken {
		t.Fatalf("a member unregisters t1: %d, want %d", st, StatusBadToken)
	}
	// Members: the creator and 7 more; the next one is refused.
	for i := 2; i < MaxMembers; i++ {
		if st := req(peer.ID(fmt.Sprintf("member-1-%d", i)), relayJoin, "t1", tok1); st != StatusOK {
			t.Fatalf("member %d: %d", i+1, st)
		}
	}
	if st := req("one-too-many", relayJoin, "t1", tok1); st != StatusFull {
		t.Fatalf("member %d: %d, want %d", MaxMembers+1, st, StatusFull)
	}
	if st := req(m1, relayJoin, "t1", tok1); st != StatusOK {
		t.Fatalf("a member presents its token again: %d", st)
	}
	for i := svc.Tables(); i < MaxTables; i++ {
		if st := req(c1, relayRegister, fmt.Sprintf("x%d", i), tok1); st != StatusOK {
			t.Fatalf("table %d: %d", i+1, st)
		}
	}
	if st := req(c1, relayRegister, "one-too-many", tok1); st != StatusFull {
		t.Fatalf("table %d: %d, want %d", MaxTables+1, st, StatusFull)
	}
	if st := req(c1, relayUnregister, "t1", tok1); st != StatusOK || svc.Tables() != MaxTables-1 {
		t.Fatalf("the creator unregisters t1: %d, %d tables", st, svc.Tables())
	}
	if acl.AllowConnect(m1, nil, c1) || acl.AllowReserve(m1, nil) {
		t.Error("t1's member still admitted after t1 was unregistered")
	}
}

// testRelay starts a relay service on loopback with cfg, its logs kept
// in the buffer returned.
func testRelay(t *testing.T, cfg Config) (host.Host, *Service, peer.AddrInfo, *p2ptest.LockedBuffer) {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	buf := &p2ptest.LockedBuffer{}
	cfg.Log = slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc, err := New(h, cfg)
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

func relayReq(t *testing.T, svc *Service, p peer.ID, r relayRequest) byte {
	t.Helper()
	b, err := r.encode()
	if err != nil {
		t.Fatal(err)
	}
	return svc.request(p, b)
}

// TestRelayLine: a relay line is the address, KeyMarker and the key;
// an address alone is a line without key; a bad key is refused.
func TestRelayLine(t *testing.T) {
	key, _ := NewKey()
	addr := "/ip4/127.0.0.1/tcp/4001/p2p/" + pidA
	line := FormatLine(addr, key)
	ai, k, err := ParseLine(" " + line + "\n")
	if err != nil || k != key || ai.ID.String() != pidA || len(ai.Addrs) != 1 {
		t.Fatalf("%v %v %v", ai, k == key, err)
	}
	if ai, err := ParseAddr(line); err != nil || ai.ID.String() != pidA {
		t.Fatalf("ParseAddr of a line: %v %v", ai, err)
	}
	if _, k, err := ParseLine(addr); err != nil || !k.IsZero() {
		t.Fatalf("an address alone: %v %v", k.IsZero(), err)
	}
	for _, bad := range []string{addr + KeyMarker, addr + KeyMarker + "00000000000000000000000000000000", addr + KeyMarker + strings.ToUpper(key.Text()), addr + KeyMarker + key.Text() + "0"} {
		if _, _, err := ParseLine(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestRelayMemberList: 7 throwaway identities of one code holder fill a
// table's places before the start; an honest joiner is refused "full"
// until the oldest of them has not been seated for PendingGrace. Once
// the creator's signed list says the table started, only its seated
// members, the creator and at most MaxSpectators spectators are
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
	_, svc, rinfo, _ := testRelay(t, Config{Now: clock, Allowed: func(p peer.ID) bool { return p == creator }})
	acl := relayACL{svc}
	var tok [32]byte
	tok[3] = 1
	if st := relayReq(t, svc, creator, relayRequest{Kind: relayRegister, Table: "t", Token: tok}); st != StatusOK {
		t.Fatalf("register: %d", st)
	}
	var junk []peer.ID
	for i := range MaxMembers - 1 {
		p, _ := keyedPeer(t)
		junk = append(junk, p)
		if st := relayReq(t, svc, p, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != StatusOK {
			t.Fatalf("throwaway %d: %d", i, st)
		}
		advance(time.Second)
	}
	honest, _ := keyedPeer(t)
	if st := relayReq(t, svc, honest, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != StatusFull {
		t.Fatalf("an honest joiner while the throwaways are fresh: %d, want full", st)
	}
	advance(PendingGrace)
	if st := relayReq(t, svc, honest, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != StatusOK {
		t.Fatalf("an honest joiner after the grace: %d", st)
	}
	if acl.AllowReserve(junk[0], nil) {
		t.Fatal("the oldest throwaway kept its place")
	}
	// A list signed by someone else, then the creator's list: started.
	_, mallory := keyedPeer(t)
	if st := svc.request(honest, memberList(t, mallory, rinfo.ID, "t", 5, true, honest, junk[1])); st != StatusNotAllowed {
		t.Fatalf("a list not signed by the creator: %d", st)
	}
	if !acl.AllowConnect(junk[1], nil, honest) {
		t.Fatal("a forged list changed the admissions")
	}
	if st := svc.request(honest, memberList(t, cpriv, rinfo.ID, "t", 5, true, creator, honest)); st != StatusOK {
		t.Fatalf("the creator's list: %d", st)
	}
	if st := svc.request(creator, memberList(t, cpriv, rinfo.ID, "t", 5, true, creator, honest, junk[1])); st != StatusStale {
		t.Fatalf("an old list again: %d", st)
	}
	if st := svc.request(creator, memberList(t, cpriv, "another relay", "t", 9, true, creator, honest, junk[1])); st != StatusNotAllowed {
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
	if st := relayReq(t, svc, junk[2], relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != StatusNotAllowed {
		t.Fatalf("a former member presents the token after the start: %d", st)
	}
	// Spectators: the token after the start, at most MaxSpectators.
	var watch []peer.ID
	for range MaxSpectators {
		p, _ := keyedPeer(t)
		watch = append(watch, p)
		if st := relayReq(t, svc, p, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != StatusOK {
			t.Fatalf("spectator: %d", st)
		}
	}
	extra, _ := keyedPeer(t)
	if st := relayReq(t, svc, extra, relayRequest{Kind: relayJoin, Table: "t", Token: tok}); st != StatusFull {
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
	_, svc, rinfo, _ := testRelay(t, Config{Allowed: func(p peer.ID) bool { return p == creator }})
	acl := relayACL{svc}
	var old, fresh [32]byte
	old[0], fresh[0] = 1, 2
	seated, _ := keyedPeer(t)
	holder, _ := keyedPeer(t)
	relayReq(t, svc, creator, relayRequest{Kind: relayRegister, Table: "t", Token: old})
	for _, p := range []peer.ID{seated, holder} {
		if st := relayReq(t, svc, p, relayRequest{Kind: relayJoin, Table: "t", Token: old}); st != StatusOK {
			t.Fatal(st)
		}
	}
	if st := svc.request(creator, memberList(t, cpriv, rinfo.ID, "t", 1, false, creator, seated)); st != StatusOK {
		t.Fatalf("list: %d", st)
	}
	if st := relayReq(t, svc, creator, relayRequest{Kind: relayRegister, Table: "t", Token: fresh}); st != StatusOK {
		t.Fatalf("new token: %d", st)
	}
	if acl.AllowReserve(holder, nil) || acl.AllowConnect(holder, nil, creator) {
		t.Fatal("a peer the old token admitted is still served")
	}
	if st := relayReq(t, svc, holder, relayRequest{Kind: relayJoin, Table: "t", Token: old}); st != StatusBadToken {
		t.Fatalf("the old token: %d", st)
	}
	if !acl.AllowConnect(seated, nil, creator) {
		t.Fatal("a seated member lost its place at the revocation")
	}
}

// TestRelayRequestOverQUIC: a relay request over QUIC gets its answer.
// The relay answers and closes its stream, and QUIC's close also stops the
// stream's reading side: before the client half-closed its request the
// answer never arrived ("no answer: EOF"), so no table could use a relay
// reached over QUIC (issue 23's NAT lab).
func TestRelayRequestOverQUIC(t *testing.T) {
	t.Parallel()
	rh, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/udp/0/quic-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer rh.Close()
	c, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/udp/0/quic-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	svc, err := New(rh, Config{Log: p2ptest.Logger(t), Allowed: func(p peer.ID) bool { return p == c.ID() }})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var tok [32]byte
	relay := peer.AddrInfo{ID: rh.ID(), Addrs: rh.Addrs()}
	if err := Register(ctx, c, relay, "t1", tok, Key{}); err != nil {
		t.Fatal(err)
	}
	// A refusal arrives too (a stranger: not allowed).
	s, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/udp/0/quic-v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := Register(ctx, s, relay, "t2", tok, Key{}); !errors.Is(err, ErrNotAllowed) {
		t.Fatalf("a stranger's registration over QUIC: %v", err)
	}
}

// pidA is a well-formed peer id.
const pidA = "12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf"

// relayHost starts a relay on loopback that lets allowed register tables.
func relayHost(t *testing.T, allowed ...peer.ID) (host.Host, *Service, peer.AddrInfo) {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	svc, err := New(h, Config{Log: p2ptest.Logger(t).With("node", "relay"), Allowed: func(p peer.ID) bool {
		return slices.Contains(allowed, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return h, svc, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()}
}
