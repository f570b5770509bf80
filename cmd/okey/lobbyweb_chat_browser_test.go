package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/netplay"
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

const readChatDOM browsertest.DOM[chatDOM] = `(() => {
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
	ctx := lobbyTest(t, 120*time.Second)

	// The web seat.
	ws := startWebSeat(t, ctx, t.TempDir())
	defer ws.end(t)
	wc, srv := ws.client, ws.srv

	// The terminal seat.
	ts := startTermSeat(t, ctx, ws.peer(t), time.Millisecond)
	defer ts.end(t)
	screen := func(what string, cond func(string) bool) string {
		t.Helper()
		return ts.screen(t, what, cond)
	}
	key := func(r rune) { ts.key(tcell.KeyRune, r) }

	// The browser.
	c := browsertest.Start(t, browsertest.Options{Parent: ctx, Width: 1280, Height: 720})
	defer chromedp.Cancel(c)
	do := func(as ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		browsertest.Do(t, c, as...)
	}
	lobby := lobbyPage{t, c}
	lobbyUntil := lobby.until
	until := func(what string, ok func(chatDOM) bool) chatDOM {
		t.Helper()
		return readChatDOM.Until(t, c, 30*time.Second, what, ok)
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
	ts.ready(t, func() bool { return memberReady(wc.Lobby(), id, "mehmet") })
	lobbyUntil("the terminal's player ready", func(d lobbyDOM) bool { return len(d.Ready) == 1 && d.Ready[0] == 1 })
	lobby.clickFor(`#tables tr.lt[data-id="`+id+`"] button.ready`, "the table's page", func(d lobbyDOM) bool {
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
	browsertest.Shoot(t, c, "webchat-said")

	// The terminal's quick message 3 on the page, in the chat and the log.
	key('/')
	key('3')
	d = until("the terminal's quick message on the page", func(d chatDOM) bool { return len(d.Lines) == 2 })
	if d.Lines[1] != "mehmet: thanks" || !slices.Contains(d.Log, "chat · mehmet: thanks") {
		t.Fatalf("the terminal's quick message: %+v", d)
	}

	// Muted: mehmet's messages leave the page, and the next one, which the
	// web seat's peer receives (its chat file), is not shown.
	readChatDOM.ClickFor(t, c, `#chat-members button[data-member="`+mehmet+`"]`, "mehmet muted", func(d chatDOM) bool { return len(d.Muted) == 1 })
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
	browsertest.Shoot(t, c, "webchat-muted")

	// Unmuted: mehmet's next message shows again.
	readChatDOM.ClickFor(t, c, `#chat-members button[data-member="`+mehmet+`"]`, "mehmet unmuted", func(d chatDOM) bool { return len(d.Muted) == 0 })
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
