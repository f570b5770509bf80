package netplay

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	mocknet "github.com/libp2p/go-libp2p/p2p/net/mock"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
)

// isolatedClients makes n Clients on one mocknet, linked (any may dial any
// address it learns) but with no discovery at all: no mDNS, no --peer.
func isolatedClients(t *testing.T, n int) (mocknet.Mocknet, []*Client) {
	t.Helper()
	return mockNet(t, n, "10.0.1", "friend", false)
}

// TestInviteCodeEndToEnd: a creator opens a private table and gives out
// its code; three friends with no discovery take seats from the code alone,
// the match finishes and verifies on every seat. A forged code and a
// wrong-secret joiner are refused (and rate-limited), changing nothing; a
// code for the started table says so.
func TestInviteCodeEndToEnd(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	_, cs := isolatedClients(t, 6)
	creator, friends, intruder, late := cs[0], cs[1:4], cs[4], cs[5]

	codes := make(chan string, 1)
	var wg sync.WaitGroup
	anns := make([]lobby.Announcement, 4)
	errs := make([]error, 4)
	wg.Go(func() {
		anns[0], errs[0] = creator.FindSeat(ctx, SeatOptions{Create: true, Private: true, Ruleset: "turkish-rummy:rounds=1", Players: 4,
			OnCreate: func(a lobby.Announcement) {
				text, err := creator.Invite(a.Table)
				if err != nil {
					t.Error(err)
				}
				codes <- text
			}})
	})
	var text string
	select {
	case text = <-codes:
	case <-ctx.Done():
		t.Fatal("no code")
	}
	if len(text) > invite.MaxLen {
		t.Fatalf("code of %d characters", len(text))
	}
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	id := code.Table

	// A forged code: the right table and creator, a secret of its own.
	forged := code
	forged.Secret, _ = invite.NewSecret()
	for i := 0; i < 3; i++ {
		if _, err := intruder.FindSeat(ctx, SeatOptions{Code: &forged}); !errors.Is(err, ErrCannotForm) || !errors.Is(err, lobby.ErrDenied) {
			t.Fatalf("forged code, try %d: %v", i+1, err)
		}
	}
	if _, err := intruder.FindSeat(ctx, SeatOptions{Code: &forged}); !errors.Is(err, lobby.ErrRateLimited) {
		t.Fatalf("fourth forged try: %v", err)
	}
	if a, _ := creator.Lobby().Table(id); len(a.Members) != 1 {
		t.Fatalf("refusals changed the table: %+v", a.Members)
	}

	for i, f := range friends {
		wg.Go(func() { anns[i+1], errs[i+1] = f.FindSeat(ctx, SeatOptions{Code: &code}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		if anns[i].Table != id || anns[i].State != lobby.StateStarted {
			t.Fatalf("client %d: %+v", i, anns[i])
		}
	}
	// The started table's code admits no one any more, and says why.
	if _, err := late.FindSeat(ctx, SeatOptions{Code: &code}); !errors.Is(err, ErrCannotForm) || !errors.Is(err, lobby.ErrTableStarted) {
		t.Fatalf("code for a started table: %v", err)
	}
	players := []*Client{creator, friends[0], friends[1], friends[2]}
	// A spectator with the code watches the private table and keeps its
	// transcript; one with a forged code is refused by every member and
	// sees nothing (its watch stops unfinished, naming no one).
	var watched, forgedWatch *Outcome
	var watchErr, forgedErr error
	wg.Go(func() {
		watched, watchErr = late.Watch(ctx, anns[0], WatchOptions{Code: &code, Stall: 500 * time.Millisecond})
	})
	wg.Go(func() {
		forgedWatch, forgedErr = intruder.Watch(ctx, anns[0], WatchOptions{Code: &forged, Stall: 300 * time.Millisecond, Withhold: 3 * time.Second})
	})
	outs := playAll(t, ctx, players, anns[0], func(int) PlayOptions { return honestPlay(t.TempDir()) })
	wg.Wait()
	if watchErr != nil || forgedErr != nil {
		t.Fatalf("watching: %v; with a forged code: %v", watchErr, forgedErr)
	}
	if forgedWatch.Result.Stalled == nil || forgedWatch.Report.Steps != 0 {
		t.Fatalf("a forged code's spectator: %+v, %d steps", forgedWatch.Result, forgedWatch.Report.Steps)
	}
	checkHonest(t, append(outs, watched))
	// The members reached each other directly (addresses from the creator),
	// not only through it.
	for i, c := range players {
		for j, o := range players {
			if i != j && !c.Node().Connected(o.Node().ID()) {
				t.Errorf("client %d not connected to client %d", i, j)
			}
		}
	}
}

// TestAutoSeatingSkipsPrivateTables: peers seating themselves the automatic
// way on the LAN do not get stuck on a private table they see announced
// (it refuses them, invite-only): they meet at a table of their own.
func TestAutoSeatingSkipsPrivateTables(t *testing.T) {
	t.Parallel()
	ctx, _, cs := mockLobby(t, 3, time.Minute)
	const private = "0000000000000000" // the smallest id: the one auto seating prefers
	if _, err := cs[0].Lobby().CreatePrivate(private, "classic", nil, 3); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the private table in the others' lobbies", func() bool {
		_, ok1 := cs[1].Lobby().Table(private)
		_, ok2 := cs[2].Lobby().Table(private)
		return ok1 && ok2
	})
	a := seatAll(t, ctx, cs[1:], SeatOptions{Players: 2, Settle: 300 * time.Millisecond})
	if a.Table == private {
		t.Fatal("seated at the private table without its code")
	}
	if got, _ := cs[0].Lobby().Table(private); len(got.Members) != 1 {
		t.Fatalf("the private table changed: %+v", got.Members)
	}
}

// TestInviteCodeMissingLink: two joiners by code that cannot reach each
// other at all (no link between them) still play the whole match: their
// messages go through the members both reach (gossip), and catch-up asks
// those members.
func TestInviteCodeMissingLink(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	mn, cs := isolatedClients(t, 4)
	if err := mn.UnlinkPeers(cs[1].Node().ID(), cs[2].Node().ID()); err != nil {
		t.Fatal(err)
	}
	codes := make(chan string, 1)
	anns := make([]lobby.Announcement, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	wg.Go(func() {
		anns[0], errs[0] = cs[0].FindSeat(ctx, SeatOptions{Create: true, Private: true, Ruleset: "turkish-rummy:rounds=1", Players: 4,
			OnCreate: func(a lobby.Announcement) {
				text, _ := cs[0].Invite(a.Table)
				codes <- text
			}})
	})
	code, err := invite.Parse(<-codes)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 4; i++ {
		wg.Go(func() { anns[i], errs[i] = cs[i].FindSeat(ctx, SeatOptions{Code: &code}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	opts := func(i int) PlayOptions {
		o := honestPlay(t.TempDir())
		o.ReadyTimeout = 3 * time.Second // the unreachable member never joins the topic directly
		if i == 1 || i == 2 {
			// After the end a member lingers until every other member
			// has the last step, asked directly: the unlinked pair cannot
			// ask each other, so each sat out the whole linger (20 s of
			// this test's 23). Seats 0 and 3, linked to both, linger until
			// each has the end: they serve them.
			o.Linger = 2 * time.Second
		}
		return o
	}
	outs := playAll(t, ctx, cs, anns[0], opts)
	checkHonest(t, outs)
	if cs[1].Node().Connected(cs[2].Node().ID()) {
		t.Fatal("the unlinked members are connected")
	}
}
