package participant

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// TestSittingChat: a seated player's Sitting.Chat is called with its
// table's transport and config as the seat sits, and what it returns once
// the match is over; a chat file kept beside the transcript (ChatName)
// leaves the folder's check as it was (LoadFolder never reads it).
func TestSittingChat(t *testing.T) {
	lane.NoRace(t)
	var (
		mu      sync.Mutex
		called  []tournament.Ref
		stopped int
		seats   [][]table.PeerID
		nilTr   bool
	)
	_, dirs, errs := runLocal(t, 3, "swiss:rounds=1", "classic:points=2", func(i int, c *Config) {
		if i != 0 {
			return
		}
		dir := c.Dir
		c.Sit = func(ref tournament.Ref, _ table.Config, _ int) Sitting {
			return Sitting{Mover: bot.NewGreedy(), Chat: func(tr table.Transport, cfg table.Config) func() {
				mu.Lock()
				defer mu.Unlock()
				called = append(called, ref)
				nilTr = nilTr || tr == nil
				var ids []table.PeerID
				for _, s := range cfg.Seats {
					ids = append(ids, s.ID)
				}
				seats = append(seats, ids)
				if err := os.WriteFile(filepath.Join(dir, ChatName(ref)), []byte("okey chat\nnot a transcript"), 0o644); err != nil {
					t.Error(err)
				}
				return func() {
					mu.Lock()
					defer mu.Unlock()
					stopped++
				}
			}}
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("participant %d: %v", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(called) != 1 || called[0] != (tournament.Ref{Round: 1, Table: 0}) || nilTr {
		t.Fatalf("Chat called for %v (a nil transport: %v), want once for round 1's table", called, nilTr)
	}
	if !slices.Contains(seats[0], table.PeerID("peer-0")) || len(seats[0]) != 3 {
		t.Fatalf("Chat's config has the seats %v", seats[0])
	}
	if stopped != 1 {
		t.Fatalf("the chat was stopped %d times, want once when the match is over", stopped)
	}
	if _, err := os.Stat(filepath.Join(dirs[0], ChatName(tournament.Ref{Round: 1}))); err != nil {
		t.Fatal(err)
	}
	recs, matches, err := LoadFolder(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if rep := tournament.Check(recs, matches); rep.Status != tournament.StatusHonest || rep.Final == nil {
		t.Fatalf("the folder with a chat file: status %d, problems %+v", rep.Status, rep.Problems)
	}
}
