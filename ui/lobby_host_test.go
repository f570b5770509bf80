package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// closerLobby is a fakeLobby whose player may close the tables it created.
type closerLobby struct {
	*fakeLobby
	closed []string
}

func (c *closerLobby) CloseTable(_ context.Context, id string) error {
	c.call("close " + id)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables = slices.DeleteFunc(slices.Clone(c.tables), func(t LobbyTable) bool { return t.ID == id })
	return nil
}

func (c *closerLobby) Closed(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Contains(c.closed, id)
}

func (c *closerLobby) calls() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.fakeLobby.calls, "; ")
}

// startHostLobby shows the lobby of a player who created table t2 (one
// other seated) and sits at t3, mehmet's, on a w x h simulation screen.
func startHostLobby(t *testing.T, w, h int) (*Game, tcell.SimulationScreen, *closerLobby) {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	g := NewGame(0, Options{Screen: scr})
	scr.SetSize(w, h)
	cl := &closerLobby{fakeLobby: &fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t2", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "me", Name: "ayse"}, {ID: "y", Name: "zeynep"}}},
		{ID: "t3", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "x", Name: "mehmet"}, {ID: "me", Name: "ayse"}}},
	}}}
	g.ShowLobby(cl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	t.Cleanup(func() {
		g.Quit()
		select {
		case <-ran:
		case <-time.After(10 * time.Second):
			t.Error("the lobby did not stop")
		}
	})
	waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "zeynep") })
	return g, scr, cl
}

// TestLobbyHostClosesOwnTable (issue 37 item 3): l on one's own open
// table asks, a second l closes it (and says so); c is refused, with the
// reason, while the player sits at a table; any other key forgets a first
// l.
func TestLobbyHostClosesOwnTable(t *testing.T) {
	g, scr, cl := startHostLobby(t, 80, 24)
	key := func(r rune) { scr.InjectKey(tcell.KeyRune, r, tcell.ModNone) }
	key('c')
	waitScreen(t, g, scr, 5*time.Second, "c refused", func(s string) bool {
		return strings.Contains(s, "you sit at the table t2: one table at a time") && !strings.Contains(s, "open a table")
	})
	// The cursor is on t2, the player's own table.
	key('l')
	waitScreen(t, g, scr, 5*time.Second, "the question", func(s string) bool {
		return strings.Contains(s, "l again closes your table t2")
	})
	key('r') // another key: the question is forgotten (r readies)
	waitScreen(t, g, scr, 5*time.Second, "ready", func(s string) bool { return strings.Contains(s, "done") })
	key('l')
	waitScreen(t, g, scr, 5*time.Second, "the question again", func(s string) bool {
		return strings.Contains(s, "l again closes your table t2")
	})
	if strings.Contains(cl.calls(), "close") {
		t.Fatalf("closed at the first l: %s", cl.calls())
	}
	key('l')
	waitScreen(t, g, scr, 5*time.Second, "closed", func(s string) bool {
		return strings.Contains(s, "closing t2: done") && !strings.Contains(s, "zeynep")
	})
	if got := cl.calls(); !strings.Contains(got, "close t2") || strings.Contains(got, "leave t2") {
		t.Fatalf("calls %s", got)
	}
}

// TestLobbyMemberToldTableClosed (issue 37 item 3): a table the player
// sat at that its creator closes is named, with its creator; one that is
// gone (expired) is told apart.
func TestLobbyMemberToldTableClosed(t *testing.T) {
	g, scr, cl := startHostLobby(t, 80, 24)
	cl.mu.Lock()
	cl.tables = cl.tables[:1]
	cl.closed = append(cl.closed, "t3")
	cl.mu.Unlock()
	cl.changes <- struct{}{}
	waitScreen(t, g, scr, 5*time.Second, "the closed table", func(s string) bool {
		return strings.Contains(s, "mehmet closed the table t3: you no longer sit at it")
	})
}

// TestLobbyHelp (issue 37 item 3): ? shows the lobby's keys in a panel
// that fits 80x24, 100x30 and 120x36; any key closes it.
func TestLobbyHelp(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 36}} {
		g, scr, _ := startHostLobby(t, sz[0], sz[1])
		scr.InjectKey(tcell.KeyRune, '?', tcell.ModNone)
		s := waitScreen(t, g, scr, 5*time.Second, "the help", func(s string) bool {
			return strings.Contains(s, "the lobby's keys") && strings.Contains(s, "any key closes this help")
		})
		for _, want := range []string{"open a table (one at a time)", "leave your table; your own: close it", "quit okey"} {
			if !strings.Contains(s, want) {
				t.Errorf("%dx%d: no %q in the help:\n%s", sz[0], sz[1], want, s)
			}
		}
		if testing.Verbose() {
			t.Logf("%dx%d:\n%s", sz[0], sz[1], s)
		}
		scr.InjectKey(tcell.KeyRune, 'c', tcell.ModNone) // closes the help, does nothing else
		waitScreen(t, g, scr, 5*time.Second, "the help closed", func(s string) bool {
			return !strings.Contains(s, "the lobby's keys") && !strings.Contains(s, "one table at a time")
		})
	}
}
