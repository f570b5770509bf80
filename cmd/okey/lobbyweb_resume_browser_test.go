package main

import (
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// leavingGame is a web table whose player leaves after n steps (a match
// left unfinished, to resume).
type leavingGame struct {
	*web.Game
	n     int32
	steps atomic.Int32
}

func (g *leavingGame) OnStep(mc *table.Machine, v *engine.View) {
	g.Game.OnStep(mc, v)
	if g.steps.Add(1) == g.n {
		g.Quit()
	}
}

// TestWebLobbyResumeAndWatch: the web lobby (okey play --web) lists a
// match against bots left unfinished on this computer; its resume button
// takes the page to that match's table, whose leave saves it again and
// brings the page back to the lobby listing it; drop, clicked twice,
// moves it aside. Then a terminal seat on the LAN (loopback libp2p) opens
// a public table with a house bot and plays it: the web lobby offers to
// watch it, the watch button opens the spectator's page in the same page,
// and its leave brings the lobby back.
func TestWebLobbyResumeAndWatch(t *testing.T) {
	lane.NoRace(t)
	ctx := lobbyTest(t, 150*time.Second)

	// A match against bots, left in its first hand.
	data := t.TempDir()
	lg := &leavingGame{Game: web.NewGame(0), n: 10}
	lg.Start()
	var bots []table.Mover
	for range 3 {
		bots = append(bots, bot.NewGreedy())
	}
	out, err := ui.PlayLocal(ctx, lg, ui.LocalOptions{Ruleset: "classic", Name: "ayse", Bots: bots, BotName: []string{"ali", "veli", "can"},
		Player: bot.NewGreedy(), Data: data, Strategy: "greedy"})
	if err != nil || !errors.Is(out.Err, ui.ErrQuit) {
		t.Fatalf("the match to leave: %v %+v", err, out)
	}

	// The web seat.
	ws := startWebSeat(t, ctx, data)
	defer ws.end(t)
	wc := ws.client

	c := browsertest.Start(t, browsertest.Options{Parent: ctx})
	defer chromedp.Cancel(c)
	p := lobbyPage{t, c}
	until, clickFor := p.until, p.clickFor
	browsertest.Open(t, c, ws.srv.URL(), "#c-create")
	d := until("the unfinished match listed", func(d lobbyDOM) bool { return len(d.Unfin) == 1 && len(d.Local) == 1 })
	id := d.Unfin[0]
	browsertest.Shoot(t, c, "weblobby-unfinished")

	// Resume, then leave it again: saved, listed again.
	row := `#unfin tr.ut[data-id="` + id + `"]`
	clickFor(row+" button.resume", "the resumed table", func(d lobbyDOM) bool { return d.Path == "/table" && d.Rack > 0 })
	browsertest.Shoot(t, c, "weblobby-resumed")
	p.leaveMatch("the lobby again", func(d lobbyDOM) bool { return d.Path == "/" && d.Title == "okey lobby" && len(d.Unfin) == 1 })

	// Drop: the first click asks, the second drops it.
	clickFor(row+" button.drop", "the question", func(d lobbyDOM) bool { return strings.Contains(d.Msg, "drop again") })
	clickFor(row+" button.drop", "the match dropped", func(d lobbyDOM) bool { return len(d.Unfin) == 0 && strings.HasPrefix(d.Msg, "dropped: ") })
	if un, err := ui.UnfinishedLocal(data); err != nil || len(un) != 0 {
		t.Fatalf("after the drop, still unfinished: %+v %v", un, err)
	}

	// A terminal seat opens a public table of 2 with a house bot and plays it.
	ts := startTermSeat(t, ctx, ws.peer(t), 200*time.Millisecond)
	defer ts.end(t)
	screen := func(what string, cond func(string) bool) {
		t.Helper()
		ts.screen(t, what, cond)
	}
	key := ts.key
	screen("the terminal's lobby", func(s string) bool { return strings.Contains(s, "okey lobby") })
	ts.createForm(t, "")
	key(tcell.KeyRight, 0) // bots: 1
	key(tcell.KeyEnter, 0)
	until("the terminal's table listed", func(d lobbyDOM) bool {
		for _, a := range wc.Lobby().Tables() {
			if len(a.Members) > 0 && a.Members[0].Name == "mehmet" {
				return true
			}
		}
		return false
	})
	// r acts on the terminal lobby's own table: the web peer may list it
	// before the terminal's lobby has taken the create's answer, and an r
	// then does nothing. Press it until the announcement says ready (or
	// started), waiting long enough that a press that took is never undone.
	readyOrStarted := func() bool {
		for _, a := range wc.Lobby().Tables() {
			if len(a.Members) > 0 && a.Members[0].Name == "mehmet" && (a.State != "open" || a.Members[0].Ready) {
				return true
			}
		}
		return false
	}
	ts.ready(t, readyOrStarted)
	d = until("a started table to watch", func(d lobbyDOM) bool { return len(d.Watch) == 1 })
	browsertest.Shoot(t, c, "weblobby-watchable")
	// A seat's name line says its player's name, then " · dealer" when
	// it deals the hand shown (and "shown" after a show).
	clickFor(`#tables tr.lt[data-id="`+d.Watch[0]+`"] button.watch`, "the spectator's page", func(d lobbyDOM) bool {
		return d.Path == "/table" && d.Board && slices.ContainsFunc(d.Seats, func(s string) bool { return s == "mehmet" || strings.HasPrefix(s, "mehmet ") })
	})
	browsertest.Shoot(t, c, "weblobby-watching")
	clickFor("#leave", "the lobby after watching", func(d lobbyDOM) bool { return d.Path == "/" && d.Title == "okey lobby" })
}
