package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// chatDOM is what the table's page shows of its chat.
type chatDOM struct {
	Path   string   `json:"path"`
	Rack   int      `json:"rack"`
	Shown  bool     `json:"shown"`  // the chat's panel is shown
	Lines  []string `json:"lines"`  // "name: text"
	Tags   int      `json:"tags"`   // elements inside the messages' texts (none: text only)
	Quick  []string `json:"quick"`  // the quick messages' buttons
	Mute   []string `json:"mute"`   // the mute toggles' labels
	Muted  []string `json:"muted"`  // the muted members' names
	Log    []string `json:"log"`    // the log's lines
	Msg    string   `json:"msg"`    // the message line
	Focus  string   `json:"focus"`  // the focused element's id
	Member string   `json:"member"` // the first mute toggle's member id
}

const readChatDOM = `(() => {
	const q = (s) => document.querySelector(s);
	const all = (s) => [...document.querySelectorAll(s)];
	const box = q('#chat');
	return {
		path: location.pathname,
		rack: all('#rack .tile').length,
		shown: !!box && !box.hidden,
		lines: all('#chat-lines li:not(.none)').map((e) => e.textContent),
		tags: all('#chat-lines .said *').length,
		quick: all('#chat-quick button').map((e) => e.textContent),
		mute: all('#chat-members button').map((e) => e.textContent),
		muted: all('#chat-members .member.muted .who').map((e) => e.textContent),
		log: all('#log li').map((e) => e.textContent),
		msg: (q('#msg') || {textContent: ''}).textContent,
		focus: document.activeElement ? document.activeElement.id : '',
		member: (q('#chat-members button') || {dataset: {}}).dataset.member || '',
	};
})()`

