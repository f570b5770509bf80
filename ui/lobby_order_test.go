package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestLobbyListsUnfinishedNewestFirst: the unfinished matches, LAN tables
// and matches against bots together, are listed the newest first.
func TestLobbyListsUnfinishedNewestFirst(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	g := NewGame(0, Options{Screen: scr})
	scr.SetSize(80, 24)
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	fl := &fakeLobby{changes: make(chan struct{}, 1),
		unfin: []LobbyTable{
			{ID: "lan-old", Ruleset: "german", Unfinished: true, Note: "oldest with mehmet", Started: now.Add(-3 * time.Hour)},
			{ID: "/m/local-1", Ruleset: "classic", Unfinished: true, Local: true, Note: "middle with bot1", Started: now.Add(-time.Hour)},
			{ID: "lan-new", Ruleset: "classic", Unfinished: true, Note: "newest with zeynep", Started: now},
			{ID: "/m/local-0", Ruleset: "classic", Unfinished: true, Local: true, Note: "older with bot2", Started: now.Add(-2 * time.Hour)},
		}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	s := waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "newest with zeynep") })
	last := -1
	// The lobby shows three at 80x24 and counts the rest.
	for _, note := range []string{"newest with zeynep", "middle with bot1", "older with bot2", "and 1 more"} {
		y, _ := find(strings.Split(s, "\n"), note)
		if y <= last {
			t.Fatalf("%q is not listed after the newer ones:\n%s", note, s)
		}
		last = y
	}
	g.Quit()
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the application did not stop")
	}
}
