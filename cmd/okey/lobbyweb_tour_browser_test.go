package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/lane"
)

// tourRun is an okey tournament command run in this process (its own
// libp2p hosts on loopback, no mDNS, dialling the web seat).
type tourRun struct {
	out, err bytes.Buffer
	done     chan int
	code     *int // the exit status, once taken from done
}

// startTourRun runs okey tournament with args, reaching the web seat at
// peer; its data and folder under dir.
func startTourRun(t *testing.T, peer, dir string, args ...string) *tourRun {
	t.Helper()
	r := &tourRun{done: make(chan int, 1)}
	args = append(args, "--bot", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--peer", peer,
		"--dir", filepath.Join(dir, "t"), "--data", filepath.Join(dir, "data"), "--linger", "1s")
	go func() { r.done <- runTournament(args, nil, &r.out, &r.err) }()
	return r
}

// wait waits up to d for the command's end: its exit status, or -1 (an
// error of the test).
func (r *tourRun) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	if r.code != nil {
		return *r.code
	}
	select {
	case code := <-r.done:
		r.code = &code
		return code
	case <-time.After(d):
		t.Errorf("okey tournament did not end:\n%s%s", r.out.String(), r.err.String())
		return -1
	}
}

// TestWebLobbyTournament: the web lobby's page lists the LAN's
// tournaments and plays them. okey play --web (loopback libp2p, no mDNS)
// serves its lobby to Chromium; another process's okey tournament create
// --open --bot (4 players) is listed on the page (name, rules,
// registered/wanted, state), and the page's join registers the player in
// it. The page then announces a tournament of its own (3 players, one
// round, points=1) from its form; okey tournament join --id with a bot
// seat and one more bot fills it; the round's table takes the page, which
// plays the match to its end (an honest verdict), and its leave brings the
// lobby back, where the tournament shows as ended with the final standings
// of the three players. okey tournament join ends honest with the same
// final standings.
func TestWebLobbyTournament(t *testing.T) {
	lane.NoRace(t)
	ctx := lobbyTest(t, 170*time.Second)
	t0 := time.Now()
	ws := startWebSeat(t, ctx, t.TempDir())
	defer ws.end(t)
	peer := ws.peer(t)

	// Another process's open tournament of 4: its creator, a bot.
	lan := startTourRun(t, peer, t.TempDir(), "create", "--open", "--players", "4", "--rounds", "1", "--title", "lan cup", "--wait", "15s")
	defer lan.wait(t, 60*time.Second)

	c := browsertest.Start(t, browsertest.Options{Parent: ctx})
	defer chromedp.Cancel(c)
	p := lobbyPage{t, c}
	browsertest.Do(t, c, chromedp.Navigate(ws.srv.URL()), chromedp.WaitVisible(chromedp.CSS("#t-create")))
	tour := func(d lobbyDOM, name string) (tourRow, bool) {
		i := slices.IndexFunc(d.Tours, func(r tourRow) bool { return r.Name == name })
		if i < 0 {
			return tourRow{}, false
		}
		return d.Tours[i], true
	}
	d := p.until("the other process's tournament listed", func(d lobbyDOM) bool {
		r, ok := tour(d, "lan cup")
		return d.TourOn && ok && r.Reg == "1/4" && r.Join
	})
	if r, _ := tour(d, "lan cup"); !strings.HasPrefix(r.State, "registering, 1 rounds") {
		t.Fatalf("the tournament's state: %+v", r)
	}
	browsertest.Shoot(t, c, "webtour-listed")
	lanID, _ := tour(d, "lan cup")
	p.clickFor(`#tours tr.tt[data-id="`+lanID.ID+`"] button.tjoin`, "registered in the other process's tournament", func(d lobbyDOM) bool {
		r, _ := tour(d, "lan cup")
		return r.Reg == "2/4" && !r.Join && strings.HasSuffix(r.State, "you play") && d.Msg == "registering in lan cup: done"
	})

	// The page's own tournament: 3 players, one round, a short match.
	browsertest.Do(t, c, chromedp.SetValue(chromedp.CSS("#t-name"), "page cup"), chromedp.SetValue(chromedp.CSS("#t-players"), "3"),
		chromedp.SetValue(chromedp.CSS("#t-rounds"), "1"), chromedp.SetValue(chromedp.CSS("#t-options"), "points=1"))
	tc := time.Now()
	browsertest.Click(t, c, "#t-create")
	d = p.until("the page's tournament announced, the player registered", func(d lobbyDOM) bool {
		r, ok := tour(d, "page cup")
		return ok && r.Reg == "1/3" && strings.HasSuffix(r.State, "you play") && !r.Join
	})
	mine, _ := tour(d, "page cup")
	t.Logf("figure: a click on the page's announce to the tournament listed with the player registered: %v", time.Since(tc).Round(time.Millisecond))
	browsertest.Shoot(t, c, "webtour-announced")

	// Two bot players of another process join it by its id.
	bots := startTourRun(t, peer, t.TempDir(), "join", "--id", mine.ID, "--bots", "1", "--wait", "120s")
	defer bots.wait(t, 30*time.Second)
	tr := time.Now()
	readTourDOM(t, p, 60*time.Second, "the round's table on the page", func(d lobbyDOM) bool { return d.Path == "/table" && d.Rack > 0 })
	t.Logf("figure: the bots' process started to the round's table drawn on the page: %v", time.Since(tr).Round(time.Millisecond))
	browsertest.Shoot(t, c, "webtour-table")
	p.playMatch(ctx, "webtour")

	// Back in the lobby: the tournament has ended, with the final standings.
	d = readTourDOM(t, p, 60*time.Second, "the final standings", func(d lobbyDOM) bool {
		r, _ := tour(d, "page cup")
		return d.Path == "/" && strings.HasPrefix(r.State, "ended") && r.Head == "final standings:" && len(r.Standings) == 3
	})
	browsertest.Shoot(t, c, "webtour-standings")
	r, _ := tour(d, "page cup")
	if r.Reg != "3/3" || !strings.HasSuffix(r.State, "you played") || r.Join {
		t.Fatalf("the ended tournament's row: %+v", r)
	}
	for i, line := range r.Standings {
		if !strings.HasPrefix(line, string(rune('1'+i))+". ") || !strings.Contains(line, " points, score ") {
			t.Fatalf("the standings: %q", r.Standings)
		}
	}
	if !slices.ContainsFunc(r.Standings, func(s string) bool { return strings.Contains(s, "ayse") }) {
		t.Fatalf("the page's player is not in the standings: %q", r.Standings)
	}
	if code := bots.wait(t, 60*time.Second); code != 0 || !strings.Contains(bots.out.String(), "final standings:") {
		t.Fatalf("okey tournament join ended with %d:\n%s%s", code, bots.out.String(), bots.err.String())
	}
	t.Logf("figure: okey play --web started to the tournament's final standings on the page: %v", time.Since(t0).Round(time.Millisecond))
}

// readTourDOM reads the page until ok holds, for d at the most.
func readTourDOM(t *testing.T, p lobbyPage, d time.Duration, what string, ok func(lobbyDOM) bool) lobbyDOM {
	t.Helper()
	return readLobbyDOM.Until(t, p.c, d, what, ok)
}
