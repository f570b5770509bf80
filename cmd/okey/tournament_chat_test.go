package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/ui"
)

// TestTournamentSittingChat: a tournament seat's Sitting.Chat (okey
// tournament's and the lobby's) follows the table's chat on the seat's
// screen and keeps it beside the table's transcript in the tournament
// folder (r<R>-t<T>.chat); without a chat (tests' transports) there is
// none.
func TestTournamentSittingChat(t *testing.T) {
	if sittingChat(nil, "dir", tournament.Ref{Round: 1}, nil) != nil {
		t.Fatal("a Chat without a tourChat")
	}
	g := ui.NewGame(0, ui.Options{})
	var gotPath string
	var gotGame chatFront
	stopped := false
	chat := func(_ table.Transport, _ table.Config, path string, on chatFront) func() {
		gotPath, gotGame = path, on
		return func() { stopped = true }
	}
	dir := filepath.Join("cups", "spring")
	stop := sittingChat(chat, dir, tournament.Ref{Round: 2, Table: 1}, g)(nil, table.Config{})
	if want := filepath.Join(dir, "r2-t1.chat"); gotPath != want || gotGame != g {
		t.Fatalf("chat kept at %q (on the seat's screen: %v), want %q", gotPath, gotGame == g, want)
	}
	stop()
	if !stopped {
		t.Fatal("stop did not stop the chat")
	}
	tp := &tournamentPerson{dir: dir, chat: chat, screens: ui.NewScreens(io.Discard)}
	st := tp.sit(tournament.Ref{Round: 1}, table.Config{}, 0)
	if st.Chat == nil {
		t.Fatal("okey tournament's seat has no chat")
	}
	st.Chat(nil, table.Config{})()
	if want := filepath.Join(dir, "r1-t0.chat"); gotPath != want {
		t.Fatalf("okey tournament keeps the chat at %q, want %q", gotPath, want)
	}
	lt := &lobbyTours{front: &termTours{g: g}, chat: chat}
	st = lt.sit(filepath.Join(dir, "r3-t0.transcript"), tournament.Ref{Round: 3}, 0)
	if st.Chat == nil {
		t.Fatal("the lobby's tournament seat has no chat")
	}
	st.Chat(nil, table.Config{})()
	if want := filepath.Join(dir, "r3-t0.chat"); gotPath != want || gotGame != g {
		t.Fatalf("the lobby keeps the chat at %q, want %q", gotPath, want)
	}
}
