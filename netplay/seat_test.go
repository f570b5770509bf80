package netplay

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// seatFront records what PlaySeat tells a front end.
type seatFront struct {
	mu                 sync.Mutex
	steps, aways, link int
}

func (f *seatFront) OnStep(*table.Machine, *engine.View)   { f.mu.Lock(); f.steps++; f.mu.Unlock() }
func (f *seatFront) OnReplay(*table.Machine, *engine.View) {}
func (f *seatFront) SetAway([]string)                      { f.mu.Lock(); f.aways++; f.mu.Unlock() }
func (f *seatFront) SetLinks([]table.SeatLink)             { f.mu.Lock(); f.link++; f.mu.Unlock() }

// TestPlaySeat: the creator's seat played through PlaySeat finishes
// honestly, its front told the steps, the presence and the links, and the
// table is closed in the creator's lobby after the match; a table without
// the player is refused.
func TestPlaySeat(t *testing.T) {
	ctx, _, cs := mockLobby(t, 2, 4*time.Minute)
	_, a := seatCreated(t, ctx, cs, "turkish-rummy", map[string]string{"rounds": "1"})
	s := NewLobbyService(ctx, cs[0], LobbyOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t)})
	if _, err := s.PlaySeat(ctx, lobby.Announcement{Table: a.Table, Members: a.Members[1:]}, nil, &seatFront{}, PlayOptions{}); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("a table without the player: %v, want ErrNotSeated", err)
	}
	if cs[0].Seat(a) != 0 || cs[1].Seat(a) != 1 {
		t.Fatalf("seats %d %d, want 0 1", cs[0].Seat(a), cs[1].Seat(a))
	}
	var other *Outcome
	var otherErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		m, _ := bot.New("greedy", 2)
		other, otherErr = cs[1].Play(ctx, a, m, honestPlay(t.TempDir()))
	})
	m, _ := bot.New("greedy", 1)
	f := &seatFront{}
	o, err := s.PlaySeat(ctx, a, m, f, honestPlay(t.TempDir()))
	wg.Wait()
	if err != nil || otherErr != nil {
		t.Fatalf("PlaySeat: %v; the other seat: %v", err, otherErr)
	}
	checkHonest(t, []*Outcome{o, other})
	f.mu.Lock()
	steps, aways, links := f.steps, f.aways, f.link
	f.mu.Unlock()
	if steps < len(o.Report.Hands) || aways == 0 || links == 0 {
		t.Fatalf("the front was told %d steps, %d presences, %d links", steps, aways, links)
	}
	if _, ok := cs[0].Lobby().Table(a.Table); ok {
		t.Fatal("the creator's lobby still holds the table after its match")
	}
}

// TestAwayNames: the members whose peers are not connected, by name,
// never this peer.
func TestAwayNames(t *testing.T) {
	a := lobby.Announcement{Members: []lobby.Seat{{ID: "p1", Name: "ayse"}, {ID: "p2", Name: "can"}, {ID: "p3", Name: "deniz"}}}
	var got []string
	AwayNames(a, func(n []string) { got = n })([]p2p.MemberStatus{{ID: "p1", Self: true}, {ID: "p2", Connected: true}, {ID: "p3"}})
	if len(got) != 1 || got[0] != "deniz" {
		t.Fatalf("away %q, want deniz", got)
	}
}
