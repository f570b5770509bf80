package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// watchingLobby is a fake lobby that can watch: Watch shows the
// spectator's screen, waits for q, and goes back to the lobby.
type watchingLobby struct {
	fakeLobby
	g       *Game
	watched chan string
}

func (w *watchingLobby) Watch(t LobbyTable, back *LobbyView) {
	left := make(chan struct{})
	_, end, toLobby := w.g.ShowWatch([]string{"mehmet", "ali"}, t.Ruleset, func() { close(left) })
	w.watched <- t.ID
	end(WatchEnd{Why: "the table stopped"})
	<-left
	toLobby(back)
}

// TestLobbyWatchKey: w on a started table the player does not sit at
// shows the spectator's screen, q there goes back to the lobby; w on an
// open table, on a table the player sits at, or on a private table (its
// seats admit the holders of its code only), says why not.
func TestLobbyWatchKey(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &watchingLobby{g: g, watched: make(chan string, 1), fakeLobby: fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t1", Ruleset: "classic", Seats: 2, State: "open", Members: []LobbyMember{{ID: "x", Name: "mehmet"}}},
		{ID: "t2", Ruleset: "classic", Seats: 2, State: "started", Members: []LobbyMember{{ID: "x", Name: "mehmet"}, {ID: "y", Name: "ali"}}},
		{ID: "t3", Ruleset: "classic", Seats: 2, State: "started", Members: []LobbyMember{{ID: "me", Name: "ayse"}, {ID: "y", Name: "ali"}}},
		{ID: "t4", Ruleset: "classic", Seats: 2, State: "started", Private: true, Members: []LobbyMember{{ID: "x", Name: "mehmet"}, {ID: "y", Name: "ali"}}},
	}}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "you are ayse") })
	key(tcell.KeyRune, 'w') // t1: open
	waitScreen(t, g, scr, 5*time.Second, "w on an open table", func(s string) bool { return strings.Contains(s, "w watches a started table") })
	key(tcell.KeyDown, 0)
	key(tcell.KeyDown, 0)
	key(tcell.KeyRune, 'w') // t3: the player's own
	waitScreen(t, g, scr, 5*time.Second, "w on the player's table", func(s string) bool { return strings.Contains(s, "you sit at that table") })
	key(tcell.KeyUp, 0)
	waitScreen(t, g, scr, 5*time.Second, "the key bar on a table to watch", func(s string) bool { return strings.Contains(s, "w watch  c create") })
	key(tcell.KeyRune, 'w') // t2
	select {
	case id := <-fl.watched:
		if id != "t2" {
			t.Fatalf("watched %s, want t2", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("w on a started table did not watch it")
	}
	waitScreen(t, g, scr, 5*time.Second, "the spectator's screen", func(s string) bool {
		return strings.Contains(s, "okey watch") && strings.Contains(s, "the table stopped")
	})
	key(tcell.KeyRune, 'q')
	waitScreen(t, g, scr, 5*time.Second, "back in the lobby", func(s string) bool { return strings.Contains(s, "you are ayse") })
	key(tcell.KeyDown, 0)
	key(tcell.KeyDown, 0)
	key(tcell.KeyRune, 'w') // t4: private, watched by its invite code only
	waitScreen(t, g, scr, 5*time.Second, "w on a private table", func(s string) bool { return strings.Contains(s, "okey watch --code CODE") })
	select {
	case id := <-fl.watched:
		t.Fatalf("w on a private table watched %s", id)
	default:
	}
	g.Quit()
	<-ran
}
