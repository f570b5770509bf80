package web

import (
	"context"
	"encoding/json"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/ui"
)

// dropListener is the server's listener with its connections kept, so
// that a test can drop them (the page's socket among them) while the
// server goes on, and can refuse new ones for a while.
type dropListener struct {
	net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	refuse bool
}

func (l *dropListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if l.refuse {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.conns = append(l.conns, c)
		l.mu.Unlock()
		return c, nil
	}
}

// drop closes every connection accepted so far; refuse says whether new
// ones are closed at once from now on.
func (l *dropListener) drop(refuse bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
	l.refuse = refuse
}

// serveDropping serves a server just opened (Listen's or ListenLobby's
// answer) through a dropListener, until the test's end.
func serveDropping(t *testing.T) func(*Server, error) (*Server, *dropListener) {
	return func(s *Server, err error) (*Server, *dropListener) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		dl := &dropListener{Listener: s.ln}
		s.ln = dl
		go s.Serve()
		t.Cleanup(func() { s.Close() })
		return s, dl
	}
}

func (l *dropListener) admit() {
	l.mu.Lock()
	l.refuse = false
	l.mu.Unlock()
}

// reconnectDOM is what TestBrowserReconnect reads of the page.
type reconnectDOM struct {
	Opens        int      `json:"opens"`
	Reconnecting bool     `json:"reconnecting"`
	Gone         bool     `json:"gone"`
	Seen         []string `json:"seen"` // every text the message line showed
	Tiles        int      `json:"tiles"`
	Draw         bool     `json:"draw"`
	Discard      bool     `json:"discard"`
	HandEnd      bool     `json:"handEnd"`
}

const readReconnect = `(() => ({
	opens: Number(document.body.dataset.opens || 0),
	reconnecting: document.body.classList.contains('reconnecting'),
	gone: document.body.classList.contains('gone'),
	seen: window.msgSeen || [],
	tiles: document.querySelectorAll('#rack .tile').length,
	draw: !!document.querySelector('#buttons button[data-op=draw].on'),
	discard: !!document.querySelector('#buttons button[data-op=discard].on'),
	handEnd: !document.getElementById('panel').hidden,
}))()`

// TestBrowserReconnect: the page's socket dropped by the server's side
// while the process still serves the table (once, then again with new
// connections refused for a while) comes back by itself: the page says it
// is reconnecting meanwhile, opens a new socket, shows the table as the
// process holds it, and plays on (a draw or a discard from the page is
// taken). Without the reconnection the page stays gone.
func TestBrowserReconnect(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English)
	ctx := browser(t)
	g := NewGame(0)
	g.Start()
	t.Cleanup(g.Quit)
	srv, dl := serveDropping(t)(Listen(g, 0))
	bots, names := greedyBots(3)
	mctx, stop := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_, _ = ui.PlayLocal(mctx, g, ui.LocalOptions{Ruleset: "classic", Name: "ayse", Bots: bots, BotName: names, Data: t.TempDir()})
	}()
	t.Cleanup(func() { g.Quit(); stop(); <-ended })

	c := browsertest.Tab(t, ctx)
	if err := chromedp.Do(c, chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("#rack .tile"))); err != nil {
		t.Fatal(err)
	}
	// Every text of the message line is kept, however briefly it shows.
	if _, err := chromedp.Run(c, chromedp.Evaluate[bool](`(() => { window.msgSeen = [];
		new MutationObserver(() => window.msgSeen.push(document.getElementById('msg').textContent))
			.observe(document.getElementById('msg'), {childList: true, characterData: true, subtree: true}); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	read := func() reconnectDOM {
		t.Helper()
		d, err := chromedp.Run(c, chromedp.Evaluate[reconnectDOM](readReconnect))
		if err != nil {
			t.Fatalf("reading the page: %v", err)
		}
		return d
	}
	wait := func(d time.Duration, what string, ok func(reconnectDOM) bool) reconnectDOM {
		t.Helper()
		end := time.Now().Add(d)
		for {
			s := read()
			if ok(s) {
				return s
			}
			if time.Now().After(end) {
				t.Fatalf("waited %v for %s; the page: %+v", d, what, s)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// The page's one socket so far (app.js counts its openings).
	const opened = 1
	label := i18n.T("the connection to okey dropped: reconnecting…")

	for round, refuseFor := range []time.Duration{0, 1500 * time.Millisecond} {
		opens := opened + round
		dl.drop(refuseFor > 0)
		if refuseFor > 0 {
			// The page tries while every new connection is closed at once:
			// it keeps trying (and saying so).
			wait(10*time.Second, "the page reconnecting", func(s reconnectDOM) bool { return s.Reconnecting })
			time.Sleep(refuseFor)
			if s := read(); s.Opens != opens || !s.Reconnecting {
				t.Fatalf("while refused: %+v", s)
			}
			dl.admit()
		}
		s := wait(20*time.Second, "the socket opened again", func(s reconnectDOM) bool { return s.Opens == opens+1 && !s.Reconnecting })
		if !slices.Contains(s.Seen, label) {
			t.Errorf("round %d: the message line never said %q: %q", round, label, s.Seen)
		}
		if s.Gone {
			t.Errorf("round %d: the page is still marked gone: %+v", round, s)
		}
		// The table as the process holds it: the seat's rack (it changes only
		// by the page's own moves, and none was sent).
		// (A new hand may be dealt meanwhile: the process's rack is read
		// again at each look.)
		held := func() int {
			g.mu.Lock()
			defer g.mu.Unlock()
			var cur struct {
				Rack []json.RawMessage `json:"rack"`
			}
			_ = json.Unmarshal(g.state, &cur)
			return len(cur.Rack)
		}
		wait(5*time.Second, "the rack as the process holds it", func(s reconnectDOM) bool { return s.Tiles == held() })
		// And it plays on: the seat's next move, from the page (a hand's
		// panel, if a bot won meanwhile, closed first).
		s = wait(20*time.Second, "the seat's turn", func(s reconnectDOM) bool {
			if s.HandEnd {
				_ = chromedp.Do(c, chromedp.KeyEvent(kb.Enter))
			}
			return (s.Draw || s.Discard) && !s.HandEnd
		})
		before := s.Tiles
		if s.Draw {
			if err := chromedp.Do(c, chromedp.KeyEvent("d")); err != nil {
				t.Fatal(err)
			}
			wait(10*time.Second, "the drawn tile", func(s reconnectDOM) bool { return s.Tiles == before+1 })
		} else {
			if err := chromedp.Do(c, chromedp.DoubleClick(chromedp.CSS("#rack .tile"))); err != nil && !strings.Contains(err.Error(), "Could not find node") {
				t.Fatal(err)
			}
			wait(10*time.Second, "the discard", func(s reconnectDOM) bool { return s.Tiles == before-1 })
		}
		if _, err := chromedp.Run(c, chromedp.Evaluate[bool](`(() => { window.msgSeen = []; return true; })()`)); err != nil {
			t.Fatal(err)
		}
	}
	browsertest.Shoot(t, c, "reconnected")
}
