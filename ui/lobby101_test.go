package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestLobbyCreates101: the create form offers Okey 101 (left of classic)
// and opens a 101 table with its options.
func TestLobbyCreates101(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &fakeLobby{changes: make(chan struct{}, 1)}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "you are ayse") })
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	key(tcell.KeyRune, 'c')
	waitScreen(t, g, scr, 5*time.Second, "the form", func(s string) bool { return strings.Contains(s, "open a table") })
	key(tcell.KeyLeft, 0) // classic -> 101
	waitScreen(t, g, scr, 5*time.Second, "101 in the form", func(s string) bool { return strings.Contains(s, "rules    < 101 >") })
	key(tcell.KeyTab, 0)
	for _, r := range "rounds=3" {
		key(tcell.KeyRune, r)
	}
	key(tcell.KeyEnter, 0)
	deadline := time.Now().Add(5 * time.Second)
	for {
		fl.mu.Lock()
		got := strings.Join(fl.calls, "; ")
		fl.mu.Unlock()
		if strings.Contains(got, "create 101:rounds=3 ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("calls %q, want a 101 table created", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	g.Quit()
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the lobby did not stop")
	}
}
