package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The browser tests drive a real Chromium (Debian's chromium, headless)
// through the table: the locks, a classic match against 3 bots played to
// its end by clicks, drags and keys (reading the DOM, never pixels), and
// the Turkish page. A screenshot of each scene goes to the test's artifact
// directory (go test -artifacts keeps it). Under CI=true a missing browser
// fails the test; elsewhere it skips with the reason.

// foreignHost is a name the browser resolves to the loopback address
// (--host-resolver-rules), as a DNS rebinding attack would.
const foreignHost = "rebind.example"

// browser starts the browser tests' Chromium: 85 seconds for all its
// tabs, and foreignHost resolved to the loopback address.
func browser(t *testing.T) context.Context {
	t.Helper()
	return browsertest.Start(t, browsertest.Options{Life: 85 * time.Second,
		Flags: map[string]any{"host-resolver-rules": "MAP " + foreignHost + " 127.0.0.1"}})
}

// table is a served web table with a match against 3 bots for its page.
type webTable struct {
	g    *Game
	srv  *Server
	data string
	out  chan *ui.LocalOutcome
	t0   time.Time
}

func startTable(t *testing.T, ruleset string) *webTable {
	t.Helper()
	w := &webTable{data: t.TempDir(), out: make(chan *ui.LocalOutcome, 1), t0: time.Now()}
	w.g = NewGame(0)
	w.g.Start()
	t.Cleanup(w.g.Quit)
	w.srv = serve(t)(Listen(w.g, 0))
	bots, names := botsFor(ruleset, 3)
	go func() {
		out, err := ui.PlayLocal(context.Background(), w.g, ui.LocalOptions{Ruleset: ruleset, Name: "ayse", Bots: bots, BotName: names, Data: w.data})
		if err != nil {
			out = &ui.LocalOutcome{Err: err}
		}
		w.out <- out
	}()
	return w
}

// open opens the table's page in a new tab, waits for the table drawn and
// then for the dealt rack, and logs both times from the server's start
// (the figure's name first).
func (w *webTable) open(t *testing.T, ctx context.Context, name string) context.Context {
	t.Helper()
	c := browsertest.Page(t, ctx, w.srv.URL(), "#rack .cell")
	drawn := time.Since(w.t0)
	browsertest.Visible(t, c, "#rack .tile")
	t.Logf("figure: %s: after the server and the match started, the table drawn in %v (the page and its first state), the dealt rack in %v (the protocol's shuffle and deal)",
		name, drawn.Round(time.Millisecond), time.Since(w.t0).Round(time.Millisecond))
	return c
}

// leave clicks the leave button sel in the page c: the table must end
// within 5 seconds.
func (w *webTable) leave(t *testing.T, c context.Context, sel string) {
	t.Helper()
	browsertest.Click(t, c, sel)
	select {
	case <-w.g.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the leave button did not leave")
	}
}

func TestBrowser(t *testing.T) {
	lane.NoRace(t)
	ctx := browser(t)
	t.Run("Locks", func(t *testing.T) { browserLocks(t, ctx) })
	t.Run("Match", func(t *testing.T) { browserMatch(t, ctx) })
	t.Run("Turkish", func(t *testing.T) { browserTurkish(t, ctx) })
}

// browserLocks: without the token 403, a foreign Host 403, a cross-origin
// WebSocket refused (while the page's own is admitted).
func browserLocks(t *testing.T, ctx context.Context) {
	w := startTable(t, "classic")
	defer w.g.Quit()
	c := browsertest.Tab(t, ctx)
	resp, err := chromedp.Run(c, chromedp.NavigateResponse(w.srv.Base()+"/"))
	if err != nil || resp.Status != http.StatusForbidden {
		t.Fatalf("no token: %v %v, want 403", resp, err)
	}
	browsertest.Shoot(t, c, "locks-no-token")
	foreign := "http://" + foreignHost + ":" + strconv.Itoa(w.srv.Port()) + "/?t=" + w.srv.token
	resp, err = chromedp.Run(c, chromedp.NavigateResponse(foreign))
	if err != nil || resp.Status != http.StatusForbidden {
		t.Fatalf("foreign Host: %v %v, want 403", resp, err)
	}
	// The player's own page: the token, then the cookie.
	browsertest.Open(t, c, w.srv.URL(), "#rack")
	if loc, _ := chromedp.Run(c, chromedp.Evaluate[string](`location.href`)); strings.Contains(loc, "t=") {
		t.Errorf("the token stays in the address bar: %s", loc)
	}
	if ck, _ := chromedp.Run(c, chromedp.Evaluate[string](`document.cookie`)); ck != "" {
		t.Errorf("the page's script reads the cookie %q: want HttpOnly", ck)
	}
	ws := "ws://127.0.0.1:" + strconv.Itoa(w.srv.Port()) + "/ws"
	own, err := browsertest.WebSocket(c, ws)
	if err != nil || own != "open" {
		t.Fatalf("the page's own WebSocket: %q %v", own, err)
	}
	// Another origin on the same machine (the cookie is the same site's, so
	// the browser sends it: the Origin check is what refuses).
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>elsewhere</title>")
	}))
	defer other.Close()
	browsertest.Do(t, c, chromedp.Navigate(other.URL))
	got, err := browsertest.WebSocket(c, ws)
	if err != nil || got != "refused" {
		t.Fatalf("a cross-origin WebSocket: %q %v, want refused", got, err)
	}
	select {
	case <-w.g.Done():
		t.Fatal("a refused page changed the table")
	default:
	}
}

