package main

import (
	"bytes"
	"context"
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
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/netplay"
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

type resumeDOM struct {
	Path  string   `json:"path"`
	Title string   `json:"title"`
	Unfin []string `json:"unfin"` // the unfinished matches' ids
	Local []string `json:"local"` // those against bots
	Watch []string `json:"watch"` // the tables offering watch
	Msg   string   `json:"msg"`
	Rack  int      `json:"rack"`  // the table page's rack tiles
	Board bool     `json:"board"` // the spectator's page drawn
	Seats []string `json:"seats"` // the board's seats' names
	Links []string `json:"links"` // the table page's links
}

const readResumeDOM = `(() => {
	const q = (s) => document.querySelector(s);
	const all = (s) => [...document.querySelectorAll(s)];
	return {
		path: location.pathname,
		title: (q('#l-title') || {textContent: ''}).textContent,
		unfin: all('#unfin tr.ut').map((e) => e.dataset.id),
		local: all('#unfin tr.ut.local').map((e) => e.dataset.id),
		watch: all('#tables tr.lt button.watch').map((e) => e.closest('tr').dataset.id),
		msg: (q('#msg') || {textContent: ''}).textContent,
		rack: all('#rack .tile').length,
		board: document.body.classList.contains('watch'),
		seats: all('.seat .name').map((e) => e.textContent),
	};
})()`

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
	i18n.Set(i18n.English)
	path := lobbyChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()

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
	clients := make(chan *netplay.Client, 1)
	servers := make(chan *web.Server, 1)
	webCtx, quitWeb := context.WithCancel(ctx)
	var webOut, webErr bytes.Buffer
	webDone := make(chan int, 1)
	go func() {
		webDone <- playLAN(lanFlags{name: "ayse", data: data, noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
			strategy: "greedy", pace: time.Millisecond, web: true, noOpen: true, ctx: webCtx,
			opened: func(c *netplay.Client) { clients <- c }, served: func(s *web.Server) { servers <- s }}, &webOut, &webErr)
	}()
	defer func() {
		quitWeb()
		select {
		case <-webDone:
		case <-time.After(10 * time.Second):
			t.Error("the web lobby did not end")
		}
	}()
	var wc *netplay.Client
	var srv *web.Server
	select {
	case wc = <-clients:
	case <-ctx.Done():
		t.Fatalf("the web seat's network did not open: %s", webErr.String())
	}
	select {
	case srv = <-servers:
	case <-ctx.Done():
		t.Fatalf("the web lobby was not served: %s", webErr.String())
	}

	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true), chromedp.WindowSize(1280, 860))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	c, ccancel := chromedp.NewContext(actx)
	defer ccancel()
	read := func() resumeDOM {
		t.Helper()
		end := time.Now().Add(10 * time.Second)
		for {
			d, err := chromedp.Run(c, chromedp.Evaluate[resumeDOM](readResumeDOM))
			if err == nil {
				return d
			}
			if time.Now().After(end) || ctx.Err() != nil {
				t.Fatalf("reading the page: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	until := func(what string, ok func(resumeDOM) bool) resumeDOM {
		t.Helper()
		end := time.Now().Add(30 * time.Second)
		for {
			d := read()
			if ok(d) {
				return d
			}
			if time.Now().After(end) {
				t.Fatalf("waited for %s; the page: %+v", what, d)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// clickFor clicks sel until ok holds (a click on an element the page
	// replaced at that moment is lost: a new state came).
	clickFor := func(sel, what string, ok func(resumeDOM) bool) resumeDOM {
		t.Helper()
		end := time.Now().Add(30 * time.Second)
		for {
			_ = chromedp.Do(c, chromedp.Click(chromedp.CSS(sel), chromedp.AtLeast(0)))
			seen := time.Now().Add(3 * time.Second)
			for time.Now().Before(seen) {
				if d := read(); ok(d) {
					return d
				}
				time.Sleep(10 * time.Millisecond)
			}
			if time.Now().After(end) {
				t.Fatalf("clicked %s: no %s; the page: %+v", sel, what, read())
			}
		}
	}
	if err := chromedp.Do(c, chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("#c-create"))); err != nil {
		t.Fatal(err)
	}
	d := until("the unfinished match listed", func(d resumeDOM) bool { return len(d.Unfin) == 1 && len(d.Local) == 1 })
	id := d.Unfin[0]
	shootLobby(t, c, "weblobby-unfinished")

	// Resume, then leave it again: saved, listed again.
	row := `#unfin tr.ut[data-id="` + id + `"]`
	clickFor(row+" button.resume", "the resumed table", func(d resumeDOM) bool { return d.Path == "/table" && d.Rack > 0 })
	shootLobby(t, c, "weblobby-resumed")
	clickFor("#leave", "the lobby again", func(d resumeDOM) bool { return d.Path == "/" && d.Title == "okey lobby" && len(d.Unfin) == 1 })

	// Drop: the first click asks, the second drops it.
	clickFor(row+" button.drop", "the question", func(d resumeDOM) bool { return strings.Contains(d.Msg, "drop again") })
	clickFor(row+" button.drop", "the match dropped", func(d resumeDOM) bool { return len(d.Unfin) == 0 && strings.HasPrefix(d.Msg, "dropped: ") })
	if un, err := ui.UnfinishedLocal(data); err != nil || len(un) != 0 {
		t.Fatalf("after the drop, still unfinished: %+v %v", un, err)
	}

	// A terminal seat opens a public table of 2 with a house bot and plays it.
	var peerAddr string
	for _, a := range wc.Addrs() {
		if strings.Contains(a, "/ip4/127.0.0.1/") {
			peerAddr = a
		}
	}
	if !strings.Contains(peerAddr, "/p2p/") {
		peerAddr += "/p2p/" + wc.ID()
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(100, 30)
	games := make(chan *ui.Game, 1)
	termDone := make(chan int, 1)
	var termOut, termErr bytes.Buffer
	mover, err := bot.New("greedy", 7)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		termDone <- playLAN(lanFlags{name: "mehmet", data: t.TempDir(), noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
			peers: []string{peerAddr}, strategy: "greedy", pace: 200 * time.Millisecond, screen: scr, player: mover,
			game: func(g *ui.Game) { games <- g }}, &termOut, &termErr)
	}()
	var tg *ui.Game
	select {
	case tg = <-games:
	case <-ctx.Done():
		t.Fatalf("the terminal lobby did not start: %s", termErr.String())
	}
	defer func() {
		tg.Quit()
		select {
		case <-termDone:
		case <-time.After(10 * time.Second):
			t.Error("the terminal lobby did not end")
		}
	}()
	screen := func(what string, cond func(string) bool) {
		t.Helper()
		end := time.Now().Add(30 * time.Second)
		for !cond(tg.ScreenText(scr)) {
			if time.Now().After(end) {
				t.Fatalf("%s: not on the terminal's screen:\n%s", what, tg.ScreenText(scr))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	screen("the terminal's lobby", func(s string) bool { return strings.Contains(s, "okey lobby") })
	key(tcell.KeyRune, 'c')
	screen("the create form", func(s string) bool { return strings.Contains(s, "join     <") })
	key(tcell.KeyDown, 0)
	key(tcell.KeyDown, 0)
	key(tcell.KeyLeft, 0) // players: 2
	key(tcell.KeyLeft, 0)
	key(tcell.KeyDown, 0)
	for range 3 {
		key(tcell.KeyLeft, 0) // bots: none
	}
	key(tcell.KeyRight, 0) // bots: 1
	key(tcell.KeyEnter, 0)
	until("the terminal's table listed", func(d resumeDOM) bool {
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
	for try := 0; ; try++ {
		key(tcell.KeyRune, 'r')
		end := time.Now().Add(10 * time.Second)
		for !readyOrStarted() && time.Now().Before(end) {
			time.Sleep(20 * time.Millisecond)
		}
		if readyOrStarted() {
			break
		}
		if try == 2 {
			t.Fatalf("the terminal's r never made its player ready:\n%s", tg.ScreenText(scr))
		}
	}
	d = until("a started table to watch", func(d resumeDOM) bool { return len(d.Watch) == 1 })
	shootLobby(t, c, "weblobby-watchable")
	clickFor(`#tables tr.lt[data-id="`+d.Watch[0]+`"] button.watch`, "the spectator's page", func(d resumeDOM) bool {
		return d.Path == "/table" && d.Board && slices.Contains(d.Seats, "mehmet")
	})
	shootLobby(t, c, "weblobby-watching")
	clickFor("#leave", "the lobby after watching", func(d resumeDOM) bool { return d.Path == "/" && d.Title == "okey lobby" })
}
