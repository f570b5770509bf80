package lobby

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/relay"
)

// fakeClock is the lobby's clock in tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestPrivateTableAdmission: a private table seats only joiners with a
// valid proof; a forged code, a wrong secret, a revoked code and a missing
// proof are refused with their own error and change nothing; failures are
// rate-limited per peer; a code for a started table says so.
func TestPrivateTableAdmission(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, nodes := mockNodes(t, 4)
	creator := nodes[0]
	// The creator keeps its records on disk (a fresh node on the same host
	// id would read them back); the clock is the test's.
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	l := lob(creator)
	l.records, l.now = &stateStore{dir: dir}, clock.now
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	a, err := l.CreatePrivate("cafe0123cafe0123", "classic", nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	id := a.Table
	if !l.Private(id) {
		t.Fatal("not private")
	}
	text, err := l.Invite(id, creator.Host().Addrs(), nil)
	if err != nil {
		t.Fatal(err)
	}
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, id+".json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("creator's record: %v %v", fi, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, id+".json"))
	if strings.Contains(string(b), text) {
		t.Fatal("the record holds the creator's own code")
	}

	members := func() int { return len(l.Formation(id).Members) }
	// A LAN join with no proof: refused, not counted as a failure.
	waitTable(t, lob(nodes[3]), id, func(_ Announcement, ok bool) bool { return ok })
	if _, err := lob(nodes[3]).Join(ctx, id); !errors.Is(err, ErrInviteOnly) {
		t.Fatalf("join without a code: %v", err)
	}
	// A forged code (right table and creator, another secret): refused.
	forged := code
	forged.Secret, _ = invite.NewSecret()
	intruder := lob(nodes[2])
	for i := 0; i < 3; i++ {
		if _, err := intruder.JoinByCode(ctx, forged); !errors.Is(err, ErrDenied) {
			t.Fatalf("forged code, try %d: %v", i+1, err)
		}
	}
	// The fourth failure in a row is not even checked.
	if _, err := intruder.JoinByCode(ctx, forged); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("fourth try: %v", err)
	}
	// Even with the genuine code, until the bucket refills.
	if _, err := intruder.JoinByCode(ctx, code); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("genuine code while limited: %v", err)
	}
	if members() != 1 {
		t.Fatalf("refusals changed the table: %d members", members())
	}
	// The genuine code seats its holder, with the nonce the proof binds.
	got, err := lob(nodes[1]).JoinByCode(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := lob(nodes[1]).Nonce(id); got.Members[1].ID != nodes[1].ID().String() || got.Members[1].Nonce != n.String() {
		t.Fatalf("seat: %+v", got.Members)
	}
	// A proof made for another peer (a replay) does not admit: the proof
	// binds the joiner's peer id and nonce.
	nonce := NewNonce()
	replayed := code.Secret.Proof(id, []byte(creator.ID()), []byte(nodes[1].ID()), nonce)
	clock.add(time.Minute) // the intruder's bucket refills
	_, err = intruder.requestTo(ctx, creator.ID(), id, lobbyRequest{Op: "join", Name: "x", Nonce: nonce.String(), Proof: replayed.String()})
	if !errors.Is(err, ErrDenied) {
		t.Fatalf("replayed proof: %v", err)
	}
	// Revoked: the old code admits no one; a new one does.
	if err := l.Revoke(id); err != nil {
		t.Fatal(err)
	}
	clock.add(time.Minute)
	if _, err := intruder.JoinByCode(ctx, code); !errors.Is(err, ErrDenied) {
		t.Fatalf("revoked code: %v", err)
	}
	text2, err := l.Invite(id, creator.Host().Addrs(), nil)
	if err != nil || text2 == text {
		t.Fatalf("invite after revoke: %v", err)
	}
	code2, _ := invite.Parse(text2)
	clock.add(time.Minute)
	if _, err := intruder.JoinByCode(ctx, code2); err != nil {
		t.Fatalf("new code: %v", err)
	}
	// Full and started: a code for it says so.
	for _, n := range []*p2p.Node{creator, nodes[1], nodes[2]} {
		if _, err := lob(n).SetReady(ctx, id, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := lob(nodes[3]).JoinByCode(ctx, code2); !errors.Is(err, ErrTableStarted) {
		t.Fatalf("code for a started table: %v", err)
	}
	if err := l.Revoke(id); !errors.Is(err, ErrTableStarted) {
		t.Fatalf("revoke of a started table: %v", err)
	}
	// The seated members learn each other's addresses from the creator.
	n, err := lob(nodes[1]).LearnMemberAddrs(ctx, id)
	if err != nil || n != 1 {
		t.Fatalf("member addrs: %d %v", n, err)
	}
	if _, err := lob(nodes[3]).LearnMemberAddrs(ctx, id); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("addrs for a stranger: %v", err)
	}
	// The match over, the creator closes the table: its code says so, and
	// the creator's record is gone.
	if err := l.CloseTable(id); err != nil {
		t.Fatal(err)
	}
	if _, err := lob(nodes[3]).JoinByCode(ctx, code2); !errors.Is(err, ErrTableClosed) {
		t.Fatalf("code for a closed table: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, id+".json")); !os.IsNotExist(err) {
		t.Fatalf("creator's record after close: %v", err)
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"v":1,"table":"aaaa","created":true,"nonce":"` + strings.Repeat("ab", 32) + `","secret":"` + strings.Repeat("cd", 16) + `","code":"","saved":5}`))
	f.Add([]byte(`{"v":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(b)
		if err != nil {
			return
		}
		if p2p.ValidTableID(r.Table) != nil {
			t.Fatalf("accepted table id %q", r.Table)
		}
		// What is accepted saves and reads back the same.
		s := &stateStore{dir: t.TempDir()}
		if err := s.save(r); err != nil {
			t.Fatal(err)
		}
		got := s.load(r.Saved, func(string, error) { t.Fatal("own record unreadable") })
		if g := got[r.Table]; g != r {
			t.Fatalf("read back %+v, saved %+v", g, r)
		}
	})
}

// Formation is the hosted formation's announcement (tests).
func (l *Lobby) Formation(id string) Announcement {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hosted[id].Announcement()
}

// TestRecordsRoundTrip: records are written 0600, read back, damaged ones
// skipped and left, old ones removed.
func TestRecordsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := &stateStore{dir: dir}
	now := time.Unix(2_000_000, 0)
	sec, _ := invite.NewSecret()
	recs := []TableState{
		{Table: "aaaa", Nonce: NewNonce(), Created: true, Secret: sec, Saved: now},
		{Table: "bbbb", Nonce: NewNonce(), Saved: now},
		{Table: "old", Nonce: NewNonce(), Saved: now.Add(-31 * 24 * time.Hour)},
	}
	for _, r := range recs {
		if err := s.save(r); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "cccc.json"), []byte(`{"v":1}`), 0o600)
	var warned []string
	got := s.load(now, func(p string, err error) { warned = append(warned, filepath.Base(p)) })
	if len(got) != 2 || got["aaaa"] != recs[0] || got["bbbb"] != recs[1] {
		t.Fatalf("loaded %+v", got)
	}
	if len(warned) != 1 || warned[0] != "cccc.json" {
		t.Fatalf("warned %v", warned)
	}
	if _, err := os.Stat(filepath.Join(dir, "old.json")); !os.IsNotExist(err) {
		t.Fatal("old record kept")
	}
	if _, err := os.Stat(filepath.Join(dir, "cccc.json")); err != nil {
		t.Fatal("damaged record removed")
	}
	if err := s.save(TableState{Table: "../x"}); err == nil {
		t.Fatal("bad table id saved")
	}
}

