package netplay

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TestTourLobby: the lobby's side of the tournaments, as both front ends
// list them: a tournament announced by one player's lobby (Create: bad
// setups refused with no id) is listed by the others by its 64-digit id,
// registering (round 0), not theirs; Join refuses what is not an id and
// registers the others by the id; once the roster is out the row says the
// round under way (the board's, before any standings: no seat moves until
// the test has seen it), and at the end
// every lobby lists it ended, its part over, with the three players'
// standings after round 1.
func TestTourLobby(t *testing.T) {
	lane.NoRace(t) // a whole tournament over an in-process bus
	i18n.Set(i18n.English)
	bus := participant.NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lobbies := make([]*TourLobby, 3)
	gate := make(chan struct{}) // closed: the seats move
	var svcs []*participant.Service
	for i := range lobbies {
		id := fmt.Sprintf("peer-%d", i)
		seed := sha256.Sum256([]byte(id))
		self := participant.Self{Key: ed25519.NewKeyFromSeed(seed[:]), Data: t.TempDir(), Name: fmt.Sprintf("player %d", i), PeerID: id}
		svc := participant.NewService(ctx, self, bus.Join(id), participant.ServiceOptions{
			Sit: func(string, tournament.Ref, int) participant.Sitting {
				return participant.Sitting{Mover: gatedMover{gate, bot.NewGreedy()}}
			},
			TableNet: func(_ context.Context, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil }})
		svcs = append(svcs, svc)
		lobbies[i] = NewTourLobby(svc)
	}
	defer func() {
		cancel()
		for _, s := range svcs {
			s.Wait(time.Minute)
		}
	}()
	for _, bad := range []struct{ name, ruleset string }{{"cup", "nonesuch"}, {"", "classic"}} {
		if id, err := lobbies[0].Create(ctx, bad.name, bad.ruleset, 3, 1); err == nil || id != "" {
			t.Fatalf("announced %q %q: %q %v", bad.name, bad.ruleset, id, err)
		}
	}
	id, err := lobbies[0].Create(ctx, "cup", "classic:points=1", 3, 1)
	if err != nil || len(id) != 64 {
		t.Fatalf("the announcement: %q %v", id, err)
	}
	until := func(what string, l *TourLobby, ok func(TourRow) bool) TourRow {
		t.Helper()
		for {
			rows := l.Rows()
			if i := slices.IndexFunc(rows, func(r TourRow) bool { return r.ID == id }); i >= 0 && ok(rows[i]) {
				return rows[i]
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %+v", what, rows)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	r := until("heard", lobbies[1], func(TourRow) bool { return true })
	if r.Name != "cup" || r.Ruleset != "classic:points=1" || r.Rounds != 1 || r.Players != 3 || r.Registered != 1 || r.Round != 0 || r.Mine || r.Playing || r.Ended || r.Points != "" {
		t.Fatalf("listed %+v", r)
	}
	if err := lobbies[1].Join(ctx, "zz"); err == nil || err.Error() != "not a tournament id: zz" {
		t.Fatalf("joined a bad id: %v", err)
	}
	for _, l := range lobbies[1:] {
		if err := l.Join(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if r := until("the part", lobbies[1], func(r TourRow) bool { return r.Mine }); !r.Playing {
		t.Fatalf("joined, not playing: %+v", r)
	}
	if r := until("under way", lobbies[2], func(r TourRow) bool { return r.Round == 1 }); r.Ended || len(r.Standings) != 0 || r.StandingsRound != 0 {
		t.Fatalf("under way, before any move: %+v", r)
	}
	close(gate)
	for i, l := range lobbies {
		r := until(fmt.Sprintf("lobby %d: ended with standings", i), l, func(r TourRow) bool { return r.Ended && len(r.Standings) == 3 })
		if r.StandingsRound != 1 || r.Registered != 3 || !r.Mine || !strings.HasPrefix(r.Standings[0], "1. player ") || !strings.Contains(r.Standings[2], " points, score ") {
			t.Fatalf("lobby %d lists %+v", i, r)
		}
	}
}

// TestDeadTableNote: an unfinished tournament table says whose move the
// other seats stopped waiting for (the player's, with the time it did not
// move, or another seat's), and the front end's way back to the lobby.
func TestDeadTableNote(t *testing.T) {
	i18n.Set(i18n.English)
	rep := &table.Report{Next: &table.Next{Seat: 1}}
	if got := DeadTableNote(rep, 1, 150*time.Second, "leave"); !strings.Contains(got, "you did not move for 2 min") || !strings.HasSuffix(got, "(leave: the lobby and the standings).") {
		t.Fatalf("the player's move: %q", got)
	}
	if got := DeadTableNote(rep, 0, time.Second, "q"); !strings.Contains(got, "the seat it waited for stopped") || !strings.HasSuffix(got, "(q: the lobby and the standings).") {
		t.Fatalf("another seat's move: %q", got)
	}
	if got := IdleText(42 * time.Second); got != "42 s" {
		t.Fatalf("idle %q", got)
	}
}

// gatedMover is a Mover that moves once gate is closed.
type gatedMover struct {
	gate <-chan struct{}
	m    table.Mover
}

func (g gatedMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	<-g.gate
	return g.m.Move(h, v)
}