// domState is what the test reads from the page.
type domState struct {
	Seq      int     `json:"seq"`
	Draw     bool    `json:"draw"`
	Discard  bool    `json:"discard"`
	HandEnd  bool    `json:"handEnd"`
	MatchEnd bool    `json:"matchEnd"`
	Tiles    []int   `json:"tiles"` // rack positions holding a tile
	Cursor   int     `json:"cursor"`
	Pile     int     `json:"pile"` // the player's discards shown
	Verdict  string  `json:"verdict"`
	Good     bool    `json:"good"`
	Turn     string  `json:"turn"`
	Lang     string  `json:"lang"`
	DrawText string  `json:"drawText"`
	Hinted   int     `json:"hinted"`
	Msg      string  `json:"msg"`
	Timer    string  `json:"timer"`
	Lifted   int     `json:"lifted"`
	Page     float64 `json:"page"` // ms from the last command sent to the rack's last change
}

const readDOM browsertest.DOM[domState] = `(() => {
	const q = (s) => document.querySelector(s);
	const p = q('#panel');
	const cur = q('#rack .cell.cursor');
	return {
		seq: Number(document.body.dataset.seq || 0),
		draw: !!q('#buttons button[data-op=draw].on'),
		discard: !!q('#buttons button[data-op=discard].on'),
		handEnd: !p.hidden && p.className === 'handend',
		matchEnd: !p.hidden && p.className === 'matchend',
		tiles: [...document.querySelectorAll('#rack .tile')].map((e) => Number(e.dataset.pos)),
		cursor: cur ? Number(cur.dataset.pos) : -1,
		pile: document.querySelectorAll('#seat-bottom .pile .tile').length + Number((q('#seat-bottom .more') || {textContent: '0'}).textContent.replace('+', '')),
		verdict: (q('#verdict') || {textContent: ''}).textContent,
		good: !!q('#verdict.good'),
		turn: q('#turn').textContent,
		lang: document.documentElement.lang,
		drawText: q('#buttons button[data-op=draw]').textContent,
		hinted: document.querySelectorAll('#rack .tile.hinted').length,
		timer: q('#timer').textContent,
		msg: q('#msg').textContent,
		timer: q('#timer').textContent,
		page: Number(document.body.dataset.rackAt || 0) - Number(document.body.dataset.sentAt || 0),
		lifted: Number((q('#rack .tile.lifted') || {dataset: {pos: -1}}).dataset.pos),
	};
})()`

// browserMatch plays classic matches against 3 bots to their ends in the
// page: draws by key and by a click on the stock, discards by a drag onto
// the discard spot, by a double click on the hinted tile and by a key,
// arranges the rack by a drag and by the keyboard (kept in the RackFile),
// closes the hands' panels, and reads each match's verdict. One hand ends
// a points=1 match and a bot may go out a few turns after the (random)
// deal: then another match goes on where the last left off, until every
// way to play was tried (maxMatches at most).
func browserMatch(t *testing.T, ctx context.Context) {
	var p browserPlay
	for match := 1; !p.covered(); match++ {
		if match > maxMatches {
			t.Fatalf("%d matches ended before every way to play was tried: %d draws, %d discards", maxMatches, p.draws, p.discards)
		}
		if match > 1 {
			t.Logf("match %d ended before every way to play was tried (%d draws, %d discards so far): another match", match-1, p.draws, p.discards)
		}
		p.play(t, ctx, match)
	}
	slices.Sort(p.shown)
	slices.Sort(p.inPage)
	// A figure, not a check: the machine's load decides it (no timing luck
	// in a test's verdict).
	t.Logf("figure: a discard shown: in the page, from the command sent to the rack redrawn, %v median, %v max over %d; "+
		"as the test sees it (the CDP input and the DOM polled) %v median, %v max",
		p.inPage[len(p.inPage)/2].Round(time.Millisecond/10), p.inPage[len(p.inPage)-1].Round(time.Millisecond/10), len(p.inPage),
		p.shown[len(p.shown)/2].Round(time.Millisecond), p.shown[len(p.shown)-1].Round(time.Millisecond))
	t.Logf("%d moves, %d hands", p.moves, p.ends)
}

