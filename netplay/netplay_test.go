package netplay

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

func newPeerID(t testing.TB) (peer.ID, crypto.PrivKey) {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id, k
}

func startedAnnouncement(t testing.TB, n int, preset string, opts map[string]string) (lobby.Announcement, []crypto.PrivKey) {
	t.Helper()
	a := lobby.Announcement{V: lobby.AnnouncementVersion, Table: "t1", Seq: 9, Preset: preset, Options: opts, Seats: n, State: lobby.StateStarted}
	var keys []crypto.PrivKey
	for i := range n {
		id, k := newPeerID(t)
		keys = append(keys, k)
		a.Members = append(a.Members, lobby.Seat{ID: id.String(), Name: fmt.Sprintf("p%d", i), Nonce: lobby.NewNonce().String(), Ready: true})
	}
	a.Creator = a.Members[0].ID
	return a, keys
}

func TestTableConfigDerivation(t *testing.T) {
	a, keys := startedAnnouncement(t, 3, "turkish-rummy", map[string]string{"rounds": "1"})
	cfg, err := TableConfig(a)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Ruleset != "turkish-rummy:rounds=1" || len(cfg.Seats) != 3 || cfg.ID != ConfigID("t1", a.Creator) {
		t.Fatalf("config %+v", cfg)
	}
	for i, s := range cfg.Seats {
		raw, _ := keys[i].GetPublic().Raw()
		if string(s.ID) != a.Members[i].ID || s.Name != a.Members[i].Name || !s.Key.Equal(ed25519.PublicKey(raw)) ||
			fmt.Sprintf("%x", s.Nonce) != a.Members[i].Nonce {
			t.Fatalf("seat %d: %+v", i, s)
		}
		sk, err := privateKey(keys[i])
		if err != nil || !sk.Public().(ed25519.PublicKey).Equal(s.Key) {
			t.Fatalf("seat %d: private key does not match: %v", i, err)
		}
	}
	// Deterministic: the same announcement (even re-encoded, with another
	// seq) gives the same config hash; any change of table, creator,
	// ruleset, order or names gives another.
	b, _ := a.Encode()
	a2, err := lobby.DecodeAnnouncement(b)
	if err != nil {
		t.Fatal(err)
	}
	a2.Seq = 100
	cfg2, _ := TableConfig(a2)
	if cfg2.Hash() != cfg.Hash() {
		t.Fatal("same table, different config hash")
	}
	variants := map[string]func(*lobby.Announcement){
		"table":   func(a *lobby.Announcement) { a.Table = "t2" },
		"options": func(a *lobby.Announcement) { a.Options = map[string]string{"rounds": "3"} },
		"order":   func(a *lobby.Announcement) { a.Members[1], a.Members[2] = a.Members[2], a.Members[1] },
		"name":    func(a *lobby.Announcement) { a.Members[2].Name = "other" },
		"nonce":   func(a *lobby.Announcement) { a.Members[1].Nonce = lobby.NewNonce().String() },
	}
	for name, change := range variants {
		v, _ := lobby.DecodeAnnouncement(b)
		change(&v)
		cv, err := TableConfig(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cv.Hash() == cfg.Hash() {
			t.Fatalf("%s: changed announcement, same config", name)
		}
	}
	// Options round-trip through SplitRuleset, including valueless ones.
	for _, rs := range []string{"classic", "classic:deal=simple,partnerships", "german:rounds=2,strokes", "turkish-rummy:rounds=1"} {
		p, o, err := SplitRuleset(rs)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Ruleset(lobby.Announcement{Preset: p, Options: o})
		if err != nil || r.String() != rs {
			t.Fatalf("%s: got %v %v", rs, r, err)
		}
	}
	// Long multi-byte names are cut at a character boundary to fit.
	long := strings.Repeat("ğ", 24)
	a3, _ := lobby.DecodeAnnouncement(b)
	a3.Members[1].Name = long
	c3, err := TableConfig(a3)
	if err != nil || len(c3.Seats[1].Name) > table.MaxNameLen || !strings.HasPrefix(long, c3.Seats[1].Name) {
		t.Fatalf("long name: %q %v", c3.Seats[1].Name, err)
	}
}

func TestTableConfigRejects(t *testing.T) {
	a, _ := startedAnnouncement(t, 2, "classic", nil)
	bad := map[string]func(*lobby.Announcement){
		"not full":      func(a *lobby.Announcement) { a.Seats = 3; a.State = lobby.StateOpen },
		"bad option":    func(a *lobby.Announcement) { a.Options = map[string]string{"rounds": "1"} },
		"bad preset":    func(a *lobby.Announcement) { a.Preset = "poker" },
		"partnerships2": func(a *lobby.Announcement) { a.Options = map[string]string{"partnerships": ""} },
		"no nonce":      func(a *lobby.Announcement) { a.Members[1].Nonce = "" },
		"zero nonce":    func(a *lobby.Announcement) { a.Members[0].Nonce = strings.Repeat("0", 64) },
		"shared nonce":  func(a *lobby.Announcement) { a.Members[1].Nonce = a.Members[0].Nonce },
	}
	for name, change := range bad {
		v := a
		v.Members = append([]lobby.Seat(nil), a.Members...)
		change(&v)
		if _, err := TableConfig(v); !errors.Is(err, ErrAnnouncement) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A peer id without an Ed25519 key (an identity multihash of another
	// key type) cannot sit.
	k, _, _ := crypto.GenerateSecp256k1Key(nil)
	id, _ := peer.IDFromPrivateKey(k)
	v := a
	v.Members = append([]lobby.Seat(nil), a.Members...)
	v.Members[1].ID = id.String()
	if _, err := TableConfig(v); !errors.Is(err, ErrAnnouncement) {
		t.Errorf("secp256k1 member: %v", err)
	}
}

func TestValidator(t *testing.T) {
	a, keys := startedAnnouncement(t, 2, "classic", nil)
	cfg, err := TableConfig(a)
	if err != nil {
		t.Fatal(err)
	}
	v := Validator(cfg)
	seal := func(seat int, k crypto.PrivKey, tableID [16]byte) []byte {
		sk, _ := privateKey(k)
		e := &table.Envelope{Table: tableID, Seat: uint8(seat), Kind: table.KindHello, Body: make([]byte, 64)}
		if err := e.Seal(sk, cfg.Hash()); err != nil {
			t.Fatal(err)
		}
		return e.Raw
	}
	p0, _ := peer.Decode(a.Members[0].ID)
	p1, _ := peer.Decode(a.Members[1].ID)
	good := seal(0, keys[0], cfg.ID)
	if err := v(p0, good); err != nil {
		t.Fatalf("good envelope rejected: %v", err)
	}
	// Another member passes a seat's message on (evidence of a violation).
	if err := v(p1, good); err != nil {
		t.Fatalf("envelope relayed by a member rejected: %v", err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)-1] ^= 1
	outsider, ok := newPeerID(t)
	cases := map[string]struct {
		from peer.ID
		data []byte
	}{
		"garbage":       {p0, []byte("hello")},
		"empty":         {p0, nil},
		"other table":   {p0, seal(0, keys[0], [16]byte{1})},
		"bad signature": {p0, flipped},
		"wrong key":     {p0, seal(0, keys[1], cfg.ID)},
		"no such seat":  {p0, seal(5, keys[0], cfg.ID)},
		"outsider":      {outsider, seal(0, ok, cfg.ID)},
	}
	for name, c := range cases {
		if err := v(c.from, c.data); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestMatchMocknet plays whole matches through lan on in-process networks
// of 2, 3 and 4 peers: table formation in the lobby (create and join, and
// the automatic rule that makes peers started together meet at one table),
// then the match, with identical, verified transcripts.
func TestMatchMocknet(t *testing.T) {
	t.Parallel()
	for _, n := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("%dpeers", n), func(t *testing.T) {
			t.Parallel()
			ctx, _, clients := mockLobby(t, n, 4*time.Minute)
			var a lobby.Announcement
			if n == 2 {
				// Explicit create and join.
				_, a = seatCreated(t, ctx, clients, "turkish-rummy", map[string]string{"rounds": "1"})
			} else {
				// Every peer automatic: they must converge on one table.
				a = seatAuto(t, ctx, clients, 500*time.Millisecond)
			}
			if len(a.Members) != n {
				t.Fatalf("started with %d members", len(a.Members))
			}
			start := time.Now()
			outs := playAll(t, ctx, clients, a, func(i int) PlayOptions { return honestPlay(t.TempDir()) })
			t.Logf("%d peers: match of %d hands, %d steps in %v", n, len(outs[0].Report.Hands), outs[0].Report.Steps, time.Since(start))
			checkHonest(t, outs)
			draws := 0
			for i, o := range outs {
				if len(o.Timing.Deals) != len(o.Report.Hands) {
					t.Errorf("client %d timed %d deals for %d hands", i, len(o.Timing.Deals), len(o.Report.Hands))
				}
				draws += len(o.Timing.Draws)
			}
			if draws == 0 {
				t.Error("no draw from the stock was timed")
			}
			for _, c := range clients {
				if u, err := c.Unfinished(); err != nil || len(u) != 0 {
					t.Fatalf("unfinished after the match: %v %v", u, err)
				}
			}
			// The same started table again (a replay, or a table announced
			// again) is never taken for a resume of the finished match.
			mover, _ := bot.New("greedy", 1)
			if _, err := clients[n-1].Play(ctx, a, mover, honestPlay(t.TempDir())); !errors.Is(err, ErrMatchOver) {
				t.Fatalf("finished match played again: %v", err)
			}
		})
	}
}

// TestLinkCutMidMatch cuts one peer's links in the middle of a hand, waits
// until the others see it gone and the table waits, restores the links,
// and checks the match finishes honestly everywhere.
func TestLinkCutMidMatch(t *testing.T) {
	t.Parallel()
	ctx, mn, clients := mockLobby(t, 3, 4*time.Minute)
	a := seatAuto(t, ctx, clients, 500*time.Millisecond)
	const victim = 1
	vid, _ := peer.Decode(clients[victim].ID())
	var cutOnce sync.Once
	cut := make(chan struct{})
	var sawGone atomic.Int32 // others that saw the victim disconnected
	gone := make(chan struct{}, 8)
	outs := playAll(t, ctx, clients, a, func(i int) PlayOptions {
		o := honestPlay(t.TempDir())
		if i == victim {
			o.OnStep = func(m *table.Machine, v *engine.View) {
				if mt := m.Match(); mt != nil && mt.Hand() != nil && mt.Hand().Phase() == engine.PhasePlay && mt.Hand().Turns() >= 4 {
					cutOnce.Do(func() { close(cut) })
				}
			}
		} else {
			seen := false
			o.OnPresence = func(ms []p2p.MemberStatus) {
				for _, m := range ms {
					if string(m.ID) == vid.String() && !m.Connected && !seen {
						seen = true
						sawGone.Add(1)
						gone <- struct{}{}
					}
				}
			}
		}
		if i == 0 {
			// The cutter: it runs beside the match.
			go func() {
				select {
				case <-cut:
				case <-ctx.Done():
					return
				}
				// others calls f with each other peer's id.
				others := func(f func(other peer.ID)) {
					for j, c := range clients {
						if j != victim {
							other, _ := peer.Decode(c.ID())
							f(other)
						}
					}
				}
				others(func(other peer.ID) {
					if err := mn.UnlinkPeers(vid, other); err != nil {
						t.Errorf("unlink: %v", err)
					}
					if err := mn.DisconnectPeers(vid, other); err != nil {
						t.Errorf("disconnect: %v", err)
					}
				})
				for range len(clients) - 1 {
					select {
					case <-gone:
					case <-ctx.Done():
						return
					}
				}
				// The outage lasts a few stall intervals: catch-up requests
				// fail meanwhile, and broadcasts to the victim are lost.
				select {
				case <-time.After(1500 * time.Millisecond):
				case <-ctx.Done():
					return
				}
				others(func(other peer.ID) {
					if _, err := mn.LinkPeers(vid, other); err != nil {
						t.Errorf("link: %v", err)
					}
				})
			}()
		}
		return o
	})
	if sawGone.Load() != int32(len(clients)-1) {
		t.Fatalf("%d peers saw the victim go, want %d", sawGone.Load(), len(clients)-1)
	}
	checkHonest(t, outs)
}

// TestRestartLoopback runs 3 peers over real TCP on 127.0.0.1 (static
// peers, no mDNS), stops one in the middle of the hand (its Play ends, its
// Client closes: a crash), and starts it again from its data directory on a
// new port: it finds its unfinished match, resumes it, and the match ends
// honestly with identical transcripts.
func TestRestartLoopback(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	const n, victim = 3, 2
	dirs := make([]string, n)
	clients := make([]*Client, n)
	var addrs []string
	open := func(i int) *Client {
		c, err := Open(ctx, Options{Data: dirs[i], Name: fmt.Sprintf("loop %d", i), NoMDNS: true, Listen: []string{"/ip4/127.0.0.1/tcp/0"},
			Peers: addrs, Log: testLogger(t).With("peer", i), Lobby: fastLobby, NodeOptions: testNodeOptions()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for i := range n {
		dirs[i] = t.TempDir()
		clients[i] = open(i)
		t.Cleanup(func() { clients[i].Close() })
		if i != victim {
			addrs = append(addrs, clients[i].Addrs()...)
		}
	}
	a := seatAuto(t, ctx, clients, 500*time.Millisecond)
	outDirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	outs := make([]*Outcome, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		if i == victim {
			continue
		}
		mover, _ := bot.New("greedy", uint64(i))
		wg.Go(func() { outs[i], errs[i] = clients[i].Play(ctx, a, mover, honestPlay(outDirs[i])) })
	}
	dieCtx, die := context.WithCancel(ctx)
	var diedAt atomic.Uint32
	o := honestPlay(outDirs[victim])
	o.OnStep = func(m *table.Machine, v *engine.View) {
		if mt := m.Match(); mt != nil && mt.Hand() != nil && mt.Hand().Phase() == engine.PhasePlay && mt.Hand().Turns() >= 3 && diedAt.Load() == 0 {
			diedAt.Store(m.Step())
			die()
		}
	}
	mover, _ := bot.New("greedy", victim)
	if _, err := clients[victim].Play(dieCtx, a, mover, o); err == nil {
		t.Fatal("victim finished before it died")
	}
	if diedAt.Load() == 0 {
		t.Fatal("victim never reached the point of death")
	}
	clients[victim].Close()

	clients[victim] = open(victim) // a new process: new port, same data
	un, err := clients[victim].Unfinished()
	if err != nil || len(un) != 1 || un[0].Table != a.Table {
		t.Fatalf("unfinished: %v %v", un, err)
	}
	mover, _ = bot.New("greedy", victim)
	// The steps replayed from the saved state go to OnReplay, and the first
	// OnStep shows the state resumed at (a screen shows no old news).
	var replayed, firstStep atomic.Uint32
	ro := honestPlay(outDirs[victim])
	ro.OnReplay = func(m *table.Machine, _ *engine.View) {
		if firstStep.Load() != 0 {
			t.Errorf("a step replayed (%d) after the first live one", m.Step())
		}
		replayed.Add(1)
	}
	ro.OnStep = func(m *table.Machine, _ *engine.View) { firstStep.CompareAndSwap(0, m.Step()) }
	outs[victim], errs[victim] = clients[victim].Play(ctx, un[0], mover, ro)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	if outs[victim].Resumed < diedAt.Load() {
		t.Fatalf("resumed at step %d, died at %d", outs[victim].Resumed, diedAt.Load())
	}
	if replayed.Load() == 0 || firstStep.Load() != outs[victim].Resumed {
		t.Fatalf("on resume at step %d: %d steps replayed, the first OnStep at step %d", outs[victim].Resumed, replayed.Load(), firstStep.Load())
	}
	checkHonest(t, outs)
}

func TestPlayRefuses(t *testing.T) {
	t.Parallel()
	_, clients := mockClients(t, 1)
	c := clients[0]
	ctx := context.Background()
	a, _ := startedAnnouncement(t, 2, "classic", nil)
	mover, _ := bot.New("random", 1)
	if _, err := c.Play(ctx, a, mover, PlayOptions{}); !errors.Is(err, ErrAnnouncement) {
		t.Fatalf("not seated: %v", err)
	}
	a.Members[1].ID = c.ID()
	open := a
	open.State = lobby.StateOpen
	if _, err := c.Play(ctx, open, mover, PlayOptions{}); !errors.Is(err, ErrAnnouncement) {
		t.Fatalf("open table: %v", err)
	}
	if _, err := c.Play(ctx, a, nil, PlayOptions{}); err == nil {
		t.Fatal("nil mover accepted")
	}
	// A data directory that holds another match under the same table id is
	// not overwritten.
	dir := filepath.Join(c.Data(), MatchesDir, a.Table)
	other, _ := startedAnnouncement(t, 2, "classic", nil)
	other.Members[1].ID = c.ID()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, announcementFile), must(other.Encode()), 0o600); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := c.Play(cctx, a, mover, PlayOptions{}); err == nil || !strings.Contains(err.Error(), "another match") {
		t.Fatalf("conflicting state: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, announcementFile)); err != nil {
		t.Fatal(err)
	}
}

func mustConfig(t *testing.T, a lobby.Announcement) table.Config {
	t.Helper()
	c, err := TableConfig(a)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOpenRejectsBadOptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Open(ctx, Options{Data: dir, NoMDNS: true, Name: " bad ", Listen: []string{"/ip4/127.0.0.1/tcp/0"}}); err == nil {
		t.Fatal("bad name accepted")
	}
	if _, err := Open(ctx, Options{Data: dir, NoMDNS: true, Peers: []string{"/ip4/127.0.0.1/tcp/1"}, Listen: []string{"/ip4/127.0.0.1/tcp/0"}}); err == nil {
		t.Fatal("peer address without /p2p/ accepted")
	}
	if _, err := Open(ctx, Options{Data: dir, NoMDNS: true, Listen: []string{"not an address"}}); err == nil {
		t.Fatal("bad listen address accepted")
	}
	c, err := Open(ctx, Options{Data: dir, NoMDNS: true, Name: "Ayşe", Listen: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.ID()
	c.Close()
	// The identity and the name persist.
	c, err = Open(ctx, Options{Data: dir, NoMDNS: true, Listen: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ID() != id || c.Name() != "Ayşe" {
		t.Fatalf("reopened as %s %q", c.ID(), c.Name())
	}
	// One data directory, one process: a second Open is refused.
	if c2, err := Open(ctx, Options{Data: dir, NoMDNS: true, Listen: []string{"/ip4/127.0.0.1/tcp/0"}}); !errors.Is(err, ErrDataInUse) {
		if c2 != nil {
			c2.Close()
		}
		t.Fatalf("second Open of one data directory: %v", err)
	}
}

// TestSeatConvergence: peers looking for a table that each opened their
// own (automatic) table at once move to the table a person opened with
// Create, whatever its id, and end seated together.
func TestSeatConvergence(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 3, 2*time.Minute)
	rs := "turkish-rummy:rounds=1"
	var wg sync.WaitGroup
	anns := make([]lobby.Announcement, 3)
	errs := make([]error, 3)
	for i := 1; i < 3; i++ {
		// No settling: each opens an automatic table at once.
		wg.Go(func() {
			anns[i], errs[i] = clients[i].FindSeat(ctx, SeatOptions{Ruleset: rs, Players: 3, Settle: time.Millisecond})
		})
	}
	// Wait until both automatic tables are known to the creator, then open
	// the deliberate one.
	for {
		auto := 0
		for _, a := range clients[0].Lobby().Tables() {
			if strings.HasPrefix(a.Table, AutoTablePrefix) {
				auto++
			}
		}
		if auto >= 1 {
			break
		}
		select {
		case <-clients[0].Lobby().Changes():
		case <-ctx.Done():
			t.Fatal("no automatic table seen")
		}
	}
	anns[0], errs[0] = clients[0].FindSeat(ctx, SeatOptions{Create: true, Ruleset: rs, Players: 3})
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		if anns[i].Table != anns[0].Table || anns[i].Creator != clients[0].ID() {
			t.Fatalf("client %d at %s (creator %s), want client 0's %s", i, anns[i].Table, anns[i].Creator, anns[0].Table)
		}
	}
	if strings.HasPrefix(anns[0].Table, AutoTablePrefix) {
		t.Fatalf("created table %s has the automatic prefix", anns[0].Table)
	}
}

// TestAbsentPeerStalls: a peer vanishes in the middle of the hand and never
// comes back; after the Withhold timeout the other ends the match unfinished,
// saying who stopped answering and naming no one (silence is not proof), and
// the saved transcript says the same.
func TestAbsentPeerStalls(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 2, 3*time.Minute)
	a := seatAuto(t, ctx, clients, 300*time.Millisecond)
	victim := 1
	if a.Members[1].ID != clients[1].ID() {
		victim = 0 // seat order is join order
	}
	vc, sc := clients[1], clients[0]
	var survivor *Outcome
	var serr error
	var wg sync.WaitGroup
	wg.Go(func() {
		mover, _ := bot.New("greedy", 0)
		o := PlayOptions{Out: t.TempDir(), Withhold: 3 * time.Second, MoveWithhold: 3 * time.Second, Stall: 300 * time.Millisecond, WaitLog: time.Second}
		survivor, serr = sc.Play(ctx, a, mover, o)
	})
	dieCtx, die := context.WithCancel(ctx)
	o := honestPlay(t.TempDir())
	o.OnStep = func(m *table.Machine, v *engine.View) {
		if mt := m.Match(); mt != nil && mt.Hand() != nil && mt.Hand().Phase() == engine.PhasePlay && mt.Hand().Turns() >= 2 {
			die()
		}
	}
	mover, _ := bot.New("greedy", 1)
	if _, err := vc.Play(dieCtx, a, mover, o); err == nil {
		t.Fatal("victim finished before it died")
	}
	vc.Close()
	wg.Wait()
	if serr != nil {
		t.Fatal(serr)
	}
	checkStalledOn(t, survivor, victim)
	if _, err := os.Stat(survivor.Transcript); err != nil {
		t.Fatal(err)
	}
}

// TestNeverJoinedPeerStalls: a seated peer never opens the table; the
// others start anyway after ReadyTimeout and, after Withhold, end the match
// unfinished, saying that it never answered (no one named).
func TestNeverJoinedPeerStalls(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 2, 2*time.Minute)
	a := seatAuto(t, ctx, clients, 300*time.Millisecond)
	absent := 0
	if a.Members[0].ID != clients[1].ID() {
		absent = 1
	}
	mover, _ := bot.New("greedy", 0)
	o, err := clients[0].Play(ctx, a, mover, PlayOptions{Out: t.TempDir(), ReadyTimeout: 500 * time.Millisecond,
		Withhold: 2 * time.Second, Stall: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	checkStalledOn(t, o, absent)
}

// checkStalledOn checks that the match of o ended stalled on seat, naming
// no one, and that its transcript says the same: unfinished, waiting for
// seat.
func checkStalledOn(t *testing.T, o *Outcome, seat int) {
	t.Helper()
	if st := o.Result.Stalled; st == nil || st.Seat != seat || o.Result.Violation != nil {
		t.Fatalf("verdict %v / %v, want seat %d stalled, no one named", o.Result.Violation, st, seat)
	}
	if r := o.Report; r.Status() != table.StatusUnfinished || r.Next == nil || r.Next.Seat != seat {
		t.Fatalf("transcript verdict: %+v", r)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestAdmission: Play signs only a started table whose config carries this
// peer's own nonce for its seat, never a config it played before unless it
// resumes that very unfinished match, and never takes a finished match's
// directory for a resume (protocol.md 5.1, 7.8).
func TestAdmission(t *testing.T) {
	t.Parallel()
	_, clients := mockClients(t, 1)
	c := clients[0]
	const id = "t1"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Lobby().CreateWithID(id, "classic", nil, 2); err != nil {
		t.Fatal(err)
	}
	mine, ok := c.Lobby().Nonce(id)
	if !ok {
		t.Fatal("no nonce for the created table")
	}
	// The creator's started table, as the lobby would announce it.
	a, _ := startedAnnouncement(t, 2, "classic", nil)
	a.Creator, a.Members[0].ID, a.Members[0].Nonce = c.ID(), c.ID(), mine.String()
	dir := filepath.Join(c.Data(), MatchesDir, id)
	saved := func() bool { _, err := os.Stat(filepath.Join(dir, announcementFile)); return err == nil }
	mover, _ := bot.New("random", 1)
	play := func(a lobby.Announcement) error {
		cctx, cancel := context.WithTimeout(ctx, time.Second) // the other seat never comes
		defer cancel()
		_, err := c.Play(cctx, a, mover, PlayOptions{ReadyTimeout: 100 * time.Millisecond, Withhold: time.Hour})
		return err
	}

	// Another nonce at this peer's seat (a creator's forgery, or an old
	// match's roster): refused before anything is signed or saved.
	forged := a
	forged.Members = append([]lobby.Seat(nil), a.Members...)
	forged.Members[0].Nonce = lobby.NewNonce().String()
	if err := play(forged); !errors.Is(err, ErrNotMyNonce) {
		t.Fatalf("forged nonce: %v", err)
	}
	if saved() {
		t.Fatal("a refused table was saved")
	}
	// A config already in the record of played matches (its directory
	// lost) is refused too.
	cfg := mustConfig(t, a)
	if err := c.recordPlayed(cfg.Hash()); err != nil {
		t.Fatal(err)
	}
	if err := play(a); !errors.Is(err, ErrPlayedBefore) {
		t.Fatalf("played config: %v", err)
	}
	if saved() {
		t.Fatal("a refused table was saved")
	}
	os.Remove(filepath.Join(c.Data(), playedFile))

	// A damaged record refuses rather than forgets.
	os.WriteFile(filepath.Join(c.Data(), playedFile), []byte("zz\n"), 0o600)
	if err := c.admit(dir, a, cfg, 0); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged record: %v", err)
	}
	os.Remove(filepath.Join(c.Data(), playedFile))

	// The genuine table is admitted: saved, recorded, the nonce used up.
	if err := play(a); err == nil || errors.Is(err, ErrNotMyNonce) || errors.Is(err, ErrPlayedBefore) {
		t.Fatalf("genuine table: %v (want the context's end: the other seat never came)", err)
	}
	if !saved() {
		t.Fatal("the started table was not saved")
	}
	if played, err := c.playedBefore(cfg.Hash()); err != nil || !played {
		t.Fatalf("not recorded: %v %v", played, err)
	}
	if _, ok := c.Lobby().Nonce(id); ok {
		t.Fatal("the nonce outlived the start of its match")
	}
	// It is unfinished: Unfinished lists it and Play resumes it (no nonce
	// needed, the record allows it).
	if u, err := c.Unfinished(); err != nil || len(u) != 1 || u[0].Table != id {
		t.Fatalf("unfinished: %v %v", u, err)
	}
	if err := c.admit(dir, a, cfg, 0); err != nil {
		t.Fatalf("resume refused: %v", err)
	}
	// Another config under the same table id while it is unfinished.
	other := forged
	if err := c.admit(dir, other, mustConfig(t, other), 0); err == nil || !strings.Contains(err.Error(), "another match") {
		t.Fatalf("other match under the same id: %v", err)
	}
	// Finished: neither the same config nor a new one under that id is
	// taken for a resume.
	if err := os.WriteFile(filepath.Join(dir, doneFile), []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.admit(dir, a, cfg, 0); !errors.Is(err, ErrMatchOver) {
		t.Fatalf("finished match resumed: %v", err)
	}
	if err := c.admit(dir, other, mustConfig(t, other), 0); !errors.Is(err, ErrMatchOver) {
		t.Fatalf("new table in a finished match's directory: %v", err)
	}
	if u, err := c.Unfinished(); err != nil || len(u) != 0 {
		t.Fatalf("unfinished after done: %v %v", u, err)
	}
	// The record: one line per config, in order, and no duplicates.
	b, err := os.ReadFile(filepath.Join(c.Data(), playedFile))
	if err != nil || string(b) != fmt.Sprintf("%x\n", cfg.Hash()) {
		t.Fatalf("record %q %v", b, err)
	}
}
