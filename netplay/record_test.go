package netplay

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/p2p/lobby"
)

// TestRestartAfterJoin: a peer that restarts after joining a table but
// before it starts keeps its nonce (kept with its data, 0600) and plays its
// seat (issue 20 section 5: it was refused, ErrNotMyNonce, when the nonce
// lived in memory only).
func TestRestartAfterJoin(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dirs := []string{t.TempDir(), t.TempDir()}
	var creatorAddrs []string
	open := func(i int) *Client {
		c, err := Open(ctx, Options{Data: dirs[i], Name: []string{"ali", "ayse"}[i], NoMDNS: true, Listen: []string{"/ip4/127.0.0.1/tcp/0"},
			Peers: creatorAddrs, Log: testLogger(t).With("peer", i), Lobby: fastLobby, NodeOptions: testNodeOptions()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := open(0)
	t.Cleanup(func() { a.Close() })
	creatorAddrs = a.Addrs()
	const id = "0123456789abcdef"
	if _, err := a.Lobby().CreateWithID(id, "turkish-rummy", map[string]string{"rounds": "1"}, 2); err != nil {
		t.Fatal(err)
	}
	b := open(1)
	waitFor(t, ctx, "the table in b's lobby", func() bool { _, ok := b.Lobby().Table(id); return ok })
	if _, err := b.Lobby().Join(ctx, id); err != nil {
		t.Fatal(err)
	}
	nonce, _ := b.Lobby().Nonce(id)
	rec := filepath.Join(dirs[1], TablesDir, id+".json")
	if fi, err := os.Stat(rec); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("record %s: %v %v", rec, fi, err)
	}
	b.Close() // a restart between the join and the start

	b = open(1)
	t.Cleanup(func() { b.Close() })
	if got, ok := b.Lobby().Nonce(id); !ok || got != nonce {
		t.Errorf("nonce after the restart: %v %v, want %v", got, ok, nonce)
	}
	var anns [2]lobby.Announcement
	var errs [2]error
	var wg sync.WaitGroup
	wg.Go(func() { anns[1], errs[1] = b.FindSeat(ctx, SeatOptions{Join: id}) })
	if _, err := a.Lobby().SetReady(ctx, id, true); err != nil {
		t.Fatal(err)
	}
	anns[0], errs[0] = a.Lobby().WaitStarted(ctx, id)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	if anns[1].Members[1].Nonce != nonce.String() {
		t.Fatalf("seat 1 has nonce %s, want the first join's %s", anns[1].Members[1].Nonce, nonce)
	}
	outs := make([]*Outcome, 2)
	for i, c := range []*Client{a, b} {
		mover, _ := bot.New("greedy", uint64(i))
		wg.Go(func() { outs[i], errs[i] = c.Play(ctx, anns[i], mover, honestPlay(t.TempDir())) })
	}
	wg.Wait()
	for i, err := range errs {
		if errors.Is(err, ErrNotMyNonce) {
			t.Fatalf("client %d refused its own seat: %v", i, err)
		}
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	checkHonest(t, outs)
	// The nonce is used up: gone from the record.
	if _, err := os.Stat(rec); !os.IsNotExist(err) {
		t.Fatalf("record after the start: %v", err)
	}
}

// waitFor polls cond until it holds or ctx ends.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
