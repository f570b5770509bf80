package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// lobbyChromium finds Chromium as web's browser tests do: under CI=true a
// missing browser fails the test, elsewhere it skips with the reason.
func lobbyChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "chromium-headless-shell", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium on this machine (apt-get install chromium): the browser tests must run under CI")
	}
	t.Skip("no Chromium on this machine (apt-get install chromium): the browser tests skip")
	return ""
}

type lobbyDOM struct {
	Path    string   `json:"path"`
	Title   string   `json:"title"`
	Rows    []string `json:"rows"`    // the tables' ids
	Seated  []string `json:"seated"`  // the tables the player sits at
	Members []int    `json:"members"` // seated members per row
	Ready   []int    `json:"ready"`   // ready members per row
	Msg     string   `json:"msg"`
	Links   []string `json:"links"`
	Invite  string   `json:"invite"` // the invite code shown ("": none)
	Copy    string   `json:"copy"`   // the copy button's label
	// The table's page.
	Rack     int      `json:"rack"`
	Draw     bool     `json:"draw"`
	Discard  bool     `json:"discard"`
	HandEnd  bool     `json:"handEnd"`
	MatchEnd bool     `json:"matchEnd"`
	Verdict  string   `json:"verdict"`
	Good     bool     `json:"good"`
	Cursor   bool     `json:"cursor"` // the cursor is on a tile
	Unfin    []string `json:"unfin"`  // the unfinished matches listed
	// The table page's links: each other seat's name and how it is reached.
	TLinks []string `json:"tlinks"`
}

