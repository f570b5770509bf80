package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/lane"
)

// TestWebLobbyLANTable: okey play --web without --bots serves the lobby;
// in Chromium the player opens a LAN table (loopback libp2p, --no-mdns,
// --peer) from the lobby's page, while another seat's okey play sits at
// the terminal (a simulated screen; its moves are a greedy bot's, its
// lobby is driven by keys): the terminal lists the table and joins it (j,
// r), the page's ready starts it, the page becomes the match's table and
// plays it by keys and clicks to its end with an honest verdict, and its
// leave brings the page back to the lobby. A cross-origin WebSocket to the
// lobby's socket is refused while the page's own is admitted.
func TestWebLobbyLANTable(t *testing.T) {
	lane.NoRace(t)
	ctx := lobbyTest(t, 150*time.Second)

	// The web seat.
	t0 := time.Now()
	ws := startWebSeat(t, ctx, t.TempDir())
	defer func() {
		// It printed the lobby's address, and at its end the last
		// match's verdict and transcript (exit status 0: honest).
		if code := ws.end(t); code >= 0 {
			out := ws.out.String()
			if code != 0 || !strings.Contains(out, "okey: the lobby is at http://127.0.0.1:") || !strings.Contains(out, "honest") || !strings.Contains(out, "okey: transcript ") {
				t.Errorf("the web lobby ended with %d:\n%s%s", code, out, ws.err.String())
			}
		}
	}()
	wc, srv := ws.client, ws.srv
	t.Logf("figure: okey play --web (the lobby's process started: data, identity, libp2p host) to its page served: %v", time.Since(t0).Round(time.Millisecond))

	// The terminal seat.
	ts := startTermSeat(t, ctx, ws.peer(t), time.Millisecond)
	defer ts.end(t)
	scr, tg, tcl := ts.scr, ts.g, ts.client
	screen := func(what string, cond func(string) bool) string {
		t.Helper()
		return ts.screen(t, what, cond)
	}

	// The browser.
	c := browsertest.Start(t, browsertest.Options{Parent: ctx})
	defer chromedp.Cancel(c)
	p := lobbyPage{t, c}
	until, clickFor := p.until, p.clickFor
	do := func(as ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		browsertest.Do(t, c, as...)
	}
	tn := time.Now()
	do(chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("#c-create")))
	until("the lobby drawn", func(d lobbyDOM) bool { return d.Title == "okey lobby" })
	t.Logf("figure: okey play --web (the lobby's process started, Chromium started beside it) to the lobby drawn in Chromium: %v; "+
		"from the page's address opened to the lobby drawn: %v", time.Since(t0).Round(time.Millisecond), time.Since(tn).Round(time.Millisecond))

	// The lobby's socket admits the page's own origin, no other.
	sock := "ws://127.0.0.1:" + strconv.Itoa(srv.Port()) + "/lobby.ws"
	if own, err := browsertest.WebSocket(c, sock); err != nil || own != "open" {
		t.Fatalf("the page's own lobby socket: %q %v", own, err)
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>elsewhere</title>")
	}))
	defer other.Close()
	do(chromedp.Navigate(other.URL))
	if got, err := browsertest.WebSocket(c, sock); err != nil || got != "refused" {
		t.Fatalf("a cross-origin WebSocket to the lobby: %q %v, want refused", got, err)
	}
	do(chromedp.Navigate(srv.Base()+"/"), chromedp.WaitVisible(chromedp.CSS("#c-create")))
	until("the lobby again", func(d lobbyDOM) bool { return d.Title == "okey lobby" })

	// Open a table of 2, one point, no bots.
	do(chromedp.SetValue(chromedp.CSS("#c-players"), "2"), chromedp.SetValue(chromedp.CSS("#c-options"), "points=1"))
	tc := time.Now()
	do(chromedp.Click(chromedp.CSS("#c-create")))
	d := until("the table opened, the player seated", func(d lobbyDOM) bool { return len(d.Seated) == 1 })
	id := d.Seated[0]
	screen("the table listed at the terminal", func(s string) bool { return strings.Contains(s, "ayse") })
	t.Logf("figure: a click on the lobby's page (open a table) to the table listed on the other seat's terminal: %v", time.Since(tc).Round(time.Millisecond))
	scr.InjectKey(tcell.KeyRune, 'j', tcell.ModNone)
	until("the terminal's player seated", func(d lobbyDOM) bool { return len(d.Members) == 1 && d.Members[0] == 2 })
	ts.ready(t, func() bool { return memberReady(wc.Lobby(), id, "mehmet") })
	until("the terminal's player ready", func(d lobbyDOM) bool { return len(d.Ready) == 1 && d.Ready[0] == 1 })
	until("the links' state", func(d lobbyDOM) bool { return len(d.Links) == 1 && strings.HasPrefix(d.Links[0], "mehmet: ") })
	browsertest.Shoot(t, c, "weblobby-seated")
	tr := time.Now()
	clickFor(`#tables tr.lt[data-id="`+id+`"] button.ready`, "ready", func(d lobbyDOM) bool {
		return d.Path == "/table" || len(d.Ready) == 1 && d.Ready[0] == 2
	})
	screen("the table at the terminal", func(s string) bool { return !strings.Contains(s, "okey lobby") && strings.Contains(s, "ayse") })
	t.Logf("figure: a click on the lobby's page (ready) to the match's table drawn on the other seat's terminal: %v", time.Since(tr).Round(time.Millisecond))
	until("the page's table", func(d lobbyDOM) bool { return d.Path == "/table" && d.Rack > 0 })
	// The links' state, per seat, as the terminal's links line has it.
	until("the table's links", func(d lobbyDOM) bool {
		return len(d.TLinks) == 1 && strings.HasPrefix(d.TLinks[0], "mehmet direct")
	})
	browsertest.Shoot(t, c, "weblobby-table")

	playMatch := func(scene string) {
		t.Helper()
		p.playMatch(ctx, scene)
	}
	playMatch("created")
	browsertest.Shoot(t, c, "weblobby-back")

	// The terminal's player goes back to its lobby and opens a private
	// table of 2 (c, the form: points=1, 2 players, no bot, invite code only; enter); the page joins it by its code,
	// pasted wrapped over lines, and plays it too.
	screen("the terminal's match end", func(s string) bool {
		if strings.Contains(s, "enter: the match result") {
			scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone) // the hand's panel, then the match's
			time.Sleep(100 * time.Millisecond)
		}
		return strings.Contains(s, "back to the lobby")
	})
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	screen("the terminal's lobby again", func(s string) bool { return strings.Contains(s, "okey lobby") })
	key := ts.key
	ts.createForm(t, "points=1")
	for range 3 {
		key(tcell.KeyDown, 0)
	}
	key(tcell.KeyRight, 0)
	key(tcell.KeyEnter, 0)
	var private string
	for private == "" {
		for _, a := range tcl.Lobby().Tables() {
			if a.Private && a.State == "open" && len(a.Members) > 0 && a.Members[0].ID == tcl.ID() {
				private = a.Table
			}
		}
		if time.Since(tr) > 60*time.Second {
			t.Fatalf("the terminal's private table did not open:\n%s", tg.ScreenText(scr))
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, err := tcl.Invite(private)
	if err != nil {
		t.Fatal(err)
	}
	var wrapped strings.Builder
	for i := 0; i < len(code); i += 40 {
		wrapped.WriteString("  " + code[i:min(len(code), i+40)] + "\n")
	}
	do(chromedp.SetValue(chromedp.CSS("#code"), wrapped.String()), chromedp.Click(chromedp.CSS("#code-join")))
	until("seated by the code", func(d lobbyDOM) bool { return slices.Contains(d.Seated, private) })
	browsertest.Shoot(t, c, "weblobby-joined-by-code")
	ts.ready(t, func() bool { return memberReady(wc.Lobby(), private, "mehmet") })
	until("the terminal's player ready", func(d lobbyDOM) bool {
		i := slices.Index(d.Rows, private)
		return i >= 0 && d.Ready[i] == 1
	})
	clickFor(`#tables tr.lt[data-id="`+private+`"] button.ready`, "ready", func(d lobbyDOM) bool {
		i := slices.Index(d.Rows, private)
		return d.Path == "/table" || i >= 0 && d.Ready[i] == 2
	})
	until("the page's table of the private match", func(d lobbyDOM) bool { return d.Path == "/table" && d.Rack > 0 })
	// The player leaves it during the match: the lobby lists it unfinished;
	// its resume takes the seat again, the terminal's player still at it.
	clickFor("#leave", "the lobby with the match unfinished", func(d lobbyDOM) bool {
		return d.Path == "/" && slices.Contains(d.Unfin, private)
	})
	browsertest.Shoot(t, c, "weblobby-lan-unfinished")
	clickFor(`#unfin tr.ut[data-id="`+private+`"] button.resume`, "the resumed LAN table", func(d lobbyDOM) bool {
		return d.Path == "/table" && d.Rack > 0
	})
	playMatch("by-code")

	// A private table opened in the page shows its invite code with a copy
	// button; closing it takes it off.
	do(chromedp.SetValue(chromedp.CSS("#c-players"), "2"))
	do(chromedp.Click(chromedp.CSS("#c-private")))
	browsertest.Click(t, c, "#c-create")
	d = until("the invite code shown", func(d lobbyDOM) bool { return strings.HasPrefix(d.Invite, "okey1") && len(d.Seated) == 1 })
	mine := d.Seated[0]
	if got, ok := wc.Lobby().Table(mine); !ok || !got.Private {
		t.Fatalf("the page's private table as announced: %+v", got)
	}
	if want, err := wc.Invite(mine); err != nil || want != d.Invite {
		t.Fatalf("the page shows the code %q, the process holds %q (%v)", d.Invite, want, err)
	}
	clickFor("#copy", "the code copied", func(d lobbyDOM) bool { return d.Copy == "copied" })
	browsertest.Shoot(t, c, "weblobby-invite")
	clickFor(`#tables tr.lt[data-id="`+mine+`"] button.close`, "the private table closed", func(d lobbyDOM) bool {
		return !slices.Contains(d.Seated, mine) && d.Invite == ""
	})
}