// TestJoinByCodeThroughRelay: a joiner that cannot reach the creator
// directly reaches it through the relay named in the invite code: the
// creator registered the table's relay token there when it created the
// table, the joiner presents the token and dials the circuit, and the join
// (an admission proof) goes over it.
func TestJoinByCodeThroughRelay(t *testing.T) {
	t.Parallel()
	gc, gj := &noDirect{}, &noDirect{}
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	creatorID, _ := peer.IDFromPrivateKey(key)
	_, svc, rinfo := relayHost(t, creatorID)
	h, err := p2p.NewHost(p2p.WithIdentity(key), p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"), p2p.WithGater(gc), p2p.WithRelayClient())
	if err != nil {
		t.Fatal(err)
	}
	creator, err := p2p.NewNode(h, p2p.WithLogger(testLogger(t).With("node", "creator")), p2p.WithRetry(fastRetry), p2p.WithNodeRelays(rinfo))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { creator.Close() })
	startLobby(t, creator, fastLobby)
	joiner := gatedNode(t, "joiner", gj)
	gc.Block(joiner.ID())
	gj.Block(creator.ID())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	a, err := lob(creator).CreatePrivate("feedfacefeedface", "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	text, err := lob(creator).Invite(a.Table, creator.Host().Addrs(), creator.InviteRelays())
	if err != nil {
		t.Fatal(err)
	}
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(code.Relays) != 1 || !strings.HasSuffix(code.Relays[0].String(), "/p2p/"+rinfo.ID.String()) {
		t.Fatalf("the code's relays: %v", code.Relays)
	}
	for svc.Tables() != 1 { // the registration runs in the background
		select {
		case <-ctx.Done():
			t.Fatal("the table was never registered with the relay")
		case <-time.After(20 * time.Millisecond):
		}
	}
	how, err := joiner.DialCode(ctx, code)
	if err != nil || how != p2p.ReachRelay {
		t.Fatalf("DialCode: %q %v", how, err)
	}
	got, err := lob(joiner).JoinByCode(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Members) != 2 || got.Members[1].ID != joiner.ID().String() {
		t.Fatalf("members %+v", got.Members)
	}
	for _, c := range joiner.Host().Network().ConnsToPeer(creator.ID()) {
		if !isRelayed(c) {
			t.Fatalf("a direct connection: %v", c.RemoteMultiaddr())
		}
	}
	// A forged code's relay token is refused at the relay, before any
	// circuit: the joiner cannot even reach the creator.
	forged := code
	forged.Secret, _ = invite.NewSecret()
	sg := &noDirect{}
	sg.Block(creator.ID())
	stranger := gatedNode(t, "stranger", sg)
	if _, err := stranger.DialCode(ctx, forged); !errors.Is(err, p2p.ErrUnreachable) || !errors.Is(err, relay.ErrBadToken) {
		t.Fatalf("forged code through the relay: %v", err)
	}
}

// TestJoinByCodeDirectPresentsToken: a joiner that reaches the creator
// directly still presents the table's token to the code's relays, so that
// the relay lets it open circuits to the other members (issue 23's NAT
// lab: with a public creator, members behind NATs got PERMISSION_DENIED
// for every circuit between them and heard each other only through the
// creator).
func TestJoinByCodeDirectPresentsToken(t *testing.T) {
	t.Parallel()
	key, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	creatorID, _ := peer.IDFromPrivateKey(key)
	_, svc, rinfo := relayHost(t, creatorID)
	h, err := p2p.NewHost(p2p.WithIdentity(key), p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"), p2p.WithRelayClient())
	if err != nil {
		t.Fatal(err)
	}
	creator, err := p2p.NewNode(h, p2p.WithLogger(testLogger(t).With("node", "creator")), p2p.WithRetry(fastRetry), p2p.WithNodeRelays(rinfo))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { creator.Close() })
	startLobby(t, creator, fastLobby)
	joiner := gatedNode(t, "joiner", &noDirect{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a, err := lob(creator).CreatePrivate("feedfacefeedfac2", "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	text, err := lob(creator).Invite(a.Table, creator.Host().Addrs(), creator.InviteRelays())
	if err != nil {
		t.Fatal(err)
	}
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	for svc.Tables() != 1 {
		select {
		case <-ctx.Done():
			t.Fatal("the table was never registered with the relay")
		case <-time.After(20 * time.Millisecond):
		}
	}
	if _, err := lob(joiner).JoinByCode(ctx, code); err != nil {
		t.Fatal(err)
	}
	direct := false
	for _, c := range joiner.Host().Network().ConnsToPeer(creator.ID()) {
		direct = direct || !isRelayed(c)
	}
	if !direct {
		t.Fatal("the joiner did not reach the creator directly")
	}
	for !svc.Admits(joiner.ID(), creator.ID()) {
		select {
		case <-ctx.Done():
			t.Fatal("the joiner never became a member of the table at the code's relay")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestCreatorJoinKeepsTablePrivate: the creator asking to join its own
// private table (the lobby lets a player pick any table) is refused as
// already seated and the table stays private: the record that holds the
// secret is kept, so a LAN peer with no code is still refused.
func TestCreatorJoinKeepsTablePrivate(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 2)
	l := lob(nodes[0])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := l.CreatePrivate("beef0123beef0123", "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Join(ctx, a.Table); !errors.Is(err, ErrAlreadySeated) {
		t.Fatalf("creator joins its own table: %v, want ErrAlreadySeated", err)
	}
	if !l.Private(a.Table) {
		t.Fatal("the table is no longer private after its creator asked to join it")
	}
	waitTable(t, lob(nodes[1]), a.Table, func(_ Announcement, ok bool) bool { return ok })
	if _, err := lob(nodes[1]).Join(ctx, a.Table); !errors.Is(err, ErrInviteOnly) {
		t.Fatalf("LAN join without a code after the creator's join: %v, want ErrInviteOnly", err)
	}
}

// TestAdmissionOrderBadNonce: at a private table the admission check comes
// before the nonce's form (protocol.md 7.10, in order: rate, no proof, the
// proof, then 7.6's state machine): a join with a malformed nonce is
// refused invite-only without a proof, denied (and counted) with one, and
// rate once the peer is over its limit.
func TestAdmissionOrderBadNonce(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 2)
	l := lob(nodes[0])
	a, err := l.CreatePrivate("d00d0123d00d0123", "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	from := nodes[1].ID()
	req := lobbyRequest{V: AnnouncementVersion, Table: a.Table, Op: "join", Name: "x", Nonce: "zz"}
	if _, err := l.apply(from, req); !errors.Is(err, ErrInviteOnly) {
		t.Fatalf("no proof, bad nonce: %v, want ErrInviteOnly", err)
	}
	req.Proof = strings.Repeat("ab", invite.ProofSize)
	for i := 0; i < 3; i++ {
		if _, err := l.apply(from, req); !errors.Is(err, ErrDenied) {
			t.Fatalf("a proof, bad nonce (try %d): %v, want ErrDenied", i+1, err)
		}
	}
	if _, err := l.apply(from, req); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("over the limit, bad nonce: %v, want ErrRateLimited", err)
	}
	if n := len(l.Formation(a.Table).Members); n != 1 {
		t.Fatalf("%d members, want the creator only", n)
	}
}

// TestLANJoinKeepsCodeSeat: a peer seated by invite code that then asks to
// join the same table the LAN way (no proof: the lobby shows the table) is
// refused invite-only and keeps its record: its nonce (its seat's, which it
// must answer for when the table starts) and its code.
func TestLANJoinKeepsCodeSeat(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 2)
	cl, jl := lob(nodes[0]), lob(nodes[1])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := cl.CreatePrivate("f00d0123f00d0123", "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	text, err := cl.Invite(a.Table, nodes[0].Host().Addrs(), nil)
	if err != nil {
		t.Fatal(err)
	}
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jl.JoinByCode(ctx, code); err != nil {
		t.Fatalf("join by code: %v", err)
	}
	before, _ := jl.Nonce(a.Table)
	if _, err := jl.Join(ctx, a.Table); !errors.Is(err, ErrInviteOnly) {
		t.Fatalf("LAN join of a table seated by code: %v, want ErrInviteOnly", err)
	}
	if n, ok := jl.Nonce(a.Table); !ok || n != before {
		t.Fatal("the seat's nonce was dropped by a LAN join refused invite-only")
	}
	if r, ok := jl.TableState(a.Table); !ok || r.Code != text {
		t.Fatal("the code was dropped by a LAN join refused invite-only")
	}
}

// TestMemberAddrsOrder: op "addrs" gives the addresses a member is seen
// connecting from first, then the known ones, each group sorted, without
// relayed connections or duplicates, at most maxMemberAddrs.
func TestMemberAddrsOrder(t *testing.T) {
	m := func(ss ...string) []ma.Multiaddr {
		var out []ma.Multiaddr
		for _, s := range ss {
			out = append(out, ma.StringCast(s))
		}
		return out
	}
	for _, c := range []struct {
		seen, known []ma.Multiaddr
		want        []string
	}{
		{nil, nil, nil},
		{m("/ip4/11.77.0.13/udp/4001/quic-v1"), m("/ip4/10.0.3.2/udp/4001/quic-v1"),
			[]string{"/ip4/11.77.0.13/udp/4001/quic-v1", "/ip4/10.0.3.2/udp/4001/quic-v1"}},
		{m("/ip4/11.77.0.13/tcp/4001", "/ip4/11.77.0.13/tcp/4001", "/ip4/11.77.0.2/tcp/4001/p2p/12D3KooWRzht6PFeNLePHqTbnt6T4ftu3XcRuPf1DdR6wk1zyZTn/p2p-circuit"),
			m("/ip4/10.0.3.2/tcp/4001", "/ip4/11.77.0.13/tcp/4001", "/ip4/10.0.3.2/tcp/4001"),
			[]string{"/ip4/11.77.0.13/tcp/4001", "/ip4/10.0.3.2/tcp/4001"}},
		{m("/ip4/9.9.9.9/tcp/1"), m("/ip4/1.0.0.1/tcp/1", "/ip4/1.0.0.2/tcp/1", "/ip4/1.0.0.3/tcp/1", "/ip4/1.0.0.4/tcp/1",
			"/ip4/1.0.0.5/tcp/1", "/ip4/1.0.0.6/tcp/1", "/ip4/1.0.0.7/tcp/1", "/ip4/1.0.0.8/tcp/1"),
			[]string{"/ip4/9.9.9.9/tcp/1", "/ip4/1.0.0.1/tcp/1", "/ip4/1.0.0.2/tcp/1", "/ip4/1.0.0.3/tcp/1", "/ip4/1.0.0.4/tcp/1",
				"/ip4/1.0.0.5/tcp/1", "/ip4/1.0.0.6/tcp/1", "/ip4/1.0.0.7/tcp/1"}},
	} {
		if got := memberAddrs(c.seen, c.known); !slices.Equal(got, c.want) {
			t.Errorf("memberAddrs(%v, %v) = %v, want %v", c.seen, c.known, got, c.want)
		}
	}
}

// hiddenHost is a QUIC host on loopback that advertises only an address
// nobody can dial, as a member behind a NAT that knows only its private
// address (no relay told it its public one).
func hiddenHost(t *testing.T) host.Host {
	t.Helper()
	h, err := libp2p.New(
		libp2p.ListenAddrStrings("/ip4/127.0.0.1/udp/0/quic-v1"),
		libp2p.Transport(libp2pquic.NewTransport),
		libp2p.DisableRelay(),
		libp2p.AddrsFactory(func([]ma.Multiaddr) []ma.Multiaddr {
			return []ma.Multiaddr{ma.StringCast("/ip4/10.255.255.1/udp/9/quic-v1")}
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestAddrsGivesSeenAddress: a member that advertises no address the
// others can dial (behind a cone NAT, without a relay) is still dialled
// directly by another member: the creator's "addrs" answer carries the
// address it sees that member connect from (its public mapping). Without
// it the answer holds only the advertised address, and the dial fails.
func TestAddrsGivesSeenAddress(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var nodes []*p2p.Node
	for i := range 3 {
		var h host.Host
		if i == 0 {
			var err error
			if h, err = p2p.NewHost(p2p.WithListenAddrs("/ip4/127.0.0.1/udp/0/quic-v1")); err != nil {
				t.Fatal(err)
			}
		} else {
			h = hiddenHost(t)
		}
		nd, err := p2p.NewNode(h, p2p.WithLogger(testLogger(t).With("node", i)), p2p.WithRetry(fastRetry))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nd.Close() })
		startLobby(t, nd, fastLobby)
		nodes = append(nodes, nd)
	}
	l := lob(nodes[0])
	a, err := l.CreatePrivate("addr5eenaddr5een", "classic", nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	text, err := l.Invite(a.Table, nodes[0].Host().Addrs(), nil)
	if err != nil {
		t.Fatal(err)
	}
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes[1:] {
		if _, err := lob(n).JoinByCode(ctx, code); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range nodes {
		if _, err := lob(n).SetReady(ctx, a.Table, true); err != nil {
			t.Fatal(err)
		}
	}
	b, c := nodes[1].Host(), nodes[2].Host()
	if got, err := lob(nodes[2]).LearnMemberAddrs(ctx, a.Table); err != nil || got != 1 {
		t.Fatalf("member addrs: %d %v", got, err)
	}
	// The node may already be dialling b with what it learnt; a dial of
	// our own, with b's peerstore addresses only, must succeed.
	dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
	defer dcancel()
	if err := c.Connect(dctx, peer.AddrInfo{ID: b.ID()}); err != nil {
		t.Fatalf("member 2 cannot dial member 1 with the addresses the creator gave (%v): %v", c.Peerstore().Addrs(b.ID()), err)
	}
	for _, conn := range c.Network().ConnsToPeer(b.ID()) {
		if !strings.HasPrefix(conn.RemoteMultiaddr().String(), "/ip4/127.0.0.1/udp/") {
			t.Fatalf("member 2 reached member 1 at %v", conn.RemoteMultiaddr())
		}
	}
}
