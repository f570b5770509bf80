package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
)

// TestMatchEndBackToLobby (issue 37 item 4): at a table the lobby started,
// q on the match's end panel goes back to the lobby, which says q quits
// there; the program ends only at the lobby's q.
func TestMatchEndBackToLobby(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 36}} {
		scr := tcell.NewSimulationScreen("UTF-8")
		if err := scr.Init(); err != nil {
			t.Fatal(err)
		}
		g := NewGame(0, Options{Screen: scr})
		scr.SetSize(sz[0], sz[1])
		fl := &fakeLobby{changes: make(chan struct{}, 1)}
		lv := g.ShowLobby(fl, func(LobbyTable) {})
		ran := make(chan error, 1)
		go func() { ran <- g.Run() }()
		waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "okey lobby") })
		// A match the lobby started, over.
		g.FreshTable(0, func() { g.ShowLobbyAgain(lv); lv.Say("back in the lobby after the match: q quits okey") })
		g.ShowTable()
		g.Finish(&MatchEnd{Verdict: "verified: honest", Ranking: []engine.Standing{{Seat: 0, Place: 1, Score: 3}, {Seat: 1, Place: 2, Score: -1}}})
		s := waitScreen(t, g, scr, 5*time.Second, "the end panel", func(s string) bool {
			return strings.Contains(s, "the match is over") && strings.Contains(s, "q: back to the lobby (q there quits okey)")
		})
		if testing.Verbose() {
			t.Logf("%dx%d:\n%s", sz[0], sz[1], s)
		}
		scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
		waitScreen(t, g, scr, 5*time.Second, "the lobby again", func(s string) bool {
			return strings.Contains(s, "okey lobby") && strings.Contains(s, "q quits okey")
		})
		select {
		case <-ran:
			t.Fatal("q on the end panel ended the program")
		default:
		}
		scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
		select {
		case <-ran:
		case <-time.After(10 * time.Second):
			t.Fatal("q in the lobby did not end the program")
		}
	}
}
