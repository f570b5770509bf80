package netplay

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// testLogger collects logs and prints them only when the test fails (a
// goroutine logging after the test ended must not call t.Log). pubsub's own
// debug chatter is dropped.
func testLogger(t testing.TB) *slog.Logger {
	var mu sync.Mutex
	var buf bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	})
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("LAN_TEST_LOGS") != "" {
			mu.Lock()
			t.Logf("logs:\n%s", buf.String())
			mu.Unlock()
		}
	})
	return slog.New(&quietPubsub{slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

type quietPubsub struct{ slog.Handler }

func (h *quietPubsub) WithAttrs(as []slog.Attr) slog.Handler {
	for _, a := range as {
		if a.Key == "component" && (a.Value.String() == "pubsub") {
			return &floor{h.Handler.WithAttrs(as)}
		}
	}
	return &quietPubsub{h.Handler.WithAttrs(as)}
}

func (h *quietPubsub) WithGroup(name string) slog.Handler {
	return &quietPubsub{h.Handler.WithGroup(name)}
}

type floor struct{ slog.Handler }

func (h *floor) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelInfo && h.Handler.Enabled(ctx, l)
}
func (h *floor) WithAttrs(as []slog.Attr) slog.Handler { return &floor{h.Handler.WithAttrs(as)} }

var fastRetry = p2p.RetryPolicy{Attempts: 50, Min: 20 * time.Millisecond, Max: 200 * time.Millisecond, DialTimeout: 2 * time.Second}

var fastLobby = lobby.Config{AnnounceInterval: 150 * time.Millisecond, Expiry: 2 * time.Second, RequestTimeout: 5 * time.Second}

func testNodeOptions(extra ...p2p.NodeOption) []p2p.NodeOption {
	return append([]p2p.NodeOption{p2p.WithRetry(fastRetry)}, extra...)
}

// mockClients makes n Clients on one mocknet, all linked, each with its own
// data directory; each discovers the others through a ManualDiscovery.
func mockClients(t *testing.T, n int) (mocknet.Mocknet, []*Client) {
	t.Helper()
	return mockNet(t, n, "10.0.0", "bot", true)
}

// mockLobby is mockClients(t, n) with a context that ends after d, or
// when the test ends (before the clients close).
func mockLobby(t *testing.T, n int, d time.Duration) (context.Context, mocknet.Mocknet, []*Client) {
	t.Helper()
	mn, clients := mockClients(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx, mn, clients
}

// mockNet makes n Clients named "NAME i" on one mocknet, all linked (any
// may dial any address it learns), each with its own data directory and
// address SUBNET.i+1 (the first three octets); with discover, each knows
// the others through a ManualDiscovery, else it discovers nothing (no mDNS,
// no --peer).
func mockNet(t *testing.T, n int, subnet, name string, discover bool) (mocknet.Mocknet, []*Client) {
	t.Helper()
	mn := mocknet.New()
	t.Cleanup(func() { mn.Close() })
	dirs := make([]string, n)
	var infos []peer.AddrInfo
	for i := range n {
		dirs[i] = t.TempDir()
		k, err := p2p.LoadOrCreateIdentity(dirs[i])
		if err != nil {
			t.Fatal(err)
		}
		h, err := mn.AddPeer(k, ma.StringCast(fmt.Sprintf("/ip4/%s.%d/tcp/4001", subnet, i+1)))
		if err != nil {
			t.Fatal(err)
		}
		infos = append(infos, peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()})
	}
	if err := mn.LinkAll(); err != nil {
		t.Fatal(err)
	}
	clients := make([]*Client, n)
	for i, ai := range infos {
		var extra []p2p.NodeOption
		if discover {
			d := &p2p.ManualDiscovery{}
			for j, other := range infos {
				if j != i {
					d.Add(other)
				}
			}
			extra = append(extra, p2p.WithDiscovery(d))
		}
		c, err := Open(context.Background(), Options{Data: dirs[i], Name: fmt.Sprintf("%s %d", name, i), NoMDNS: true,
			Host: mn.Host(ai.ID), Log: testLogger(t).With("peer", i), Lobby: fastLobby, NodeOptions: testNodeOptions(extra...)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		clients[i] = c
	}
	return mn, clients
}

// seatAll runs FindSeat on every client concurrently (client i with
// opts[i], or opts[0] for all) and checks they all reach the same started
// table.
func seatAll(t testing.TB, ctx context.Context, clients []*Client, opts ...SeatOptions) lobby.Announcement {
	t.Helper()
	anns := make([]lobby.Announcement, len(clients))
	errs := make([]error, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		o := opts[0]
		if len(opts) > 1 {
			o = opts[i]
		}
		wg.Go(func() { anns[i], errs[i] = c.FindSeat(ctx, o) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: FindSeat: %v", i, err)
		}
		if anns[i].Table != anns[0].Table {
			t.Fatalf("client %d seated at %s, client 0 at %s", i, anns[i].Table, anns[0].Table)
		}
	}
	return anns[0]
}

// seatCreated: the first of seats creates a table of the preset with
// options for all of them, and they all join it (seatAll). It returns the
// table as created (open) and as started.
func seatCreated(t testing.TB, ctx context.Context, seats []*Client, preset string, options map[string]string) (created, started lobby.Announcement) {
	t.Helper()
	created, err := seats[0].Lobby().Create(preset, options, len(seats))
	if err != nil {
		t.Fatal(err)
	}
	return created, seatAll(t, ctx, seats, SeatOptions{Join: created.Table})
}

// seatAuto: every client looks for a one-round turkish-rummy match of
// them all, with no table made by a person (each may open one after
// settle), and they end seated at one (seatAll).
func seatAuto(t *testing.T, ctx context.Context, clients []*Client, settle time.Duration) lobby.Announcement {
	t.Helper()
	return seatAll(t, ctx, clients, SeatOptions{Ruleset: "turkish-rummy:rounds=1", Players: len(clients), Match: true, Settle: settle})
}

// honestPlay is PlayOptions for honest tests: no honest peer is ever
// blamed for being slow, however loaded the machine (the test's context
// bounds the run instead).
func honestPlay(out string) PlayOptions {
	return PlayOptions{Out: out, Withhold: 10 * time.Minute, Stall: 500 * time.Millisecond, Linger: 20 * time.Second}
}

// playAll plays a started table on every client concurrently.
func playAll(t testing.TB, ctx context.Context, clients []*Client, a lobby.Announcement, opts func(i int) PlayOptions) []*Outcome {
	t.Helper()
	return playAllMovers(t, ctx, clients, a, opts, func(_ int, m table.Mover) table.Mover { return m })
}

// playAllMovers is playAll with each seat's greedy bot passed through wrap.
func playAllMovers(t testing.TB, ctx context.Context, clients []*Client, a lobby.Announcement, opts func(i int) PlayOptions, wrap func(i int, m table.Mover) table.Mover) []*Outcome {
	t.Helper()
	outs := make([]*Outcome, len(clients))
	errs := make([]error, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		bm, err := bot.New("greedy", uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		mover := wrap(i, bm)
		wg.Go(func() { outs[i], errs[i] = c.Play(ctx, a, mover, opts(i)) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: Play: %v", i, err)
		}
	}
	return outs
}

// checkHonest checks that every outcome is an honest, verified finish with
// byte-identical transcript files.
func checkHonest(t testing.TB, outs []*Outcome) {
	t.Helper()
	var first []byte
	for i, o := range outs {
		if v := o.Result.Violation; v != nil {
			t.Fatalf("client %d: violation %v", i, v)
		}
		if !o.Report.Honest {
			t.Fatalf("client %d: transcript not honest: %+v", i, o.Report)
		}
		b, err := os.ReadFile(o.Transcript)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := table.ReadTranscript(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if !table.Verify(tr).Honest {
			t.Fatalf("client %d: file %s does not verify", i, o.Transcript)
		}
		if i == 0 {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("client %d: transcript differs from client 0's", i)
		}
		if filepath.Base(o.Transcript) != filepath.Base(outs[0].Transcript) {
			t.Fatalf("transcript names differ: %s, %s", o.Transcript, outs[0].Transcript)
		}
	}
}
