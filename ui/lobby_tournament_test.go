package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// fakeTourLobby is a fakeLobby with tournaments: JoinTournament records the
// call and marks the player registered, as package tourney's board then
// lists it.
type fakeTourLobby struct {
	fakeLobby
	tours []LobbyTournament
	tch   chan struct{}
}

func (f *fakeTourLobby) Tournaments() []LobbyTournament {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.tours)
}
func (f *fakeTourLobby) TournamentChanges() <-chan struct{} { return f.tch }
func (f *fakeTourLobby) JoinTournament(_ context.Context, id string) error {
	f.call("tournament " + id)
	f.mu.Lock()
	for i, t := range f.tours {
		if t.ID == id {
			t.Mine, t.Registered = true, t.Registered+1
			f.tours[i] = t
		}
	}
	f.mu.Unlock()
	return nil
}

func (f *fakeTourLobby) callsText() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.calls, "; ")
}

// TestLobbyTournaments: the lobby lists the announced tournaments in their
// own section, apart from the tables; j on a registering one registers the
// player (JoinTournament) and the row then says so; j on one under way or
// full is refused with the reason and calls nothing; a tournament heard
// later shows on the next change; the table below stays joinable.
func TestLobbyTournaments(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &fakeTourLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t1", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "x", Name: "mehmet"}}},
	}}, tch: make(chan struct{}, 1), tours: []LobbyTournament{
		{ID: "aa", Name: "spring cup", Ruleset: "classic:points=2", Rounds: 3, Registered: 2, Players: 4},
		{ID: "bb", Name: "winter cup", Ruleset: "classic", Rounds: 2, Registered: 4, Players: 4, Round: 2},
		{ID: "cc", Name: "full cup", Ruleset: "classic", Rounds: 2, Registered: 4, Players: 4},
	}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	waitScreen(t, g, scr, 5*time.Second, "the tournaments", func(s string) bool {
		return strings.Contains(s, "tournaments (j: register and play)") && strings.Contains(s, "spring cup") &&
			strings.Contains(s, "2/4") && strings.Contains(s, "registering, 3 rounds") && strings.Contains(s, "round 2 of 2") &&
			strings.Contains(s, "mehmet") && strings.Contains(s, "j register and play")
	})
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	key(tcell.KeyRune, 'j')
	waitScreen(t, g, scr, 5*time.Second, "the registration", func(s string) bool {
		return strings.Contains(s, "registering in spring cup: done") && strings.Contains(s, "3/4") && strings.Contains(s, "you play")
	})
	if got := fl.callsText(); got != "tournament aa" {
		t.Fatalf("calls %q", got)
	}
	key(tcell.KeyDown, 0)
	key(tcell.KeyRune, 'j')
	waitScreen(t, g, scr, 5*time.Second, "the refusal", func(s string) bool { return strings.Contains(s, "winter cup is under way: registration is closed") })
	key(tcell.KeyDown, 0)
	key(tcell.KeyEnter, 0)
	waitScreen(t, g, scr, 5*time.Second, "the full one", func(s string) bool { return strings.Contains(s, "full cup is full") })
	if got := fl.callsText(); got != "tournament aa" {
		t.Fatalf("calls %q after two refusals", got)
	}
	// A tournament heard later.
	fl.mu.Lock()
	fl.tours = append(fl.tours, LobbyTournament{ID: "dd", Name: "autumn cup", Ruleset: "101", Rounds: 1, Registered: 1, Players: 3})
	fl.mu.Unlock()
	fl.tch <- struct{}{}
	waitScreen(t, g, scr, 5*time.Second, "the new tournament", func(s string) bool {
		return strings.Contains(s, "1 more tournament: up/down scrolls") || strings.Contains(s, "autumn cup")
	})
	// The table below the tournaments: j joins it.
	for range 4 {
		key(tcell.KeyDown, 0)
	}
	key(tcell.KeyRune, 'j')
	waitScreen(t, g, scr, 5*time.Second, "the table's join", func(s string) bool { return strings.Contains(s, "joining t1: done") })
	key(tcell.KeyRune, 'q')
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}

