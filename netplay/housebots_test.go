package netplay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// testMover is a house bot's mover in these tests: greedy, and random
// known too (a level to save); b101 at a table of Okey 101.
func testMover(name string, seed uint64, is101 bool) (table.Mover, error) {
	if is101 {
		return bot.NewB101(), nil
	}
	if name != "greedy" && name != "random" && name != "expert" {
		return nil, errors.New("unknown strategy " + name)
	}
	return bot.New(name, seed)
}

// TestHouseBotsFillAndResume: a table the player opens over a mocknet is
// filled by its house bots, each a peer of its own with an identity under
// DATA/bots, seated and ready at the level the table was filled with,
// which is kept for a resume; every bot ends when the context does.
func TestHouseBotsFillAndResume(t *testing.T) {
	mn, cs := mockClients(t, 1)
	player := cs[0]
	pinfo := peer.AddrInfo{ID: player.node.ID(), Addrs: player.node.Host().Addrs()}
	opened := make(chan string, 4)
	open := func(ctx context.Context, o Options) (*Client, error) {
		k, err := p2p.LoadOrCreateIdentity(o.Data)
		if err != nil {
			return nil, err
		}
		h, err := mn.AddPeer(k, ma.StringCast(fmt.Sprintf("/ip4/10.0.1.%d/tcp/4001", len(opened)+1)))
		if err != nil {
			return nil, err
		}
		if err := mn.LinkAll(); err != nil {
			return nil, err
		}
		d := &p2p.ManualDiscovery{}
		d.Add(pinfo)
		opened <- o.Name
		o.Host, o.Peers, o.Listen = h, nil, nil
		o.Log = testLogger(t).With("bot", o.Name)
		o.NodeOptions = testNodeOptions(p2p.WithDiscovery(d))
		o.Lobby = fastLobby
		return Open(ctx, o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bctx, stopBots := context.WithCancel(ctx)
	hb := NewHouseBots(bctx, player, HouseBotOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t), Open: open})
	a, err := player.Lobby().Create("classic", nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	hb.Fill(a.Table, "random", 2)
	for {
		got, ok := player.Lobby().Table(a.Table)
		if ok && len(got.Members) == 3 && !slices.ContainsFunc(got.Members[1:], func(m lobby.Seat) bool { return !m.Ready }) {
			var names []string
			for _, m := range got.Members[1:] {
				names = append(names, m.Name)
			}
			slices.Sort(names)
			if !slices.Equal(names, []string{"bot1", "bot2"}) {
				t.Fatalf("the bots seated: %q, want bot1 and bot2", names)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the bots never sat ready: %+v", got)
		case <-time.After(20 * time.Millisecond):
		}
	}
	// The table starts at the player's ready; the bots then keep their
	// level for a resume.
	if _, err := player.Lobby().SetReady(ctx, a.Table, true); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bot1", "bot2"} {
		dir := filepath.Join(player.Data(), BotsDir, name)
		if _, err := os.Stat(filepath.Join(dir, p2p.IdentityFile)); err != nil {
			t.Errorf("%s has no identity of its own under DATA/bots: %v", name, err)
		}
		for savedStrategyIn(dir, a.Table, "none", func(string) bool { return true }) != "random" || !exists(filepath.Join(dir, MatchesDir, a.Table)) {
			select {
			case <-ctx.Done():
				t.Fatalf("%s's level and match are not kept for a resume", name)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	stopBots()
	done := make(chan struct{})
	go func() { hb.Wait(time.Minute); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the bots did not end with their context")
	}
	if n, ok := hb.claim("bot1"); !ok || n != "bot1" {
		t.Fatalf("a bot that ended still holds its name: %q, %v", n, ok)
	}
	// Resume restarts the bots that sat at the table, under their names.
	for len(opened) > 0 {
		<-opened
	}
	rctx, stopResumed := context.WithCancel(ctx)
	again := NewHouseBots(rctx, player, HouseBotOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t), Open: open})
	again.Resume(a.Table)
	var names []string
	for len(names) < 2 {
		select {
		case n := <-opened:
			names = append(names, n)
		case <-ctx.Done():
			t.Fatalf("Resume restarted %q, want bot1 and bot2", names)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"bot1", "bot2"}) {
		t.Fatalf("Resume restarted %q, want bot1 and bot2", names)
	}
	if again.Resume(a.Table); len(opened) != 0 {
		t.Fatal("a bot still playing was started twice")
	}
	stopResumed()
	again.Wait(time.Minute)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestHouseBotNames: a bot resuming one table is not handed to a new one.
func TestHouseBotNames(t *testing.T) {
	hb := NewHouseBots(context.Background(), nil, HouseBotOptions{Strategy: "greedy", Mover: testMover})
	if n, ok := hb.claim("bot1"); !ok || n != "bot1" {
		t.Fatalf("claim(bot1) = %q, %v", n, ok)
	}
	if _, ok := hb.claim("bot1"); ok {
		t.Fatal("bot1 claimed twice")
	}
	if n, _ := hb.claim(""); n != "bot2" {
		t.Fatalf("a new bot is %q, want bot2", n)
	}
	hb.release("bot1")
	if n, _ := hb.claim(""); n != "bot1" {
		t.Fatalf("after release, a new bot is %q, want bot1", n)
	}
}

// TestBotLevelKeptForResume: the level a LAN table's bots were seated with
// is kept per table in the bot's data directory, so a resumed match plays
// on at that level and not at the level of the command that resumes it.
func TestBotLevelKeptForResume(t *testing.T) {
	dir := t.TempDir()
	hb := NewHouseBots(context.Background(), nil, HouseBotOptions{Strategy: "greedy", Mover: testMover})
	if got := hb.savedStrategy(dir, "z1"); got != "greedy" {
		t.Fatalf("nothing saved: %q, want the fallback", got)
	}
	if err := saveStrategy(dir, "z1", "expert"); err != nil {
		t.Fatal(err)
	}
	if err := saveStrategy(dir, "z2", "random"); err != nil {
		t.Fatal(err)
	}
	if got := hb.savedStrategy(dir, "z1"); got != "expert" {
		t.Fatalf("table z1: %q, want expert", got)
	}
	if got := hb.savedStrategy(dir, "z2"); got != "random" {
		t.Fatalf("table z2: %q, want random", got)
	}
	if err := os.WriteFile(filepath.Join(dir, levelsDir, "z3"), []byte("grandmaster\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := hb.savedStrategy(dir, "z3"); got != "greedy" {
		t.Fatalf("an unknown saved name: %q, want the fallback", got)
	}
}

// TestBotListen: a house bot listens on the player's interfaces, on ports
// of its own.
func TestBotListen(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{"/ip4/0.0.0.0/tcp/4001", "/ip4/0.0.0.0/udp/4001/quic-v1", "/ip6/::/tcp/0"},
			[]string{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1", "/ip6/::/tcp/0"}},
		{[]string{"/ip4/192.168.1.5/tcp/9000"}, []string{"/ip4/192.168.1.5/tcp/0"}},
	} {
		if got := BotListen(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("BotListen(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
