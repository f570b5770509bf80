package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
)

// relayLobby is an inviteLobby whose relays refused some of the player's
// tables.
type relayLobby struct {
	inviteLobby
	refused map[string][]string
}

func (f *relayLobby) RefusingRelays(table string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused[table]
}

// TestLobbyRelayRefused: when a relay refused the player's own private
// table, the lobby says so on screen, in one sentence with what to do, and
// the table's row and code box say that the code does not go through that
// relay (issue 36 item 2).
func TestLobbyRelayRefused(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	code := "okey1" + strings.Repeat("7Xq2", 30)
	fl := &relayLobby{inviteLobby: inviteLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t1", Ruleset: "classic", Seats: 4, State: "open", Private: true, Members: []LobbyMember{{ID: "me", Name: "ayse"}}},
	}}, code: code}, refused: map[string][]string{"t1": {"ab12cd34"}}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	sentence := words(relayRefusedText([]string{"ab12cd34"}))
	row := i18n.T("code not through relay %s", "ab12cd34")
	s := waitScreen(t, g, scr, 5*time.Second, "the relay's refusal", func(s string) bool {
		return strings.Contains(words(s), sentence) && strings.Contains(s, row)
	})
	if !strings.Contains(sentence, "--relay") {
		t.Errorf("the sentence does not say what to do: %q", sentence)
	}
	if !strings.Contains(strings.Join(strings.Fields(s), ""), code) {
		t.Errorf("the code is no longer shown whole:\n%s", s)
	}
	// A table no relay refused says nothing of relays.
	fl.mu.Lock()
	fl.refused = nil
	fl.mu.Unlock()
	fl.changes <- struct{}{}
	waitScreen(t, g, scr, 5*time.Second, "no refusal", func(s string) bool {
		return !strings.Contains(s, row) && !strings.Contains(words(s), sentence) && strings.Contains(s, "invite code of t1")
	})
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the lobby did not quit")
	}
}

// noAddrLobby is a fakeLobby with no address others can reach.
type noAddrLobby struct{ fakeLobby }

func (f *noAddrLobby) Self() (string, string, []string) { return "ayse", "me", nil }

// TestLobbyNoReachableAddress: with no reachable address the lobby says
// there is none and what to do, where it showed the address (issue 36
// item 7).
func TestLobbyNoReachableAddress(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &noAddrLobby{fakeLobby{changes: make(chan struct{}, 1)}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	none := words(i18n.T("no address reaches you with --peer: send an invite code, or use --relay LINE"))
	waitScreen(t, g, scr, 5*time.Second, "no address", func(s string) bool { return strings.Contains(words(s), none) })
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the lobby did not quit")
	}
}