// TestSitTableFromLobby: a match seated from the lobby (SitTable) takes the
// screen; leaving it during the match (q, y) closes its channel, so the
// seat's moves fail with ErrQuit, and shows the lobby again instead of
// ending the program.
func TestSitTableFromLobby(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &fakeTourLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1)}, tch: make(chan struct{}, 1)}
	lv := g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "okey lobby") })
	back := make(chan struct{}, 1)
	left := g.SitTable(1, "come back later.", func() { back <- struct{}{}; g.ShowLobbyAgain(lv) })
	moved := make(chan error, 1)
	go func() { _, err := g.Move(nil, nil); moved <- err }()
	waitScreen(t, g, scr, 5*time.Second, "the table", func(s string) bool { return !strings.Contains(s, "okey lobby") })
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	key(tcell.KeyRune, 'q')
	waitScreen(t, g, scr, 5*time.Second, "the leave question", func(s string) bool { return strings.Contains(s, "come back later.") })
	key(tcell.KeyRune, 'y')
	select {
	case <-left:
	case <-time.After(5 * time.Second):
		t.Fatal("leaving the table did not close its channel")
	}
	select {
	case err := <-moved:
		if err != ErrQuit {
			t.Fatalf("the pending move: %v, want ErrQuit", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the pending move did not end")
	}
	<-back
	waitScreen(t, g, scr, 5*time.Second, "the lobby again", func(s string) bool { return strings.Contains(s, "okey lobby") })
	select {
	case <-ran:
		t.Fatal("leaving the table ended the program")
	default:
	}
	key(tcell.KeyRune, 'q')
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}

// fakeTourCreator is a fakeTourLobby that announces tournaments.
type fakeTourCreator struct{ fakeTourLobby }

func (f *fakeTourCreator) CreateTournament(_ context.Context, name, ruleset string, players, rounds int) (string, error) {
	f.call(fmt.Sprintf("announce %q %s %d %d", name, ruleset, players, rounds))
	return "ee", nil
}

// TestLobbyTournamentForm: with no tournament on the LAN the lobby says t
// announces one; t opens the form, whose name, players (5 skipped), rounds,
// rules and options reach CreateTournament; a bad option and an empty name
// are refused in the form, calling nothing.
func TestLobbyTournamentForm(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &fakeTourCreator{fakeTourLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1)}, tch: make(chan struct{}, 1)}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	waitScreen(t, g, scr, 5*time.Second, "the hint", func(s string) bool { return strings.Contains(s, "no tournaments on the LAN: t announces one") })
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	typ := func(s string) {
		for _, r := range s {
			key(tcell.KeyRune, r)
		}
	}
	key(tcell.KeyRune, 't')
	waitScreen(t, g, scr, 5*time.Second, "the form", func(s string) bool { return strings.Contains(s, "announce a tournament") })
	for range len("tournament") {
		key(tcell.KeyBackspace2, 0)
	}
	key(tcell.KeyEnter, 0)
	waitScreen(t, g, scr, 5*time.Second, "the empty name", func(s string) bool { return strings.Contains(s, "give the tournament a name") })
	typ("yaz kupası")
	key(tcell.KeyTab, 0)
	key(tcell.KeyLeft, 0)
	key(tcell.KeyLeft, 0)
	key(tcell.KeyLeft, 0)
	key(tcell.KeyLeft, 0) // 8 -> 7 -> 6 -> 4 (no 5) -> 3
	key(tcell.KeyRight, 0)
	key(tcell.KeyTab, 0)
	key(tcell.KeyLeft, 0) // 3 -> 2 rounds
	key(tcell.KeyTab, 0)
	key(tcell.KeyTab, 0)
	typ(",x")
	key(tcell.KeyEnter, 0)
	waitScreen(t, g, scr, 5*time.Second, "the bad option", func(s string) bool { return strings.Contains(s, `option "x"`) })
	key(tcell.KeyBackspace2, 0)
	key(tcell.KeyBackspace2, 0)
	key(tcell.KeyEnter, 0)
	waitScreen(t, g, scr, 5*time.Second, "the announcement", func(s string) bool { return strings.Contains(s, "announcing yaz kupası: done") })
	if got := fl.callsText(); got != `announce "yaz kupası" classic:points=2 4 2` {
		t.Fatalf("calls %q", got)
	}
	key(tcell.KeyRune, 'q')
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}