// TestWebTableChat: at a LAN table over loopback libp2p (--no-mdns,
// --peer) opened from the web lobby in Chromium, with the other seat at
// the terminal (a simulated screen), the page's chat works both ways: the
// words typed in the page ('/', the words, enter) reach the terminal's
// chat line, drawn on the page as text (a message with markup shows its
// tags as characters), and the terminal's quick message shows on the page
// in the page's language, in the chat and the log. The page's mute toggle
// hides that member's messages from the page (the chat and the log),
// while its peer still receives them (its chat file holds them); unmuted,
// the member's new messages show again.
func TestWebTableChat(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English)
	path := lobbyChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	// The web seat.
	clients := make(chan *netplay.Client, 1)
	servers := make(chan *web.Server, 1)
	webCtx, quitWeb := context.WithCancel(ctx)
	var webOut, webErr bytes.Buffer
	webDone := make(chan int, 1)
	go func() {
		webDone <- playLAN(lanFlags{name: "ayse", data: t.TempDir(), noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
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
	termDone := make(chan int, 1)
	var termOut, termErr bytes.Buffer
	mover, err := bot.New("greedy", 7)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		termDone <- playLAN(lanFlags{name: "mehmet", data: t.TempDir(), noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
			peers: []string{peerAddr}, strategy: "greedy", pace: time.Millisecond, screen: scr, player: mover,
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
	key := func(r rune) { scr.InjectKey(tcell.KeyRune, r, tcell.ModNone) }

	// The browser.
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true), chromedp.WindowSize(1280, 720))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	c, ccancel := chromedp.NewContext(actx)
	defer ccancel()
	do := func(as ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(c, as...); err != nil {
			t.Fatal(err)
		}
	}
	readLobby := func() lobbyDOM {
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
	lobbyUntil := func(what string, ok func(lobbyDOM) bool) lobbyDOM {
		t.Helper()
		end := time.Now().Add(30 * time.Second)
		for {
			d := readLobby()
			if ok(d) {
				return d
			}
			if time.Now().After(end) {
				t.Fatalf("waited for %s; the page: %+v", what, d)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	until := func(what string, ok func(chatDOM) bool) chatDOM {
		t.Helper()
		end := time.Now().Add(30 * time.Second)
		for {
			d, err := chromedp.Run(c, chromedp.Evaluate[chatDOM](readChatDOM))
			if err == nil && ok(d) {
				return d
			}
			if time.Now().After(end) {
				t.Fatalf("waited for %s; the page: %+v (%v)", what, d, err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// clickFor clicks sel until ok holds (a click on an element the page
	// replaced at that moment is lost: a new state came).
	clickFor := func(sel, what string, ok func() bool) {
		t.Helper()
		end := time.Now().Add(30 * time.Second)
		for {
			_ = chromedp.Do(c, chromedp.Click(chromedp.CSS(sel), chromedp.AtLeast(0)))
			seen := time.Now().Add(3 * time.Second)
			for time.Now().Before(seen) {
				if ok() {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			if time.Now().After(end) {
				t.Fatalf("clicked %s: no %s", sel, what)
			}
		}
	}

	// A table of 2 from the lobby's page, the terminal's player joins it
	// (j, r), the page's ready starts it.
	do(chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("#c-create")))
	lobbyUntil("the lobby drawn", func(d lobbyDOM) bool { return d.Title == "okey lobby" })
	do(chromedp.SetValue(chromedp.CSS("#c-players"), "2"), chromedp.SetValue(chromedp.CSS("#c-options"), "points=1,timer=600"))
	do(chromedp.Click(chromedp.CSS("#c-create")))
	id := lobbyUntil("the table opened, the player seated", func(d lobbyDOM) bool { return len(d.Seated) == 1 }).Seated[0]
	screen("the table listed at the terminal", func(s string) bool { return strings.Contains(s, "ayse") })
	key('j')
	lobbyUntil("the terminal's player seated", func(d lobbyDOM) bool { return len(d.Members) == 1 && d.Members[0] == 2 })
	// r acts on the table the terminal's lobby knows it sits at: pressed
	// before its lobby took the join's answer, it does nothing. Press it
	// until the page says ready, waiting long enough that a press that
	// took is never undone (as TestWebLobbyResumeAndWatch does).
	readyNow := func() bool {
		for _, a := range wc.Lobby().Tables() {
			for _, m := range a.Members {
				if a.Table == id && m.Name == "mehmet" && m.Ready {
					return true
				}
			}
		}
		return false
	}
	for try := 0; !readyNow(); try++ {
		if try == 3 {
			t.Fatalf("the terminal's r never made its player ready:\n%s", tg.ScreenText(scr))
		}
		key('r')
		for end := time.Now().Add(10 * time.Second); !readyNow() && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	lobbyUntil("the terminal's player ready", func(d lobbyDOM) bool { return len(d.Ready) == 1 && d.Ready[0] == 1 })
	clickFor(`#tables tr.lt[data-id="`+id+`"] button.ready`, "the table's page", func() bool {
		d := readLobby()
		return d.Path == "/table" || len(d.Ready) == 1 && d.Ready[0] == 2
	})
	screen("the table at the terminal", func(s string) bool { return !strings.Contains(s, "okey lobby") && strings.Contains(s, "/ chat") })
	d := until("the page's table with its chat", func(d chatDOM) bool { return d.Path == "/table" && d.Rack > 0 && d.Shown && len(d.Mute) == 1 })
	if len(d.Quick) != 9 || d.Quick[0] != "well played" || d.Mute[0] != "mute" || len(d.Lines) != 0 {
		t.Fatalf("the chat's panel: %+v", d)
	}
	mehmet := d.Member

	// The page's words, with markup in them, reach the terminal.
	said := `merhaba <b>dünya</b> & "hi"`
	do(chromedp.KeyEvent("/"))
	until("the chat's input focused by /", func(d chatDOM) bool { return d.Focus == "chat-input" })
	do(chromedp.KeyEvent(said), chromedp.KeyEvent("\r"))
	screen("the page's words on the terminal's chat line", func(s string) bool { return strings.Contains(s, "ayse: "+said) })
	d = until("the page's own words in its chat", func(d chatDOM) bool { return len(d.Lines) == 1 })
	if d.Lines[0] != "ayse: "+said || d.Tags != 0 || d.Rack == 0 {
		t.Fatalf("the page's own message: %+v", d)
	}
	shootLobby(t, c, "webchat-said")

	// The terminal's quick message 3 on the page, in the chat and the log.
	key('/')
	key('3')
	d = until("the terminal's quick message on the page", func(d chatDOM) bool { return len(d.Lines) == 2 })
	if d.Lines[1] != "mehmet: thanks" || !slices.Contains(d.Log, "chat · mehmet: thanks") {
		t.Fatalf("the terminal's quick message: %+v", d)
	}

	// Muted: mehmet's messages leave the page, and the next one, which the
	// web seat's peer receives (its chat file), is not shown.
	clickFor(`#chat-members button[data-member="`+mehmet+`"]`, "mehmet muted", func() bool {
		d, err := chromedp.Run(c, chromedp.Evaluate[chatDOM](readChatDOM))
		return err == nil && len(d.Muted) == 1
	})
	d = until("mehmet's message hidden", func(d chatDOM) bool { return len(d.Lines) == 1 })
	if d.Muted[0] != "mehmet" || d.Mute[0] != "unmute" || !strings.Contains(d.Msg, "mehmet is muted") || slices.Contains(d.Log, "chat · mehmet: thanks") {
		t.Fatalf("mehmet muted: %+v", d)
	}
	key('/')
	key('8')
	chatFile := filepath.Join(wc.Data(), netplay.MatchesDir, id, "chat")
	end := time.Now().Add(30 * time.Second)
	for !chatHolds(chatFile, 8) {
		if time.Now().After(end) {
			t.Fatal("the web seat's peer did not receive mehmet's quick message 8")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A message of the page's own after it: once the page shows it, the
	// model has taken mehmet's too (the peer gives them in order).
	do(chromedp.KeyEvent("/"), chromedp.KeyEvent("after"), chromedp.KeyEvent("\r"))
	d = until("the page's second message", func(d chatDOM) bool { return len(d.Lines) == 2 })
	if d.Lines[1] != "ayse: after" || strings.Contains(strings.Join(d.Lines, "|")+strings.Join(d.Log, "|"), "nice move") {
		t.Fatalf("a muted member's message shown: %+v", d)
	}
	shootLobby(t, c, "webchat-muted")

	// Unmuted: mehmet's next message shows again.
	clickFor(`#chat-members button[data-member="`+mehmet+`"]`, "mehmet unmuted", func() bool {
		d, err := chromedp.Run(c, chromedp.Evaluate[chatDOM](readChatDOM))
		return err == nil && len(d.Muted) == 0
	})
	key('/')
	key('9')
	d = until("mehmet's message after the unmute", func(d chatDOM) bool { return len(d.Lines) == 3 })
	if d.Lines[2] != "mehmet: bye" {
		t.Fatalf("after the unmute: %+v", d)
	}
}

// chatHolds says whether the chat file at path holds a quick message
// numbered quick.
func chatHolds(path string, quick int) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	ms, err := chat.ReadFile(bytes.NewReader(b))
	if err != nil {
		return false
	}
	return slices.ContainsFunc(ms, func(m *chat.Message) bool { return m.Kind == chat.KindQuick && m.Quick == quick })
}
