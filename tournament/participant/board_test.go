package participant

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// waitListing polls the board until ok holds for its one listing, or fails
// at the deadline.
func waitListing(t *testing.T, b *Board, d time.Duration, ok func(l Listing) bool) Listing {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if ls := b.List(); len(ls) == 1 && ok(ls[0]) {
			return ls[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("board: %+v", b.List())
		}
		select {
		case <-b.Changes():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestBoardListsAndTaps: a board on the bus lists an announced tournament
// (name, format, ruleset, registrations / wanted, registering); a
// participant started on its Tap registers through it, and the board counts
// that registration (its own publication, which the network does not echo)
// with the player's key; stale tournaments leave the list.
func TestBoardListsAndTaps(t *testing.T) {
	bus := NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	creator, err := New(Config{Dir: t.TempDir(), Key: testKey(0), Name: "host", PeerID: "peer-0", Net: bus.Join("peer-0"),
		Create: &Create{Name: "spring cup", Format: "swiss:rounds=2", Ruleset: "classic:points=2", Players: 3}, Retry: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	go creator.Run(ctx)
	b := NewBoard(bus.Join("lobby"))
	now := time.Now()
	b.now = func() time.Time { return now }
	go b.Run(ctx)
	l := waitListing(t, b, 20*time.Second, func(l Listing) bool { return l.Registered == 1 })
	if l.Name != "spring cup" || l.Format.Rounds != 2 || l.Ruleset != "classic:points=2" || l.Players != 3 || l.Round != 0 || l.Ended {
		t.Fatalf("listing %+v", l)
	}
	key := testKey(1)
	var pub [32]byte
	copy(pub[:], key.Public().(ed25519.PublicKey))
	tap := b.Tap()
	p, err := New(Config{Dir: t.TempDir(), Key: key, Name: "ayse", PeerID: "lobby", Net: tap, Tournament: l.ID, Retry: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	go p.Run(ctx)
	l = waitListing(t, b, 20*time.Second, func(l Listing) bool { return l.Registered == 2 })
	if !slices.Contains(l.Keys, pub) {
		t.Fatalf("the tapped participant's key is not among the registered: %+v", l)
	}
	// The registration went out on the bus too: the creator holds it.
	deadline := time.Now().Add(10 * time.Second)
	for !hasKeyRecord(creator.Records(), tournament.KindRegister, pub) {
		if time.Now().After(deadline) {
			t.Fatal("the creator never received the registration")
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Untap(tap)
	b.mu.Lock()
	now = now.Add(BoardStale)
	b.mu.Unlock()
	if ls := b.List(); len(ls) != 0 {
		t.Fatalf("stale tournaments listed: %+v", ls)
	}
}

func hasKeyRecord(recs [][]byte, k tournament.Kind, signer [32]byte) bool {
	for _, raw := range recs {
		if r, err := tournament.Decode(raw); err == nil && r.Kind == k && r.Signer == signer {
			return true
		}
	}
	return false
}

// TestBoardIgnoresBadRecords: garbage, a record with a broken signature
// and a registration without its announcement list nothing.
func TestBoardIgnoresBadRecords(t *testing.T) {
	b := NewBoard(NewMemBus().Join("x"))
	ann := &tournament.Record{Kind: tournament.KindAnnounce, Players: 4, Name: "cup", Format: "swiss", Ruleset: "classic"}
	ann.Nonce[0] = 1
	copy(ann.Signer[:], testKey(0).Public().(ed25519.PublicKey))
	if err := ann.Sign(testKey(0)); err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), ann.Raw...)
	bad[len(bad)-1] ^= 1
	reg := &tournament.Record{Kind: tournament.KindRegister, Tournament: [32]byte{9}, Name: "a", PeerID: "p"}
	copy(reg.Signer[:], testKey(1).Public().(ed25519.PublicKey))
	if err := reg.Sign(testKey(1)); err != nil {
		t.Fatal(err)
	}
	for _, raw := range [][]byte{nil, []byte("OKT"), bad, reg.Raw} {
		b.Add(raw)
	}
	if ls := b.List(); len(ls) != 0 {
		t.Fatalf("listed %+v", ls)
	}
	if !b.Add(ann.Raw) || b.Add(ann.Raw) {
		t.Fatal("a good announcement is new once")
	}
	if ls := b.List(); len(ls) != 1 || ls[0].Name != "cup" || ls[0].Registered != 0 {
		t.Fatalf("listed %+v", ls)
	}
}

// TestBoardSeesTheEnd: a board beside a whole tournament of 3 bots (1
// round) lists it registering, then under way, then ended once every
// table of the last round was offered.
func TestBoardSeesTheEnd(t *testing.T) {
	bus := NewMemBus()
	b := NewBoard(bus.Join("lobby"))
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	go b.Run(ctx)
	var rounds []int
	done := make(chan error, 3)
	for i := 0; i < 3; i++ {
		id := fmt.Sprintf("peer-%d", i)
		c := Config{Dir: t.TempDir(), Key: testKey(i), Name: fmt.Sprintf("bot%d", i), PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 60 * time.Second, Retry: 100 * time.Millisecond, DrawWait: 60 * time.Second}
		if i == 0 {
			c.Create = &Create{Name: "cup", Format: "swiss:rounds=1", Ruleset: "classic:points=2", Players: 3}
		}
		p, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, err := p.Run(ctx); done <- err }()
	}
	l := waitListing(t, b, 110*time.Second, func(l Listing) bool {
		if len(rounds) == 0 || rounds[len(rounds)-1] != l.Round {
			rounds = append(rounds, l.Round)
		}
		return l.Ended
	})
	if l.Round != 1 || l.Registered != 3 || len(l.Keys) != 3 {
		t.Fatalf("ended listing %+v", l)
	}
	if rounds[len(rounds)-1] != 1 || slices.Contains(rounds, 2) {
		t.Fatalf("rounds seen %v", rounds)
	}
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
