package participant

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// TestServiceCreateJoinPlay: a player's Service creates a tournament, a
// the others list it, join it and all play their parts (a bot at each
// seat given) to the end: each is told the part ended with the folder,
// whose records and transcripts check honest, and lists the tournament
// over with its final standings.
func TestServiceCreateJoinPlay(t *testing.T) {
	lane.NoRace(t) // a whole tournament
	bus := NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ended := make(chan string, 3)
	services := make([]*Service, 3)
	for i := range services {
		id := fmt.Sprintf("peer-%d", i)
		self := Self{Key: testKey(i), Data: t.TempDir(), Name: fmt.Sprintf("player %d", i), PeerID: id}
		services[i] = NewService(ctx, self, bus.Join(id), ServiceOptions{
			Sit: func(string, tournament.Ref, int) Sitting {
				return Sitting{Mover: bot.NewGreedy()}
			},
			TableNet: func(_ context.Context, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			// Each part lingers after its final standings (30 s) before
			// Ended: here 2 s. The three players sit at the one table, so
			// each holds the transcript and no part fetches from another;
			// the records stay on the bus (its history) when a part ends.
			linger: 2 * time.Second,
			Ended: func(dir string, err error) {
				if err != nil {
					t.Errorf("%s's part: %v", id, err)
				}
				ended <- dir
			}})
	}
	tid, err := services[0].Create(ctx, "cup", "classic:points=2", 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := services[0].Create(ctx, "cup", "classic:points=2", 1, 1); err == nil {
		t.Error("a tournament of one player was announced")
	}
	// The others hear of it, and join.
	for _, s := range services[1:] {
		for !slices.ContainsFunc(s.List(), func(e Entry) bool { return e.ID == tid && !e.Mine && !e.Run }) {
			select {
			case <-ctx.Done():
				t.Fatalf("a player never heard of the tournament: %+v", s.List())
			case <-time.After(20 * time.Millisecond):
			}
		}
		if err := s.Join(ctx, tid); err != nil {
			t.Fatal(err)
		}
	}
	for i := range services {
		select {
		case dir := <-ended:
			recs, matches, err := LoadFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			if rep := tournament.Check(recs, matches); rep.Status != 0 || rep.Final == nil {
				t.Fatalf("part %d's folder: status %d, final %v, problems %+v", i, rep.Status, rep.Final, rep.Problems)
			}
		case <-ctx.Done():
			t.Fatal("the parts did not end")
		}
	}
	for i, s := range services {
		l := s.List()
		k := slices.IndexFunc(l, func(e Entry) bool { return e.ID == tid })
		if k < 0 || !l[k].Mine || l[k].Playing || !l[k].Over || l[k].Report == nil || l[k].Round != 1 {
			t.Errorf("player %d lists %+v", i, l)
		}
		if u := s.Unended(); len(u) != 0 {
			t.Errorf("player %d: unended %q", i, u)
		}
	}
	cancel()
	for _, s := range services {
		s.Wait(time.Minute)
	}
}
