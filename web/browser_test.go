package web

import (
	"context"
	"encoding/json"
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

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

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

func chromium(t *testing.T) string {
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

// browser starts a headless Chromium with a fresh profile.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // as root
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("host-resolver-rules", "MAP "+foreignHost+" 127.0.0.1"),
		chromedp.WindowSize(1280, 860),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 85*time.Second)
	t.Cleanup(cancel3)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("chromium does not start: %v", err)
	}
	return ctx
}

// tab is a new tab of the browser.
func tab(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	c, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	return c
}

func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
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
	srv, err := Listen(w.g, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.srv = srv
	go srv.Serve()
	t.Cleanup(func() { srv.Close() })
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
	c := tab(t, ctx)
	resp, err := chromedp.Run(c, chromedp.NavigateResponse(w.srv.Base()+"/"))
	if err != nil || resp.Status != http.StatusForbidden {
		t.Fatalf("no token: %v %v, want 403", resp, err)
	}
	shoot(t, c, "locks-no-token")
	foreign := "http://" + foreignHost + ":" + strconv.Itoa(w.srv.Port()) + "/?t=" + w.srv.token
	resp, err = chromedp.Run(c, chromedp.NavigateResponse(foreign))
	if err != nil || resp.Status != http.StatusForbidden {
		t.Fatalf("foreign Host: %v %v, want 403", resp, err)
	}
	// The player's own page: the token, then the cookie.
	if err := chromedp.Do(c, chromedp.Navigate(w.srv.URL()), chromedp.WaitVisible(CSS("#rack"))); err != nil {
		t.Fatal(err)
	}
	if loc, _ := chromedp.Run(c, chromedp.Evaluate[string](`location.href`)); strings.Contains(loc, "t=") {
		t.Errorf("the token stays in the address bar: %s", loc)
	}
	if ck, _ := chromedp.Run(c, chromedp.Evaluate[string](`document.cookie`)); ck != "" {
		t.Errorf("the page's script reads the cookie %q: want HttpOnly", ck)
	}
	probe := `new Promise((res) => { const ws = new WebSocket("ws://127.0.0.1:` + strconv.Itoa(w.srv.Port()) + `/ws");
		ws.onopen = () => { ws.close(); res("open"); }; ws.onerror = () => res("refused"); setTimeout(() => res("timeout"), 4000); })`
	own, err := chromedp.Run(c, chromedp.Evaluate[string](probe, chromedp.EvalAwaitPromise))
	if err != nil || own != "open" {
		t.Fatalf("the page's own WebSocket: %q %v", own, err)
	}
	// Another origin on the same machine (the cookie is the same site's, so
	// the browser sends it: the Origin check is what refuses).
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>elsewhere</title>")
	}))
	defer other.Close()
	if err := chromedp.Do(c, chromedp.Navigate(other.URL)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(c, chromedp.Evaluate[string](probe, chromedp.EvalAwaitPromise))
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

const readDOM = `(() => {
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

func read(t *testing.T, c context.Context) domState {
	t.Helper()
	d, err := chromedp.Run(c, chromedp.Evaluate[domState](readDOM))
	if err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	return d
}

// until polls the page until ok holds, or fails after d.
func until(t *testing.T, c context.Context, d time.Duration, what string, ok func(domState) bool) domState {
	t.Helper()
	end := time.Now().Add(d)
	for {
		s := read(t, c)
		if ok(s) {
			return s
		}
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s; the page: %+v", d, what, s)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// centre is the middle of the element sel on the page.
func centre(t *testing.T, c context.Context, sel string) (float64, float64) {
	t.Helper()
	xy, err := chromedp.Run(c, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector(`+strconv.Quote(sel)+`).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`))
	if err != nil || len(xy) != 2 {
		t.Fatalf("where is %s: %v", sel, err)
	}
	return xy[0], xy[1]
}

