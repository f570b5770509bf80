package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

type fakeLobby struct {
	mu      sync.Mutex
	tables  []LobbyTable
	unfin   []LobbyTable
	calls   []string
	changes chan struct{}
	// seatOnCreate: Create lists the new table t2 with the player seated,
	// as package lan does.
	seatOnCreate bool
}

func (f *fakeLobby) Self() (string, string, []string) {
	return "ayse", "me", []string{"/ip4/127.0.0.1/tcp/1/p2p/me"}
}
func (f *fakeLobby) Tables() []LobbyTable {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]LobbyTable(nil), f.tables...)
}
func (f *fakeLobby) Changes() <-chan struct{} { return f.changes }
func (f *fakeLobby) Unfinished() []LobbyTable {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]LobbyTable(nil), f.unfin...)
}
func (f *fakeLobby) call(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}
func (f *fakeLobby) Create(_ context.Context, rs string, players, bots int, level string) (string, error) {
	f.call("create " + rs + " " + string(rune('0'+players)) + " " + string(rune('0'+bots)) + " " + level)
	if f.seatOnCreate {
		f.mu.Lock()
		f.tables = append(f.tables, LobbyTable{ID: "t2", Ruleset: rs, Seats: players, State: "open",
			Members: []LobbyMember{{ID: "me", Name: "ayse"}}})
		f.mu.Unlock()
	}
	return "t2", nil
}

// Join seats the player at table id, as package lan does.
func (f *fakeLobby) Join(_ context.Context, id string) error {
	f.call("join " + id)
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, t := range f.tables {
		if t.ID == id {
			t.Members = append(slices.Clone(t.Members), LobbyMember{ID: "me", Name: "ayse"})
			f.tables = slices.Clone(f.tables)
			f.tables[i] = t
		}
	}
	return nil
}

// Leave frees the player's seat at table id, as package lan does.
func (f *fakeLobby) Leave(_ context.Context, id string) error {
	f.call("leave " + id)
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, t := range f.tables {
		if t.ID == id {
			t.Members = slices.DeleteFunc(slices.Clone(t.Members), func(m LobbyMember) bool { return m.ID == "me" })
			f.tables = slices.Clone(f.tables)
			f.tables[i] = t
		}
	}
	return nil
}
func (f *fakeLobby) SetReady(_ context.Context, id string, r bool) error {
	if r {
		f.call("ready " + id)
	} else {
		f.call("unready " + id)
	}
	return nil
}