// maxMatches is how many matches browserMatch plays at most (a match
// that ended before the page tried every way to play, 2 draws and 2
// discards in, was seen once in a cold run of make test).
const maxMatches = 3

// browserPlay is what browserMatch's matches did so far.
type browserPlay struct {
	moves, draws, discards, ends int
	arranged, keyed              bool
	shown, inPage                []time.Duration // a discard shown: as the test saw it, in the page
}

// covered reports whether every way to play was tried.
func (p *browserPlay) covered() bool {
	return p.arranged && p.keyed && p.discards >= 3 && p.draws >= 2
}

// play plays one match to its end, its verdict honest, and leaves it.
func (p *browserPlay) play(t *testing.T, ctx context.Context, match int) {
	w := startTable(t, "classic:points=1")
	c := w.open(t, ctx, "classic")
	if match == 1 {
		browsertest.Shoot(t, c, "match-start")
	}
	deadline := time.Now().Add(70 * time.Second)
play:
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end in time (%d moves)", p.moves)
		}
		s := readDOM.Read(t, c)
		switch {
		case s.MatchEnd:
			break play
		case s.HandEnd:
			if p.ends == 0 {
				browsertest.Shoot(t, c, "match-hand-end")
			}
			p.ends++
			if p.ends%2 == 1 {
				browsertest.Click(t, c, "#close")
			} else {
				browsertest.Key(t, c, kb.Enter)
			}
			readDOM.Until(t, c, 5*time.Second, "the hand's panel to close", func(d domState) bool { return d.Seq != s.Seq })
		case s.Draw:
			p.draws++
			if p.draws%2 == 1 {
				browsertest.Key(t, c, "d")
			} else {
				browsertest.Click(t, c, "#stock")
			}
			readDOM.Until(t, c, 5*time.Second, "the drawn tile", func(d domState) bool { return !d.Draw || d.MatchEnd || d.HandEnd })
			p.moves++
		case s.Discard && !p.arranged:
			// A drag on the rack: the tile stands where it was dropped,
			// and the arrangement is kept in the match's RackFile.
			from := s.Tiles[0]
			to := -1
			for p := tablemodel.RackCols; p < tablemodel.RackSize; p++ {
				if !slices.Contains(s.Tiles, p) {
					to = p
					break
				}
			}
			browsertest.Drag(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, from), fmt.Sprintf(`#rack .cell[data-pos="%d"]`, to))
			readDOM.Until(t, c, 5*time.Second, "the dragged tile", func(d domState) bool { return slices.Contains(d.Tiles, to) && !slices.Contains(d.Tiles, from) })
			readDOM.Until(t, c, 5*time.Second, "the rack file", func(domState) bool { return rackFileHas(w.data, to) })
			p.arranged = true
		case s.Discard && !p.keyed:
			keyMove(t, c, s)
			p.keyed = true
		case s.Discard:
			p.discards++
			before := readDOM.Read(t, c)
			t0 := time.Now()
			switch p.discards % 3 {
			case 1:
				browsertest.Drag(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, before.Tiles[len(before.Tiles)-1]), "#discard")
			case 2:
				browsertest.Key(t, c, "h")
				h := readDOM.Until(t, c, 5*time.Second, "the hint", func(d domState) bool { return d.Hinted > 0 || !d.Discard })
				t0 = time.Now()
				if h.Hinted > 0 {
					// The page may draw a new state between finding the
					// hinted tile and clicking it (the node is replaced):
					// find it again while the hint still stands.
					for try := 0; ; try++ {
						err := chromedp.Do(c, chromedp.DoubleClick(chromedp.CSS("#rack .tile.hinted")))
						if err == nil {
							break
						}
						if try == 4 || !strings.Contains(err.Error(), "Could not find node") {
							t.Fatal(err)
						}
						if d := readDOM.Read(t, c); d.Hinted == 0 || !d.Discard {
							break
						}
					}
				} else {
					browsertest.Key(t, c, "x")
				}
			default:
				if !slices.Contains(before.Tiles, before.Cursor) {
					browsertest.Click(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, before.Tiles[0]))
				}
				browsertest.Key(t, c, "x")
			}
			after := readDOM.Until(t, c, 5*time.Second, "the discard shown", func(d domState) bool {
				return len(d.Tiles) < len(before.Tiles) || d.HandEnd || d.MatchEnd
			})
			if len(after.Tiles) < len(before.Tiles) {
				p.shown = append(p.shown, time.Since(t0))
				p.inPage = append(p.inPage, time.Duration(after.Page*float64(time.Millisecond)))
			}
			p.moves++
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
	s := readDOM.Read(t, c)
	if match == 1 {
		browsertest.Shoot(t, c, "match-end")
	} else {
		browsertest.Shoot(t, c, fmt.Sprintf("match-end-%d", match))
	}
	if !s.Good || s.Verdict == "" {
		t.Fatalf("the match's end: verdict %q (good %v)", s.Verdict, s.Good)
	}
	w.leave(t, c, "#panel button[data-op=leave]")
	if out := <-w.out; out.Err != nil || out.Report == nil || !out.Report.Honest {
		t.Fatalf("the match: %+v", out)
	}
}

