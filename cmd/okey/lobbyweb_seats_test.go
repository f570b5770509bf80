package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// The seats of the web lobby's browser tests (TestWebLobbyLANTable,
// TestWebLobbyResumeAndWatch, TestWebTableChat): okey play --web's lobby and a terminal's
// okey play, both on loopback libp2p without mDNS, run by playLAN as the
// command runs them; and the lobby's page in Chromium, read from the DOM.

// lobbyTest sets a web lobby test up: English, Chromium at hand (without
// it the test skips, or fails under CI), and d for it all (the returned
// context's).
func lobbyTest(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	i18n.Set(i18n.English)
	browsertest.Chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// webSeat is okey play --web serving its lobby.
type webSeat struct {
	client   *netplay.Client
	srv      *web.Server
	out, err bytes.Buffer
	done     chan int
	quit     context.CancelFunc
}

// startWebSeat runs okey play --web (named ayse, its data under data)
// until its network is open and its lobby served.
func startWebSeat(t *testing.T, ctx context.Context, data string) *webSeat {
	t.Helper()
	clients := make(chan *netplay.Client, 1)
	servers := make(chan *web.Server, 1)
	s := &webSeat{done: make(chan int, 1)}
	webCtx, quit := context.WithCancel(ctx)
	s.quit = quit
	go func() {
		s.done <- playLAN(lanFlags{name: "ayse", data: data, noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
			strategy: "greedy", pace: time.Millisecond, web: true, noOpen: true, ctx: webCtx,
			opened: func(c *netplay.Client) { clients <- c }, served: func(s *web.Server) { servers <- s }}, &s.out, &s.err)
	}()
	s.client = await(t, ctx, clients, "the web seat's network did not open", &s.err)
	s.srv = await(t, ctx, servers, "the web lobby was not served", &s.err)
	return s
}

// await is what ch gives, or the test's end when ctx ends first: what did
// not happen, with the seat's log.
func await[T any](t *testing.T, ctx context.Context, ch <-chan T, what string, log *bytes.Buffer) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		t.Fatalf("%s: %s", what, log.String())
		var zero T
		return zero
	}
}

// end quits the web seat and returns its exit status, or -1 (an error of
// the test) when it did not end within 10 seconds.
func (s *webSeat) end(t *testing.T) int {
	t.Helper()
	s.quit()
	select {
	case code := <-s.done:
		return code
	case <-time.After(10 * time.Second):
		t.Error("the web lobby did not end")
		return -1
	}
}

// peer is the web seat's loopback address, for the other seat's --peer.
func (s *webSeat) peer(t *testing.T) string {
	t.Helper()
	var addr string
	for _, a := range s.client.Addrs() {
		if strings.Contains(a, "/ip4/127.0.0.1/") {
			addr = a
		}
	}
	if addr == "" {
		t.Fatalf("no loopback address in %q", s.client.Addrs())
	}
	if !strings.Contains(addr, "/p2p/") {
		addr += "/p2p/" + s.client.ID()
	}
	return addr
}

// termSeat is a terminal's okey play (named mehmet) on a simulated
// screen of 100 by 30: its moves are a greedy bot's, its lobby is driven
// by keys.
type termSeat struct {
	scr      tcell.SimulationScreen
	g        *ui.Game
	client   *netplay.Client
	out, err bytes.Buffer
	done     chan int
}

// startTermSeat runs the terminal seat, reaching its peer at peer, its
// bots moving every pace, until its lobby is on the screen.
func startTermSeat(t *testing.T, ctx context.Context, peer string, pace time.Duration) *termSeat {
	t.Helper()
	s := &termSeat{scr: tcell.NewSimulationScreen("UTF-8"), done: make(chan int, 1)}
	if err := s.scr.Init(); err != nil {
		t.Fatal(err)
	}
	s.scr.SetSize(100, 30)
	games := make(chan *ui.Game, 1)
	clients := make(chan *netplay.Client, 1)
	mover, err := bot.New("greedy", 7)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		s.done <- playLAN(lanFlags{name: "mehmet", data: t.TempDir(), noMDNS: true, listen: []string{"/ip4/127.0.0.1/tcp/0"},
			peers: []string{peer}, strategy: "greedy", pace: pace, screen: s.scr, player: mover,
			game: func(g *ui.Game) { games <- g }, opened: func(c *netplay.Client) { clients <- c }}, &s.out, &s.err)
	}()
	s.client = await(t, ctx, clients, "the terminal seat's network did not open", &s.err)
	s.g = await(t, ctx, games, "the terminal lobby did not start", &s.err)
	return s
}

// end quits the terminal seat and waits for it (an error of the test when
// it did not end within 10 seconds).
func (s *termSeat) end(t *testing.T) {
	t.Helper()
	s.g.Quit()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Error("the terminal lobby did not end")
	}
}

