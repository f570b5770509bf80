package tourney

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

func testKey(i int) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(fmt.Sprintf("tourney test %d", i)))
	return ed25519.NewKeyFromSeed(seed[:])
}

// runLocal runs a tournament of n bots in one process; player 0 creates.
func runLocal(t *testing.T, n int, format, ruleset string) ([]*tournament.Report, []string) {
	t.Helper()
	bus := NewMemBus()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	base := t.TempDir()
	reps := make([]*tournament.Report, n)
	errs := make([]error, n)
	dirs := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("peer-%d", i)
		dirs[i] = filepath.Join(base, id)
		c := Config{Dir: dirs[i], Key: testKey(i), Name: fmt.Sprintf("bot%d", i), PeerID: id, Net: bus.Join(id),
			Mover:    func(int) table.Mover { return bot.NewGreedy() },
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) { return bus.TableNet(id, cfg), nil },
			Withhold: 60 * time.Second, Retry: 200 * time.Millisecond}
		if i == 0 {
			c.Create = &Create{Name: "cup", Format: format, Ruleset: ruleset, Players: n}
		}
		p, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = p.Run(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			if reps[i] != nil {
				t.Logf("participant %d: rounds %d problems %+v", i, len(reps[i].Rounds), reps[i].Problems)
			}
			t.Fatalf("participant %d: %v", i, err)
		}
	}
	return reps, dirs
}

// TestSmallTournament: 4 bots, 2 rounds of classic:points=2 matches, in
// one process; every participant ends with the same honest standings and a
// folder holding every transcript.
func TestSmallTournament(t *testing.T) {
	if raceOn {
		t.Skip("too slow under the race detector: make test runs it without (go test -run SmallTournament ./tourney/)")
	}
	start := time.Now()
	reps, dirs := runLocal(t, 4, "swiss:rounds=2", "classic:points=2")
	t.Logf("4 players, 2 rounds: %v", time.Since(start).Round(time.Millisecond))
	for i, rep := range reps {
		if rep.Status != tournament.StatusHonest || len(rep.Final) != 4 {
			t.Fatalf("participant %d: status %d final %v problems %+v", i, rep.Status, rep.Final, rep.Problems)
		}
		if fmt.Sprint(rep.Final) != fmt.Sprint(reps[0].Final) {
			t.Fatalf("participant %d's standings differ", i)
		}
		for r := 1; r <= 2; r++ {
			if _, err := os.Stat(filepath.Join(dirs[i], TranscriptName(tournament.Ref{Round: r, Table: 0}))); err != nil {
				t.Fatalf("participant %d lacks round %d's transcript", i, r)
			}
		}
		a, _ := os.ReadFile(filepath.Join(dirs[i], "tournament"))
		if recs, err := tournament.DecodeFile(a); err != nil || len(recs) != 1+4+1+2*4*2 {
			t.Fatalf("participant %d: %d records, %v", i, len(recs), err)
		}
	}
}