func TestLobby(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t1", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "x", Name: "mehmet", Ready: true}}},
	}}
	started := make(chan LobbyTable, 1)
	g.ShowLobby(fl, func(lt LobbyTable) { started <- lt })
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool {
		return strings.Contains(s, "you are ayse") && strings.Contains(s, "mehmet*")
	})
	waitCalls := func(want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			fl.mu.Lock()
			got := strings.Join(fl.calls, "; ")
			fl.mu.Unlock()
			if strings.Contains(got, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("calls %q, want %q", got, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	key(tcell.KeyRune, 'j')
	waitCalls("join t1")
	waitScreen(t, g, scr, 5*time.Second, "the join", func(s string) bool { return strings.Contains(s, "joining t1: done") })
	key(tcell.KeyRune, 'r')
	waitCalls("ready t1")
	waitScreen(t, g, scr, 5*time.Second, "ready", func(s string) bool { return strings.Contains(s, ": done") && strings.Contains(s, "ready") })
	// One table at a time (issue 37 item 3): leave t1 to open another.
	key(tcell.KeyRune, 'l')
	waitCalls("leave t1")
	waitScreen(t, g, scr, 5*time.Second, "the leave", func(s string) bool { return strings.Contains(s, "leaving t1: done") })
	// Open a table: german, rounds=2 option, 3 players, 2 bots.
	key(tcell.KeyRune, 'c')
	waitScreen(t, g, scr, 5*time.Second, "the form", func(s string) bool { return strings.Contains(s, "open a table") })
	key(tcell.KeyRight, 0)
	key(tcell.KeyRight, 0) // classic -> turkish-rummy -> german
	key(tcell.KeyTab, 0)
	for _, r := range "rounds=2" {
		key(tcell.KeyRune, r)
	}
	key(tcell.KeyTab, 0)
	key(tcell.KeyLeft, 0) // 4 -> 3 players, so at most 2 bots (of 3)
	key(tcell.KeyTab, 0)
	key(tcell.KeyTab, 0)
	key(tcell.KeyTab, 0) // bots, timer, level: hard -> learned
	waitScreen(t, g, scr, 5*time.Second, "the level field", func(s string) bool { return strings.Contains(s, "level    < hard (expert) >") })
	key(tcell.KeyLeft, 0)
	key(tcell.KeyEnter, 0)
	waitCalls("create german:rounds=2 3 2 learned")
	// Its result shows (and would overwrite a later message).
	waitScreen(t, g, scr, 5*time.Second, "the creation", func(s string) bool { return strings.Contains(s, "creating a table: done") })
	// A bad option is refused in the form.
	key(tcell.KeyRune, 'c')
	key(tcell.KeyTab, 0)
	key(tcell.KeyRune, 'x')
	key(tcell.KeyEnter, 0)
	waitScreen(t, g, scr, 5*time.Second, "the refusal", func(s string) bool { return strings.Contains(s, `option "x"`) })
	key(tcell.KeyEscape, 0)
	// The table the player sits at (again) starts: the lobby hands it over.
	fl.mu.Lock()
	fl.tables = []LobbyTable{{ID: "t1", Ruleset: "classic", Seats: 2, State: "started",
		Members: []LobbyMember{{ID: "x", Name: "mehmet", Ready: true}, {ID: "me", Name: "ayse", Ready: true}}}}
	fl.mu.Unlock()
	fl.changes <- struct{}{}
	select {
	case lt := <-started:
		if lt.ID != "t1" {
			t.Fatalf("started %+v", lt)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the started table was not handed over")
	}
	key(tcell.KeyRune, 'q')
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}

// TestLobbyResumeAndTimer: the lobby lists the unfinished matches above the
// tables and resumes the one chosen; the create form's timer field becomes
// the ruleset option timer=S.
func TestLobbyResumeAndTimer(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	g := NewGame(0, Options{Screen: scr})
	scr.SetSize(80, 24)
	fl := &fakeLobby{changes: make(chan struct{}, 1),
		tables: []LobbyTable{{ID: "t1", Ruleset: "classic", Seats: 4, State: "open"}},
		unfin: []LobbyTable{
			{ID: "lan1", Ruleset: "german", Unfinished: true, Note: "with mehmet, zeynep"},
			{ID: "/data/matches/local-1", Ruleset: "classic", Unfinished: true, Local: true, Note: "with bot1"},
		}}
	started := make(chan LobbyTable, 2)
	lv := g.ShowLobby(fl, func(lt LobbyTable) { started <- lt })
	lv.SetDefaultTimer(30)
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	s := waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool {
		return strings.Contains(s, "unfinished matches") && strings.Contains(s, "with mehmet, zeynep")
	})
	for _, want := range []string{"LAN", "vs bots", "with bot1", "t1"} {
		if !strings.Contains(s, want) {
			t.Errorf("the lobby lacks %q:\n%s", want, s)
		}
	}
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	// The second row: the match against bots.
	key(tcell.KeyDown, 0)
	key(tcell.KeyEnter, 0)
	select {
	case lt := <-started:
		if !lt.Unfinished || !lt.Local || lt.ID != "/data/matches/local-1" {
			t.Fatalf("resumed %+v", lt)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("enter on an unfinished match did not resume it")
	}
	// It is no longer offered; the cursor is on the LAN match.
	waitScreen(t, g, scr, 5*time.Second, "the list without it", func(s string) bool { return !strings.Contains(s, "with bot1") })
	key(tcell.KeyUp, 0)
	key(tcell.KeyRune, 'l')
	waitScreen(t, g, scr, 5*time.Second, "the refusal", func(s string) bool { return strings.Contains(s, "enter resumes it") })
	// Create with the default timer (30 s), moved up one step to 45 s.
	key(tcell.KeyRune, 'c')
	waitScreen(t, g, scr, 5*time.Second, "the form", func(s string) bool { return strings.Contains(s, "timer    < 30 s >") })
	for i := 0; i < 4; i++ {
		key(tcell.KeyTab, 0)
	}
	key(tcell.KeyRight, 0)
	waitScreen(t, g, scr, 5*time.Second, "45 s", func(s string) bool { return strings.Contains(s, "< 45 s >") })
	key(tcell.KeyEnter, 0)
	deadline := time.Now().Add(5 * time.Second)
	for {
		fl.mu.Lock()
		got := strings.Join(fl.calls, "; ")
		fl.mu.Unlock()
		if strings.Contains(got, "create classic:timer=45 4 3") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("calls %q, want a create with timer=45", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	key(tcell.KeyRune, 'q')
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}

// TestLobbyReadyAtMyTable: r readies the player at the table they sit at,
// wherever the cursor is (an unfinished match's row above the tables
// included); creating a table selects it and says that everyone presses r.
func TestLobbyReadyAtMyTable(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &fakeLobby{changes: make(chan struct{}, 1), seatOnCreate: true,
		tables: []LobbyTable{{ID: "t1", Ruleset: "classic", Seats: 4, State: "open",
			Members: []LobbyMember{{ID: "x", Name: "mehmet"}}}},
		unfin: []LobbyTable{
			{ID: "lan1", Ruleset: "german", Unfinished: true, Note: "with mehmet, zeynep"},
			{ID: "/data/matches/local-1", Ruleset: "classic", Unfinished: true, Local: true, Note: "with bot1"},
		}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "with mehmet, zeynep") })
	calls := func() string {
		fl.mu.Lock()
		defer fl.mu.Unlock()
		return strings.Join(fl.calls, "; ")
	}
	waitCalls := func(want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(calls(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("calls %q, want %q", calls(), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	// Sitting nowhere, r says so (the cursor is on an unfinished match).
	key(tcell.KeyRune, 'r')
	waitScreen(t, g, scr, 5*time.Second, "the refusal", func(s string) bool { return strings.Contains(s, "enter resumes it") })
	key(tcell.KeyDown, 0)
	key(tcell.KeyDown, 0) // t1, where the player does not sit
	key(tcell.KeyRune, 'r')
	waitScreen(t, g, scr, 5*time.Second, "the refusal on t1", func(s string) bool { return strings.Contains(s, "you sit at no table") })
	// Create a table: it is selected, and the message says how it starts.
	key(tcell.KeyRune, 'c')
	waitScreen(t, g, scr, 5*time.Second, "the form", func(s string) bool { return strings.Contains(s, "open a table") })
	key(tcell.KeyEnter, 0)
	waitCalls("create classic 4 3")
	waitScreen(t, g, scr, 5*time.Second, "the creation", func(s string) bool {
		return strings.Contains(s, "creating a table: done; everyone at the table presses r when ready, you too")
	})
	key(tcell.KeyRune, 'r')
	waitCalls("ready t2")
	// With the cursor back on an unfinished match's row, r still readies
	// (here: unreadies) the player at t2.
	fl.mu.Lock()
	fl.tables = []LobbyTable{fl.tables[0], {ID: "t2", Ruleset: "classic", Seats: 4, State: "open",
		Members: []LobbyMember{{ID: "me", Name: "ayse", Ready: true}}}}
	fl.mu.Unlock()
	fl.changes <- struct{}{}
	waitScreen(t, g, scr, 5*time.Second, "ready at t2", func(s string) bool { return strings.Contains(s, "ayse (you)*") })
	key(tcell.KeyHome, 0)
	key(tcell.KeyUp, 0)
	key(tcell.KeyUp, 0)
	key(tcell.KeyUp, 0)
	key(tcell.KeyRune, 'r')
	waitCalls("unready t2")
	if strings.Contains(calls(), "lan1") || strings.Contains(calls(), "t1") {
		t.Fatalf("r acted on a table the player does not sit at: %s", calls())
	}
	key(tcell.KeyRune, 'q')
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}

// dropLobby is a fakeLobby that drops the matches against bots.
type dropLobby struct {
	fakeLobby
}

func (f *dropLobby) Drop(t LobbyTable) error {
	if !t.Local {
		return errors.New("a LAN match cannot be dropped: its players may resume it")
	}
	f.call("drop " + t.ID)
	return nil
}

// TestLobbyDropsAnUnfinishedMatch (issue 24 §15): x twice on an unfinished
// match drops it (a first x only asks; any other key in between forgets
// it); a refusal says why and keeps the match listed.
func TestLobbyDropsAnUnfinishedMatch(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &dropLobby{fakeLobby{changes: make(chan struct{}, 1),
		unfin: []LobbyTable{
			{ID: "lan1", Ruleset: "german", Unfinished: true, Note: "with mehmet, zeynep"},
			{ID: "/data/matches/local-1", Ruleset: "classic", Unfinished: true, Local: true, Note: "with bot1"},
		}}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "x: drop") })
	key(tcell.KeyRune, 'x')
	key(tcell.KeyRune, 'x')
	waitScreen(t, g, scr, 5*time.Second, "the refusal", func(s string) bool { return strings.Contains(s, "not dropped: a LAN match") })
	key(tcell.KeyDown, 0)
	key(tcell.KeyRune, 'x')
	key(tcell.KeyDown, 0) // the last row still; forgets the first x
	key(tcell.KeyRune, 'x')
	waitScreen(t, g, scr, 5*time.Second, "the question", func(s string) bool { return strings.Contains(s, "x again drops it") })
	fl.mu.Lock()
	calls := strings.Join(fl.calls, "; ")
	fl.mu.Unlock()
	if calls != "" {
		t.Fatalf("dropped before the second x: %s", calls)
	}
	key(tcell.KeyRune, 'x')
	s := waitScreen(t, g, scr, 5*time.Second, "the drop", func(s string) bool { return strings.Contains(s, "dropped: classic with bot1") })
	if strings.Contains(s, "vs bots") || !strings.Contains(s, "with mehmet, zeynep") {
		t.Fatalf("the list after the drop:\n%s", s)
	}
	fl.mu.Lock()
	calls = strings.Join(fl.calls, "; ")
	fl.mu.Unlock()
	if calls != "drop /data/matches/local-1" {
		t.Fatalf("calls %q", calls)
	}
	key(tcell.KeyRune, 'q')
	<-ran
}