const readLobbyDOM = `(() => {
	const q = (s) => document.querySelector(s);
	const all = (s) => [...document.querySelectorAll(s)];
	const p = q('#panel');
	return {
		path: location.pathname,
		title: (q('#l-title') || {textContent: ''}).textContent,
		rows: all('#tables tr.lt').map((e) => e.dataset.id),
		seated: all('#tables tr.lt.seated').map((e) => e.dataset.id),
		members: all('#tables tr.lt').map((e) => e.querySelectorAll('.member').length),
		ready: all('#tables tr.lt').map((e) => e.querySelectorAll('.member.ready').length),
		msg: (q('#msg') || {textContent: ''}).textContent,
		links: all('#links li').map((e) => e.textContent),
		invite: q('#invite') && !q('#invite').hidden ? q('#invite-code').textContent : '',
		copy: (q('#copy') || {textContent: ''}).textContent,
		rack: all('#rack .tile').length,
		draw: !!q('#buttons button[data-op=draw].on'),
		discard: !!q('#buttons button[data-op=discard].on'),
		handEnd: !!p && !p.hidden && p.className === 'handend',
		matchEnd: !!p && !p.hidden && p.className === 'matchend',
		verdict: (q('#verdict') || {textContent: ''}).textContent,
		good: !!q('#verdict.good'),
		cursor: !!q('#rack .cell.cursor .tile'),
		tlinks: all('#links .link').map((e) => e.textContent),
		unfin: all('#unfin tr.ut').map((e) => e.dataset.id),
	};
})()`

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
	i18n.Set(i18n.English)
	path := lobbyChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()

	// The web seat.
	clients := make(chan *netplay.Client, 1)
	servers := make(chan *web.Server, 1)
	webCtx, quitWeb := context.WithCancel(ctx)
	var webOut, webErr bytes.Buffer
	webDone := make(chan int, 1)
	t0 := time.Now()
	go func() {
		webDone <- playLAN(lanFlags{name: "ayse", data: t.TempDir(), noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
			strategy: "greedy", pace: time.Millisecond, web: true, noOpen: true, ctx: webCtx,
			opened: func(c *netplay.Client) { clients <- c }, served: func(s *web.Server) { servers <- s }}, &webOut, &webErr)
	}()
	defer func() {
		quitWeb()
		select {
		case code := <-webDone:
			// It printed the lobby's address, and at its end the last
			// match's verdict and transcript (exit status 0: honest).
			out := webOut.String()
			if code != 0 || !strings.Contains(out, "okey: the lobby is at http://127.0.0.1:") || !strings.Contains(out, "honest") || !strings.Contains(out, "okey: transcript ") {
				t.Errorf("the web lobby ended with %d:\n%s%s", code, out, webErr.String())
			}
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
		t.Logf("figure: okey play --web (the lobby's process started: data, identity, libp2p host) to its page served: %v", time.Since(t0).Round(time.Millisecond))
	case <-ctx.Done():
		t.Fatalf("the web lobby was not served: %s", webErr.String())
	}
	var peerAddr string
	for _, a := range wc.Addrs() {
		if strings.Contains(a, "/ip4/127.0.0.1/") {
			peerAddr = a
		}
	}
	if peerAddr == "" {
		t.Fatalf("no loopback address in %q", wc.Addrs())
	}
	if !strings.Contains(peerAddr, "/p2p/") {
		peerAddr += "/p2p/" + wc.ID()
	}

	// The terminal seat.
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(100, 30)
	games := make(chan *ui.Game, 1)
	termClients := make(chan *netplay.Client, 1)
	termDone := make(chan int, 1)
	var termOut, termErr bytes.Buffer
	mover, err := bot.New("greedy", 7)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		termDone <- playLAN(lanFlags{name: "mehmet", data: t.TempDir(), noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
			peers: []string{peerAddr}, strategy: "greedy", pace: time.Millisecond, screen: scr, player: mover,
			game: func(g *ui.Game) { games <- g }, opened: func(c *netplay.Client) { termClients <- c }}, &termOut, &termErr)
	}()
	tcl := <-termClients
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
	screen := func(what string, cond func(string) bool) string {
		t.Helper()
		end := time.Now().Add(30 * time.Second)
		for {
			s := tg.ScreenText(scr)
			if cond(s) {
				return s
			}
			if time.Now().After(end) {
				t.Fatalf("%s: not on the terminal's screen:\n%s", what, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	// The browser.
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true), chromedp.WindowSize(1280, 860))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	c, ccancel := chromedp.NewContext(actx)
	defer ccancel()
	// read reads the page, again while it is being replaced (the lobby
	// hands over to the table's page and back).
	read := func() lobbyDOM {
		t.Helper()
		end := time.Now().Add(10 * time.Second)
		for {
			d, err := chromedp.Run(c, chromedp.Evaluate[lobbyDOM](readLobbyDOM))
			if err == nil {
				return d
			}
			if time.Now().After(end) || ctx.Err() != nil {
				t.Fatalf("reading the page: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	until := func(what string, ok func(lobbyDOM) bool) lobbyDOM {
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
	do := func(as ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(c, as...); err != nil {
			t.Fatal(err)
		}
	}
	// click clicks sel, again when the page redrew it between finding
	// and clicking (a new state came).
	click := func(sel string) {
		t.Helper()
		var err error
		for range 20 {
			if err = chromedp.Do(c, chromedp.Click(chromedp.CSS(sel))); err == nil || !strings.Contains(err.Error(), "Could not find node") {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
	}
	do(chromedp.Navigate("about:blank")) // Chromium started
	tn := time.Now()
	// clickFor clicks sel until ok holds (a click on an element the page
	// replaced at that moment is lost: a new state came).
	clickFor := func(sel, what string, ok func(lobbyDOM) bool) lobbyDOM {
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
	do(chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("#c-create")))
	until("the lobby drawn", func(d lobbyDOM) bool { return d.Title == "okey lobby" })
	t.Logf("figure: okey play --web (the lobby's process started, Chromium started beside it) to the lobby drawn in Chromium: %v; "+
		"from the page's address opened to the lobby drawn: %v", time.Since(t0).Round(time.Millisecond), time.Since(tn).Round(time.Millisecond))

	// The lobby's socket admits the page's own origin, no other.
	probe := `new Promise((res) => { const ws = new WebSocket("ws://127.0.0.1:` + strconv.Itoa(srv.Port()) + `/lobby.ws");
		ws.onopen = () => { ws.close(); res("open"); }; ws.onerror = () => res("refused"); setTimeout(() => res("timeout"), 4000); })`
	if own, err := chromedp.Run(c, chromedp.Evaluate[string](probe, chromedp.EvalAwaitPromise)); err != nil || own != "open" {
		t.Fatalf("the page's own lobby socket: %q %v", own, err)
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>elsewhere</title>")
	}))
	defer other.Close()
	do(chromedp.Navigate(other.URL))
	if got, err := chromedp.Run(c, chromedp.Evaluate[string](probe, chromedp.EvalAwaitPromise)); err != nil || got != "refused" {
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
	scr.InjectKey(tcell.KeyRune, 'r', tcell.ModNone)
	until("the terminal's player ready", func(d lobbyDOM) bool { return len(d.Ready) == 1 && d.Ready[0] == 1 })
	until("the links' state", func(d lobbyDOM) bool { return len(d.Links) == 1 && strings.HasPrefix(d.Links[0], "mehmet: ") })
	shootLobby(t, c, "weblobby-seated")
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
	shootLobby(t, c, "weblobby-table")

	playMatch := func(scene string) {
		t.Helper()
		moves := 0
		for {
			d := read()
			switch {
			case d.MatchEnd:
				d = read()
				shootLobby(t, c, scene+"-match-end")
				if !d.Good || d.Verdict == "" {
					t.Fatalf("the match's end in the page: verdict %q (good %v)", d.Verdict, d.Good)
				}
				t.Logf("%s: the match over loopback libp2p ended after %d moves of the page's seat: %s", scene, moves, d.Verdict)
				clickFor("#panel button[data-op=leave]", "the lobby again", func(d lobbyDOM) bool { return d.Path == "/" && d.Title == "okey lobby" })
				return
			case d.HandEnd:
				clickFor("#close", "the hand's panel closed", func(e lobbyDOM) bool { return !e.HandEnd })
			case d.Draw:
				do(chromedp.KeyEvent("d"))
				until("the drawn tile", func(e lobbyDOM) bool { return !e.Draw || e.HandEnd || e.MatchEnd })
				moves++
			case d.Discard:
				if !d.Cursor {
					clickFor("#rack .tile", "the cursor on a tile", func(e lobbyDOM) bool { return e.Cursor || !e.Discard })
				}
				do(chromedp.KeyEvent("x"))
				until("the discard", func(e lobbyDOM) bool { return !e.Discard || e.HandEnd || e.MatchEnd || e.Rack < d.Rack })
				moves++
			default:
				if ctx.Err() != nil {
					t.Fatalf("the match did not end in time (%d moves): %+v", moves, d)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	playMatch("created")
	shootLobby(t, c, "weblobby-back")

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
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	key(tcell.KeyRune, 'c')
	screen("the create form", func(s string) bool { return strings.Contains(s, "join     <") })
	key(tcell.KeyDown, 0)
	for _, r := range "points=1" {
		key(tcell.KeyRune, r)
	}
	key(tcell.KeyDown, 0)
	key(tcell.KeyLeft, 0) // players: 2
	key(tcell.KeyLeft, 0)
	key(tcell.KeyDown, 0)
	for range 3 {
		key(tcell.KeyLeft, 0) // bots: none
	}
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
	shootLobby(t, c, "weblobby-joined-by-code")
	key(tcell.KeyRune, 'r')
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
	shootLobby(t, c, "weblobby-lan-unfinished")
	clickFor(`#unfin tr.ut[data-id="`+private+`"] button.resume`, "the resumed LAN table", func(d lobbyDOM) bool {
		return d.Path == "/table" && d.Rack > 0
	})
	playMatch("by-code")

	// A private table opened in the page shows its invite code with a copy
	// button; closing it takes it off.
	do(chromedp.SetValue(chromedp.CSS("#c-players"), "2"))
	do(chromedp.Click(chromedp.CSS("#c-private")))
	click("#c-create")
	d = until("the invite code shown", func(d lobbyDOM) bool { return strings.HasPrefix(d.Invite, "okey1") && len(d.Seated) == 1 })
	mine := d.Seated[0]
	if got, ok := wc.Lobby().Table(mine); !ok || !got.Private {
		t.Fatalf("the page's private table as announced: %+v", got)
	}
	if want, err := wc.Invite(mine); err != nil || want != d.Invite {
		t.Fatalf("the page shows the code %q, the process holds %q (%v)", d.Invite, want, err)
	}
	clickFor("#copy", "the code copied", func(d lobbyDOM) bool { return d.Copy == "copied" })
	shootLobby(t, c, "weblobby-invite")
	clickFor(`#tables tr.lt[data-id="`+mine+`"] button.close`, "the private table closed", func(d lobbyDOM) bool {
		return !slices.Contains(d.Seated, mine) && d.Invite == ""
	})
}

func shootLobby(t *testing.T, c context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(c, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(t.ArtifactDir(), name+".png")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("screenshot %s (%d bytes)", p, len(b))
}
