package netplay

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// TestRunBotPlaysAMatch: two headless bots over a mocknet meet at one
// table, play it, and each is told of its match once, with an honest
// outcome whose summary names the table and the transcript.
func TestRunBotPlaysAMatch(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 2, 3*time.Minute)
	var wg sync.WaitGroup
	status := make([]int, 2)
	errs := make([]error, 2)
	sums := make([][]MatchSummary, 2)
	for i, c := range clients {
		o := BotOptions{Matches: 1, Links: 50 * time.Millisecond,
			Mover: func(a lobby.Announcement) (table.Mover, error) { return bot.New("greedy", uint64(i)) },
			Play:  honestPlay(t.TempDir()),
			Seat:  SeatOptions{Ruleset: "turkish-rummy:rounds=1", Players: 2, Match: true, Settle: 300 * time.Millisecond},
			OnMatch: func(n int, a lobby.Announcement, o *Outcome) int {
				if n != len(sums[i])+1 {
					t.Errorf("bot %d: match %d told as %d", i, len(sums[i])+1, n)
				}
				st := int(o.Report.Status())
				sums[i] = append(sums[i], NewMatchSummary(a, o, st))
				return st
			}}
		wg.Go(func() { status[i], errs[i] = c.RunBot(ctx, o) })
	}
	wg.Wait()
	for i := range clients {
		if errs[i] != nil || status[i] != 0 {
			t.Fatalf("bot %d: status %d, %v", i, status[i], errs[i])
		}
		if len(sums[i]) != 1 {
			t.Fatalf("bot %d: told of %d matches, want 1", i, len(sums[i]))
		}
		s := sums[i][0]
		if s.Table != sums[0][0].Table || s.Players != 2 || s.Hands < 1 || s.Status != 0 || len(s.HandMS) == 0 || len(s.Applied) == 0 {
			t.Errorf("bot %d: summary %+v", i, s)
		}
		if _, err := os.Stat(s.Transcript); err != nil {
			t.Errorf("bot %d: %v", i, err)
		}
	}
	// The match is done: the data directory holds nothing to resume.
	if u, err := clients[0].Unfinished(); err != nil || len(u) != 0 {
		t.Fatalf("unfinished after the match: %d, %v", len(u), err)
	}
}

// TestRunBotNoTableInTime: a bot alone finds no table to start within its
// wait: ErrNoTableInTime (a table that could not form), and no match told.
func TestRunBotNoTableInTime(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 1, time.Minute)
	told := 0
	status, err := clients[0].RunBot(ctx, BotOptions{Matches: 1, Wait: 500 * time.Millisecond,
		Mover: func(lobby.Announcement) (table.Mover, error) { return bot.New("greedy", 0) },
		Seat:  SeatOptions{Ruleset: "classic", Players: 2, Settle: 100 * time.Millisecond},
		OnMatch: func(int, lobby.Announcement, *Outcome) int {
			told++
			return 0
		}})
	if !errors.Is(err, ErrNoTableInTime) || status != 0 || told != 0 {
		t.Fatalf("status %d, %v, %d matches told; want ErrNoTableInTime and none", status, err, told)
	}
}

// TestBotSummaryWrite: the summary file is JSON with the process's costs
// and an empty list, not null, when no match was played.
func TestBotSummaryWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.json")
	s := &BotSummary{Version: 1, Peer: "p", Name: "n", Status: 4}
	if err := s.Write(path, time.Now().Add(-time.Second), nil, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if ms, ok := m["matches"].([]any); !ok || len(ms) != 0 || m["status"] != float64(4) || m["wall_ms"].(float64) < 1000 {
		t.Fatalf("summary: %s", b)
	}
}