// dragTo drags the element from onto the element to with the mouse.
func dragTo(t *testing.T, c context.Context, from, to string) {
	t.Helper()
	x0, y0 := centre(t, c, from)
	x1, y1 := centre(t, c, to)
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatal(err)
	}
}

// browserMatch plays a classic match against 3 bots to its end in the
// page: draws by key and by a click on the stock, discards by a drag onto
// the discard spot, by a double click on the hinted tile and by a key,
// arranges the rack by a drag and by the keyboard (kept in the RackFile),
// closes the hands' panels, and reads the match's verdict.
func browserMatch(t *testing.T, ctx context.Context) {
	w := startTable(t, "classic:points=1")
	c := tab(t, ctx)
	if err := chromedp.Do(c, chromedp.Navigate(w.srv.URL()), chromedp.WaitVisible(CSS("#rack .cell"))); err != nil {
		t.Fatal(err)
	}
	drawn := time.Since(w.t0)
	if err := chromedp.Do(c, chromedp.WaitVisible(CSS("#rack .tile"))); err != nil {
		t.Fatal(err)
	}
	t.Logf("figure: after the server started, the table drawn in %v (the page and its first state), the dealt rack in %v (the protocol's shuffle and deal)",
		drawn.Round(time.Millisecond), time.Since(w.t0).Round(time.Millisecond))
	shoot(t, c, "match-start")
	var (
		moves, draws, discards, ends int
		arranged, keyed              bool
		shown, inPage                []time.Duration
		deadline                     = time.Now().Add(70 * time.Second)
	)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end in time (%d moves)", moves)
		}
		s := read(t, c)
		switch {
		case s.MatchEnd:
			goto over
		case s.HandEnd:
			if ends == 0 {
				shoot(t, c, "match-hand-end")
			}
			ends++
			if ends%2 == 1 {
				if err := chromedp.Do(c, chromedp.Click(CSS("#close"))); err != nil {
					t.Fatal(err)
				}
			} else if err := chromedp.Do(c, chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatal(err)
			}
			until(t, c, 5*time.Second, "the hand's panel to close", func(d domState) bool { return d.Seq != s.Seq })
		case s.Draw:
			draws++
			var err error
			if draws%2 == 1 {
				err = chromedp.Do(c, chromedp.KeyEvent("d"))
			} else {
				err = chromedp.Do(c, chromedp.Click(CSS("#stock")))
			}
			if err != nil {
				t.Fatal(err)
			}
			until(t, c, 5*time.Second, "the drawn tile", func(d domState) bool { return !d.Draw || d.MatchEnd || d.HandEnd })
			moves++
		case s.Discard && !arranged:
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
			dragTo(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, from), fmt.Sprintf(`#rack .cell[data-pos="%d"]`, to))
			until(t, c, 5*time.Second, "the dragged tile", func(d domState) bool { return slices.Contains(d.Tiles, to) && !slices.Contains(d.Tiles, from) })
			until(t, c, 5*time.Second, "the rack file", func(domState) bool { return rackFileHas(w.data, to) })
			arranged = true
		case s.Discard && !keyed:
			keyMove(t, c, s)
			keyed = true
		case s.Discard:
			discards++
			before := read(t, c)
			t0 := time.Now()
			switch discards % 3 {
			case 1:
				dragTo(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, before.Tiles[len(before.Tiles)-1]), "#discard")
			case 2:
				if err := chromedp.Do(c, chromedp.KeyEvent("h")); err != nil {
					t.Fatal(err)
				}
				h := until(t, c, 5*time.Second, "the hint", func(d domState) bool { return d.Hinted > 0 || !d.Discard })
				t0 = time.Now()
				if h.Hinted > 0 {
					// The page may draw a new state between finding the
					// hinted tile and clicking it (the node is replaced):
					// find it again while the hint still stands.
					for try := 0; ; try++ {
						err := chromedp.Do(c, chromedp.DoubleClick(CSS("#rack .tile.hinted")))
						if err == nil {
							break
						}
						if try == 4 || !strings.Contains(err.Error(), "Could not find node") {
							t.Fatal(err)
						}
						if d := read(t, c); d.Hinted == 0 || !d.Discard {
							break
						}
					}
				} else if err := chromedp.Do(c, chromedp.KeyEvent("x")); err != nil {
					t.Fatal(err)
				}
			default:
				if !slices.Contains(before.Tiles, before.Cursor) {
					if err := chromedp.Do(c, chromedp.Click(CSS(fmt.Sprintf(`#rack .tile[data-pos="%d"]`, before.Tiles[0])))); err != nil {
						t.Fatal(err)
					}
				}
				if err := chromedp.Do(c, chromedp.KeyEvent("x")); err != nil {
					t.Fatal(err)
				}
			}
			after := until(t, c, 5*time.Second, "the discard shown", func(d domState) bool {
				return len(d.Tiles) < len(before.Tiles) || d.HandEnd || d.MatchEnd
			})
			if len(after.Tiles) < len(before.Tiles) {
				shown = append(shown, time.Since(t0))
				inPage = append(inPage, time.Duration(after.Page*float64(time.Millisecond)))
			}
			moves++
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
over:
	s := read(t, c)
	shoot(t, c, "match-end")
	if !s.Good || s.Verdict == "" {
		t.Fatalf("the match's end: verdict %q (good %v)", s.Verdict, s.Good)
	}
	if !arranged || !keyed || discards < 3 || draws < 2 {
		t.Fatalf("the match ended before every way to play was tried: %d draws, %d discards", draws, discards)
	}
	slices.Sort(shown)
	slices.Sort(inPage)
	t.Logf("figure: a discard shown: in the page, from the command sent to the rack redrawn, %v median, %v max over %d; "+
		"as the test sees it (the CDP input and the DOM polled) %v median, %v max",
		inPage[len(inPage)/2].Round(time.Millisecond/10), inPage[len(inPage)-1].Round(time.Millisecond/10), len(inPage),
		shown[len(shown)/2].Round(time.Millisecond), shown[len(shown)-1].Round(time.Millisecond))
	// A figure, not a check: the machine's load decides it (no timing luck
	// in a test's verdict).
	if err := chromedp.Do(c, chromedp.Click(CSS("#panel button[data-op=leave]"))); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.g.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the leave button did not leave")
	}
	out := <-w.out
	if out.Err != nil || out.Report == nil || !out.Report.Honest {
		t.Fatalf("the match: %+v", out)
	}
	t.Logf("%d moves, %d hands", moves, ends)
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
		if err := chromedp.Do(c, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
		until(t, c, 5*time.Second, what, ok)
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
	c := tab(t, ctx)
	if err := chromedp.Do(c, chromedp.Navigate(w.srv.URL()), chromedp.WaitVisible(CSS("#rack .tile"))); err != nil {
		t.Fatal(err)
	}
	s := until(t, c, 10*time.Second, "a Turkish turn line and the turn's timer", func(d domState) bool { return d.Turn != "" && d.Timer != "" })
	if !strings.HasPrefix(s.Timer, "süre ") {
		t.Errorf("the timer reads %q", s.Timer)
	}
	if s.Lang != "tr" || s.DrawText != "çek" {
		t.Fatalf("the Turkish page: lang %q, draw %q", s.Lang, s.DrawText)
	}
	text, err := chromedp.Run(c, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range []string{"draw", "discard", "your turn", "stock", "indicator", " to play"} {
		if strings.Contains(text, en) {
			t.Errorf("the Turkish page says %q", en)
		}
	}
	shoot(t, c, "turkish")
}

// rackPos reports whether the kept rack (rack.json: by position, the slot
// standing there or -1) has a tile at p.
func rackPos(b []byte, p int) bool {
	var st struct {
		Pos []int `json:"pos"`
	}
	return json.Unmarshal(b, &st) == nil && p < len(st.Pos) && st.Pos[p] >= 0
}

// CSS is chromedp's CSS selector type.
type CSS = chromedp.CSS
