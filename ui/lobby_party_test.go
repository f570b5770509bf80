package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
)

// TestLobbyManyTables (issue 26): a lobby of sixteen tables on an 80x24
// screen shows each table's players, ruleset, progress, privacy and
// spectators; the list scrolls to keep the cursor's table in view and says
// how many more there are.
func TestLobbyManyTables(t *testing.T) {
	i18n.Set(i18n.English)
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	var tables []LobbyTable
	for i := range 16 {
		lt := LobbyTable{ID: fmt.Sprintf("table%02d", i), Ruleset: "classic", Seats: 4, State: "open",
			Members: []LobbyMember{{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("host%02d", i), Ready: true}}}
		if i%2 == 1 {
			lt.State, lt.Hand, lt.Scores = "started", i, []int{i, -i, 0, 2 * i}
			for j := 1; j < 4; j++ {
				lt.Members = append(lt.Members, LobbyMember{ID: fmt.Sprintf("p%d-%d", i, j), Name: fmt.Sprintf("b%d", j), Ready: true})
			}
		}
		lt.Private = i%3 == 0
		lt.Spectators = i % 4
		tables = append(tables, lt)
	}
	fl := &fakeLobby{changes: make(chan struct{}, 1), tables: tables}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	waitScreen(t, g, scr, 5*time.Second, "the first tables and the more line", func(s string) bool {
		return strings.Contains(s, "table00") && strings.Contains(s, "host00*") && strings.Contains(s, "[invite code only]") &&
			strings.Contains(s, "table01") && strings.Contains(s, "[hand 1, scores 1 -1 0 2; 1+ watching]") &&
			strings.Contains(s, "more tables: up/down scrolls") && !strings.Contains(s, "table15")
	})
	for range 15 {
		scr.InjectKey(tcell.KeyDown, 0, tcell.ModNone)
	}
	waitScreen(t, g, scr, 5*time.Second, "the last table in view", func(s string) bool {
		return strings.Contains(s, "table15") && strings.Contains(s, "[hand 15, scores 15 -15 0 30; invite code only; 3+ watching]") &&
			!strings.Contains(s, "table00")
	})
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}
