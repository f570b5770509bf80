package web

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// lobbyReconnectDOM is what TestBrowserLobbyReconnect reads of the page.
type lobbyReconnectDOM struct {
	Opens        int      `json:"opens"`
	Reconnecting bool     `json:"reconnecting"`
	Gone         bool     `json:"gone"`
	Seen         []string `json:"seen"` // every text the message line showed
	Rows         []string `json:"rows"` // the tables listed
}

var readLobbyReconnect = browsertest.DOM[lobbyReconnectDOM](`(() => ({
	opens: Number(document.body.dataset.opens || 0),
	reconnecting: document.body.classList.contains('reconnecting'),
	gone: document.body.classList.contains('gone'),
	seen: window.msgSeen || [],
	rows: Array.from(document.querySelectorAll('#tables tr.lt')).map((e) => e.dataset.id),
}))()`)

// TestBrowserLobbyReconnect: the lobby page's socket dropped by the
// server's side while okey still serves the lobby (once, then again with
// new connections refused for a while) comes back by itself, saying it is
// reconnecting meanwhile, and shows the lobby as okey holds it then (a
// table listed while the page was away). Without the reconnection the page
// stays gone.
func TestBrowserLobbyReconnect(t *testing.T) {
	lane.NoRace(t) // Chromium; the lobby's socket is raced in TestLobbySocket
	i18n.Set(i18n.English)
	ctx := browser(t)
	f := &fakeLobby{changes: make(chan struct{}, 1)}
	lctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l := NewLobby(lctx, f, func(table.LobbyTable) {})
	srv, dl := serveDropping(t)(ListenLobby(l, 0))
	go l.Run()

	c := browsertest.Page(t, ctx, srv.URL(), "#c-create")
	// Every text of the message line is kept, however briefly it shows.
	browsertest.Eval[bool](t, c, `(() => { window.msgSeen = [];
		new MutationObserver(() => window.msgSeen.push(document.getElementById('msg').textContent))
			.observe(document.getElementById('msg'), {childList: true, characterData: true, subtree: true}); return true; })()`)
	readLobbyReconnect.Until(t, c, 10*time.Second, "the lobby's socket open", func(d lobbyReconnectDOM) bool { return d.Opens == 1 })
	label := i18n.T("the connection to okey dropped: reconnecting…")

	for round, refuseFor := range []time.Duration{0, 1500 * time.Millisecond} {
		opens := 1 + round
		dl.drop(refuseFor > 0)
		if refuseFor > 0 {
			// The page tries while every new connection is closed at once:
			// it keeps trying, and saying so.
			readLobbyReconnect.Until(t, c, 10*time.Second, "the page reconnecting", func(d lobbyReconnectDOM) bool { return d.Reconnecting })
			// A table listed while the page cannot hear: shown once it is back.
			f.set(table.LobbyTable{ID: "t9", Ruleset: "classic", Seats: 4, State: "open",
				Members: []table.LobbyMember{{Name: "mehmet"}}})
			time.Sleep(refuseFor)
			if d := readLobbyReconnect.Read(t, c); d.Opens != opens || !d.Reconnecting {
				t.Fatalf("while refused: %+v", d)
			}
			dl.admit()
		}
		d := readLobbyReconnect.Until(t, c, 20*time.Second, "the socket opened again", func(d lobbyReconnectDOM) bool {
			return d.Opens == opens+1 && !d.Reconnecting
		})
		if !slices.Contains(d.Seen, label) {
			t.Errorf("round %d: the message line never said %q: %q", round, label, d.Seen)
		}
		if d.Gone {
			t.Errorf("round %d: the page is still marked gone: %+v", round, d)
		}
		browsertest.Eval[bool](t, c, `(() => { window.msgSeen = []; return true; })()`)
	}
	readLobbyReconnect.Until(t, c, 10*time.Second, "the table listed while the page was away", func(d lobbyReconnectDOM) bool {
		return slices.Contains(d.Rows, "t9")
	})
	browsertest.Shoot(t, c, "lobby-reconnected")
}