// screen waits up to 30 seconds until cond holds of the terminal's
// screen, and returns the screen.
func (s *termSeat) screen(t *testing.T, what string, cond func(string) bool) string {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for {
		text := s.g.ScreenText(s.scr)
		if cond(text) {
			return text
		}
		if time.Now().After(end) {
			t.Fatalf("%s: not on the terminal's screen:\n%s", what, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// key presses a key at the terminal.
func (s *termSeat) key(k tcell.Key, r rune) { s.scr.InjectKey(k, r, tcell.ModNone) }

// ready presses r at the terminal until done holds (read from the other
// peer's lobby: the terminal's player ready, or the table started). r acts
// on the table the terminal's lobby knows it sits at: pressed before that
// lobby has taken the join's (or the create's) answer, it does nothing,
// though the other peer already lists the player seated. Each press is
// given 10 seconds, so a press that took is never pressed again (undone).
func (s *termSeat) ready(t *testing.T, done func() bool) {
	t.Helper()
	for try := 0; ; try++ {
		s.key(tcell.KeyRune, 'r')
		for end := time.Now().Add(10 * time.Second); !done() && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
		if done() {
			return
		}
		if try == 2 {
			t.Fatalf("the terminal's r never made its player ready:\n%s", s.g.ScreenText(s.scr))
		}
	}
}

// memberReady says whether l lists table id with member name ready.
func memberReady(l *lobby.Lobby, id, name string) bool {
	a, ok := l.Table(id)
	if !ok {
		return false
	}
	for _, m := range a.Members {
		if m.Name == name && m.Ready {
			return true
		}
	}
	return false
}

// createForm opens the terminal lobby's create form (c) and fills it in
// down to its bots: the options typed, 2 players, no bots; the cursor is
// left on the bots' line.
func (s *termSeat) createForm(t *testing.T, options string) {
	t.Helper()
	s.key(tcell.KeyRune, 'c')
	s.screen(t, "the create form", func(text string) bool { return strings.Contains(text, "join     <") })
	s.key(tcell.KeyDown, 0)
	for _, r := range options {
		s.key(tcell.KeyRune, r)
	}
	s.key(tcell.KeyDown, 0)
	s.key(tcell.KeyLeft, 0) // players: 2
	s.key(tcell.KeyLeft, 0)
	s.key(tcell.KeyDown, 0)
	for range 3 {
		s.key(tcell.KeyLeft, 0) // bots: none
	}
}

// lobbyDOM is what the tests read from the lobby's page (and from the
// table's or the spectator's page the lobby hands over to).
type lobbyDOM struct {
	Path    string   `json:"path"`
	Title   string   `json:"title"`
	Rows    []string `json:"rows"`    // the tables' ids
	Seated  []string `json:"seated"`  // the tables the player sits at
	Members []int    `json:"members"` // seated members per row
	Ready   []int    `json:"ready"`   // ready members per row
	Watch   []string `json:"watch"`   // the tables offering watch
	Msg     string   `json:"msg"`
	Links   []string `json:"links"`
	Invite  string   `json:"invite"` // the invite code shown ("": none)
	Copy    string   `json:"copy"`   // the copy button's label
	Unfin   []string `json:"unfin"`  // the unfinished matches listed
	Local   []string `json:"local"`  // those against bots
	// The table's page.
	Rack     int      `json:"rack"`
	Draw     bool     `json:"draw"`
	Discard  bool     `json:"discard"`
	HandEnd  bool     `json:"handEnd"`
	MatchEnd bool     `json:"matchEnd"`
	Verdict  string   `json:"verdict"`
	Good     bool     `json:"good"`
	Cursor   bool     `json:"cursor"` // the cursor is on a tile
	Board    bool     `json:"board"`  // the spectator's page drawn
	Seats    []string `json:"seats"`  // the board's seats' names
	// The table page's links: each other seat's name and how it is reached.
	TLinks []string `json:"tlinks"`
	// The tournaments: shown at all, and per row its id, name, players
	// registered of those wanted, state, a join button; the standings
	// under a row (its heading and lines).
	TourOn bool      `json:"tourOn"`
	Tours  []tourRow `json:"tours"`
	NoTour bool      `json:"noTour"` // the "no tournament yet" line shown
}

// tourRow is a tournament as the lobby's page lists it.
type tourRow struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Reg       string   `json:"reg"`
	State     string   `json:"state"`
	Join      bool     `json:"join"`
	Head      string   `json:"head"`
	Standings []string `json:"standings"`
}

const readLobbyDOM browsertest.DOM[lobbyDOM] = `(() => {
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
		watch: all('#tables tr.lt button.watch').map((e) => e.closest('tr').dataset.id),
		msg: (q('#msg') || {textContent: ''}).textContent,
		links: all('#links li').map((e) => e.textContent),
		invite: q('#invite') && !q('#invite').hidden ? q('#invite-code').textContent : '',
		copy: (q('#copy') || {textContent: ''}).textContent,
		unfin: all('#unfin tr.ut').map((e) => e.dataset.id),
		local: all('#unfin tr.ut.local').map((e) => e.dataset.id),
		rack: all('#rack .tile').length,
		draw: !!q('#buttons button[data-op=draw].on'),
		discard: !!q('#buttons button[data-op=discard].on'),
		handEnd: !!p && !p.hidden && p.className === 'handend',
		matchEnd: !!p && !p.hidden && p.className === 'matchend',
		verdict: (q('#verdict') || {textContent: ''}).textContent,
		good: !!q('#verdict.good'),
		cursor: !!q('#rack .cell.cursor .tile'),
		board: document.body.classList.contains('watch'),
		seats: all('.seat .name').map((e) => e.textContent),
		tlinks: all('#links .link').map((e) => e.textContent),
		tourOn: !!q('#tours-box') && !q('#tours-box').hidden,
		noTour: !!q('#no-tours') && !q('#no-tours').hidden,
		tours: all('#tours tr.tt').map((e) => {
			const st = q('#tours tr.standings[data-id="' + e.dataset.id + '"]');
			return {
				id: e.dataset.id, name: e.querySelector('.tname').textContent, reg: e.querySelector('.treg').textContent,
				state: e.querySelector('.tstate').textContent, join: !!e.querySelector('button.tjoin'),
				head: st ? st.querySelector('.shead').textContent : '',
				standings: st ? [...st.querySelectorAll('li')].map((l) => l.textContent) : [],
			};
		}),
	};
})()`

// lobbyPage is the lobby's page in a tab of Chromium.
type lobbyPage struct {
	t *testing.T
	c context.Context
}

// read reads the page, again while it is being replaced (the lobby hands
// over to the table's page and back).
func (p lobbyPage) read() lobbyDOM {
	p.t.Helper()
	return readLobbyDOM.Read(p.t, p.c)
}

// until reads the page until ok holds, for 30 seconds at the most.
func (p lobbyPage) until(what string, ok func(lobbyDOM) bool) lobbyDOM {
	p.t.Helper()
	return readLobbyDOM.Until(p.t, p.c, 30*time.Second, what, ok)
}

// clickFor clicks sel until ok holds (a click on an element the page
// replaced at that moment is lost: a new state came).
func (p lobbyPage) clickFor(sel, what string, ok func(lobbyDOM) bool) lobbyDOM {
	p.t.Helper()
	return readLobbyDOM.ClickFor(p.t, p.c, sel, what, ok)
}

// playMatch plays the match of the page's table to its end by keys and
// clicks (the hands' panels closed), checks its honest verdict, and
// leaves its end panel for the lobby (scene names the screenshots).
func (p lobbyPage) playMatch(ctx context.Context, scene string) {
	t, c := p.t, p.c
	t.Helper()
	moves := 0
	for {
		d := p.read()
		switch {
		case d.MatchEnd:
			d = p.read()
			browsertest.Shoot(t, c, scene+"-match-end")
			if !d.Good || d.Verdict == "" {
				t.Fatalf("the match's end in the page: verdict %q (good %v)", d.Verdict, d.Good)
			}
			t.Logf("%s: the match over loopback libp2p ended after %d moves of the page's seat: %s", scene, moves, d.Verdict)
			p.clickFor("#panel button[data-op=leave]", "the lobby again", func(d lobbyDOM) bool { return d.Path == "/" && d.Title == "okey lobby" })
			return
		case d.HandEnd:
			p.clickFor("#close", "the hand's panel closed", func(e lobbyDOM) bool { return !e.HandEnd })
		case d.Draw:
			browsertest.Do(t, c, chromedp.KeyEvent("d"))
			p.until("the drawn tile", func(e lobbyDOM) bool { return !e.Draw || e.HandEnd || e.MatchEnd })
			moves++
		case d.Discard:
			if !d.Cursor {
				p.clickFor("#rack .tile", "the cursor on a tile", func(e lobbyDOM) bool { return e.Cursor || !e.Discard })
			}
			browsertest.Do(t, c, chromedp.KeyEvent("x"))
			p.until("the discard", func(e lobbyDOM) bool { return !e.Discard || e.HandEnd || e.MatchEnd || e.Rack < d.Rack })
			moves++
		default:
			if ctx.Err() != nil {
				t.Fatalf("the match did not end in time (%d moves): %+v", moves, d)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