// keyMove moves a tile on the rack by the keyboard alone, as at the
// terminal: the arrows take the cursor to a tile with a gap under (or
// over) it, space picks it up, an arrow moves, space puts it down.
func keyMove(t *testing.T, c context.Context, s domState) {
	t.Helper()
	from, to := -1, -1
	for _, p := range s.Tiles {
		q := (p + tablemodel.RackCols) % tablemodel.RackSize
		if !slices.Contains(s.Tiles, q) {
			from, to = p, q
			break
		}
	}
	if from < 0 {
		t.Fatalf("no tile with a gap beside it: %v", s.Tiles)
	}
	key := func(k string, what string, ok func(domState) bool) {
		t.Helper()
		browsertest.Key(t, c, k)
		readDOM.Until(t, c, 5*time.Second, what, ok)
	}
	for cur := s.Cursor; cur != from; cur = (cur + 1) % tablemodel.RackSize {
		next := (cur + 1) % tablemodel.RackSize
		key(kb.ArrowRight, "the cursor", func(d domState) bool { return d.Cursor == next })
	}
	key(" ", "the tile picked up", func(d domState) bool { return d.Lifted == from })
	arrow := kb.ArrowDown
	if to < from {
		arrow = kb.ArrowUp
	}
	key(arrow, "the cursor on the gap", func(d domState) bool { return d.Cursor == to })
	key(" ", "the tile put down", func(d domState) bool {
		return slices.Contains(d.Tiles, to) && !slices.Contains(d.Tiles, from) && d.Lifted < 0
	})
}

// rackFileHas reports whether the match's RackFile holds a tile at p.
func rackFileHas(data string, p int) bool {
	files, _ := filepath.Glob(filepath.Join(data, "matches", "*", tablemodel.RackFile))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && rackPos(b, p) {
			return true
		}
	}
	return false
}

// browserTurkish: the page in Turkish, every word from the catalogue.
func browserTurkish(t *testing.T, ctx context.Context) {
	i18n.Set(i18n.Turkish)
	defer i18n.Set(i18n.English)
	w := startTable(t, "classic:timer=30")
	defer w.g.Quit()
	c := browsertest.Page(t, ctx, w.srv.URL(), "#rack .tile")
	s := readDOM.Until(t, c, 10*time.Second, "a Turkish turn line and the turn's timer", func(d domState) bool { return d.Turn != "" && d.Timer != "" })
	if !strings.HasPrefix(s.Timer, "süre ") {
		t.Errorf("the timer reads %q", s.Timer)
	}
	if s.Lang != "tr" || s.DrawText != "çek" {
		t.Fatalf("the Turkish page: lang %q, draw %q", s.Lang, s.DrawText)
	}
	text := browsertest.Eval[string](t, c, `document.body.innerText`)
	for _, en := range []string{"draw", "discard", "your turn", "stock", "indicator", " to play"} {
		if strings.Contains(text, en) {
			t.Errorf("the Turkish page says %q", en)
		}
	}
	browsertest.Shoot(t, c, "turkish")
}

// rackPos reports whether the kept rack (rack.json: by position, the slot
// standing there or -1) has a tile at p.
func rackPos(b []byte, p int) bool {
	var st struct {
		Pos []int `json:"pos"`
	}
	return json.Unmarshal(b, &st) == nil && p < len(st.Pos) && st.Pos[p] >= 0
}
