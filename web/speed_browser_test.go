package web

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// The figures of issue 39 that the page's speed decides, as benchmarks
// with their own metrics (ms, the machine's clock shared by the process and
// the pages: Date's epoch):
//
//	go test -run XXX -bench BrowserFirstPaint -benchtime 7x ./web/
//	go test -run XXX -bench BrowserMoveShown -benchtime 25x ./web/
//
// Each stage is logged too, so that the time is seen where it goes.

// speedBrowser starts a headless Chromium for a benchmark (no life bound:
// as many iterations as asked).
func speedBrowser(tb testing.TB) context.Context {
	tb.Helper()
	return browsertest.Start(tb, browsertest.Options{})
}

// blankTab is a new tab, opened (about:blank) before anything is timed.
func blankTab(tb testing.TB, ctx context.Context) (context.Context, func()) {
	tb.Helper()
	c, cancel := chromedp.NewContext(ctx)
	if err := chromedp.Do(c, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		tb.Fatal(err)
	}
	return c, cancel
}

// soon runs a on the tab c, giving up after 5 s (an element the page
// replaced meanwhile would be waited for forever).
func soon(c context.Context, a chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(c, 5*time.Second)
	defer cancel()
	return chromedp.Do(ctx, a)
}

// epochMS is t on the pages' clock (ms since the epoch).
func epochMS(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }

// stats gives the median and the p95 of xs (ms).
func stats(xs []float64) (float64, float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0, 0
	}
	return s[len(s)/2], s[(len(s)*95+99)/100-1]
}

// timedFront is the seat's front with the moments the protocol reaches it
// kept: a move's return to the peer (the action taken), and each step.
type timedFront struct {
	*Game
	moved chan time.Time
	steps chan stepAt
}

type stepAt struct {
	at    time.Time
	tiles int // the seat's tiles after the step
}

func (f *timedFront) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	a, err := f.Game.Move(h, v)
	select {
	case f.moved <- time.Now():
	default:
	}
	return a, err
}

func (f *timedFront) OnStep(m *table.Machine, v *engine.View) {
	at := time.Now()
	n := -1
	if mt := m.Match(); mt != nil && mt.Hand() != nil {
		n = len(mt.Hand().Rack(f.seat))
	}
	f.Game.OnStep(m, v)
	select {
	case f.steps <- stepAt{at, n}:
	default:
	}
}

// published collects when each state left the model, with its rack's size.
func published(g *Game) (chan stepAt, func()) {
	c, unsub := g.subscribe()
	out := make(chan stepAt, 4096)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case b := <-c:
				var st struct {
					Rack []json.RawMessage `json:"rack"`
				}
				_ = json.Unmarshal(b, &st)
				select {
				case out <- stepAt{time.Now(), len(st.Rack)}:
				default:
				}
			case <-done:
				return
			}
		}
	}()
	return out, func() { close(done); unsub() }
}

// pageTimes are a page's stamps (app.js) and its navigation's (ms since
// the epoch).
type pageTimes struct {
	Origin     float64 `json:"origin"`
	Response   float64 `json:"response"` // the page's document received
	DOMReady   float64 `json:"domReady"`
	WSOpen     float64 `json:"wsOpen"`
	FirstState float64 `json:"firstState"`
	FirstDraw  float64 `json:"firstDraw"`
	Rack       float64 `json:"rack"`     // the rack's count last changed
	RackRecv   float64 `json:"rackRecv"` // the state that changed it came
	Dealt      float64 `json:"dealt"`    // the first rack with tiles drawn
	Act        float64 `json:"act"`      // the last dblclick
}

const readTimes = `(() => {
	const d = document.body ? document.body.dataset : {};
	const n = performance.getEntriesByType('navigation')[0] || {};
	const o = performance.timeOrigin;
	const num = (v) => Number(v || 0);
	return {origin: o, response: n.responseEnd ? o + n.responseEnd : 0, domReady: n.domContentLoadedEventEnd ? o + n.domContentLoadedEventEnd : 0,
		wsOpen: num(d.wsOpenAt), firstState: num(d.firstStateAt), firstDraw: num(d.firstDrawAt),
		rack: num(d.rackAt), rackRecv: num(d.rackRecvAt), dealt: num(d.dealtAt), act: num(window.actAt)};
})()`

func times(tb testing.TB, c context.Context) pageTimes {
	tb.Helper()
	p, err := chromedp.Run(c, chromedp.Evaluate[pageTimes](readTimes))
	if err != nil {
		tb.Fatalf("reading the page's times: %v", err)
	}
	return p
}

// waitTimes polls the page's times until ok, or fails after 10 s.
func waitTimes(tb testing.TB, c context.Context, what string, ok func(pageTimes) bool) pageTimes {
	tb.Helper()
	p, done := pollTimes(tb, c, 10*time.Second, ok)
	if !done {
		tb.Fatalf("waited 10 s for %s: %+v", what, p)
	}
	return p
}

// pollTimes polls the page's times until ok or for d.
func pollTimes(tb testing.TB, c context.Context, d time.Duration, ok func(pageTimes) bool) (pageTimes, bool) {
	tb.Helper()
	end := time.Now().Add(d)
	for {
		p := times(tb, c)
		if ok(p) {
			return p, true
		}
		if time.Now().After(end) {
			return p, false
		}
		// The page stamps its own times: a slow poll only spares its CPU.
		time.Sleep(15 * time.Millisecond)
	}
}

// BenchmarkBrowserFirstPaint: from the web table's start (the Game, its
// server, the match against bots; Chromium already running, a tab open) to
// the table drawn in the page and to the dealt rack drawn, one fresh table
// and page per iteration.
func BenchmarkBrowserFirstPaint(b *testing.B) {
	ctx := speedBrowser(b)
	var stage = map[string][]float64{}
	order := []string{"listen", "navigate", "document", "domready", "wsopen", "firststate", "firstdraw", "rack"}
	for range b.N {
		c, closeTab := blankTab(b, ctx)
		data := b.TempDir()
		t0 := time.Now()
		g := NewGame(0)
		g.Start()
		srv, err := Listen(g, 0)
		if err != nil {
			b.Fatal(err)
		}
		go srv.Serve()
		listened := time.Now()
		bots, names := greedyBots(3)
		mctx, stop := context.WithCancel(context.Background())
		ended := make(chan struct{})
		go func() {
			defer close(ended)
			_, _ = ui.PlayLocal(mctx, g, ui.LocalOptions{Ruleset: "classic", Name: "ayse", Bots: bots, BotName: names, Data: data})
		}()
		navAt := time.Now()
		if err := chromedp.Do(c, chromedp.Navigate(srv.URL())); err != nil {
			b.Fatal(err)
		}
		p := waitTimes(b, c, "the dealt rack", func(p pageTimes) bool { return p.FirstDraw > 0 && p.Dealt > 0 })
		ms := func(x float64) float64 { return x - epochMS(t0) }
		for k, v := range map[string]float64{"listen": epochMS(listened), "navigate": epochMS(navAt), "document": p.Response, "domready": p.DOMReady,
			"wsopen": p.WSOpen, "firststate": p.FirstState, "firstdraw": p.FirstDraw, "rack": p.Dealt} {
			stage[k] = append(stage[k], ms(v))
		}
		g.Quit()
		stop()
		<-ended
		srv.Close()
		closeTab()
	}
	line := ""
	for _, k := range order {
		m, p95 := stats(stage[k])
		line += k + " " + ms1(m) + "/" + ms1(p95) + " "
	}
	b.Logf("ms from the start, median/p95 over %d: %s", b.N, line)
	m, p95 := stats(stage["firstdraw"])
	b.ReportMetric(m, "ms-draw-p50")
	b.ReportMetric(p95, "ms-draw-p95")
	m, p95 = stats(stage["rack"])
	b.ReportMetric(m, "ms-rack-p50")
	b.ReportMetric(p95, "ms-rack-p95")
}

func ms1(x float64) string {
	return time.Duration(x * float64(time.Millisecond)).Round(100 * time.Microsecond).String()
}

// BenchmarkBrowserMoveShown: a discard by a double click in one page of
// the table to the move drawn in another page of it (another tab, as
// another seat's page would be), classic matches against 3 greedy bots,
// one discard measured per iteration; the stages: the action taken (the
// model's reply to the peer's Move), the step applied (OnStep), the state
// published, received by the other page, drawn there.
func BenchmarkBrowserMoveShown(b *testing.B) {
	ctx := speedBrowser(b)
	stage := map[string][]float64{}
	measured := 0
	for measured < b.N {
		measured += moveShownMatch(b, ctx, b.N-measured, stage)
	}
	line := ""
	for _, k := range []string{"taken", "step", "published", "received", "drawn"} {
		m, p95 := stats(stage[k])
		line += k + " " + ms1(m) + "/" + ms1(p95) + " "
	}
	b.Logf("ms from the double click, median/p95 over %d: %s", len(stage["drawn"]), line)
	m, p95 := stats(stage["drawn"])
	b.ReportMetric(m, "ms-p50")
	b.ReportMetric(p95, "ms-p95")
}

// moveShownMatch plays one match in page a, measuring up to n discards in
// page b; it returns how many it measured.
func moveShownMatch(b *testing.B, ctx context.Context, n int, stage map[string][]float64) int {
	g := NewGame(0)
	f := &timedFront{Game: g, moved: make(chan time.Time, 64), steps: make(chan stepAt, 4096)}
	g.Start()
	defer g.Quit()
	srv, err := Listen(g, 0)
	if err != nil {
		b.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	bots, names := greedyBots(3)
	mctx, stop := context.WithCancel(context.Background())
	defer stop()
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_, _ = ui.PlayLocal(mctx, f, ui.LocalOptions{Ruleset: "classic:points=1", Name: "ayse", Bots: bots, BotName: names, Data: b.TempDir()})
	}()
	defer func() {
		g.Quit()
		stop()
		select {
		case <-ended:
		case <-time.After(30 * time.Second):
			b.Fatal("the match did not end after its context")
		}
	}()
	pa, closeA := blankTab(b, ctx)
	defer closeA()
	pb, closeB := blankTab(b, ctx)
	defer closeB()
	for _, c := range []context.Context{pa, pb} {
		wc, cancel := context.WithTimeout(c, 30*time.Second)
		err := chromedp.Do(wc, chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("#rack .tile")))
		cancel()
		if err != nil {
			b.Fatal(err)
		}
	}
	if _, err := chromedp.Run(pa, chromedp.Evaluate[bool](`(() => { document.addEventListener('dblclick', () => { window.actAt = performance.timeOrigin + performance.now(); }, true); return true; })()`)); err != nil {
		b.Fatal(err)
	}
	pubs, unsub := published(g)
	defer unsub()
	got := 0
	deadline := time.Now().Add(60 * time.Second)
	for got < n && time.Now().Before(deadline) {
		var s domState
		if v, err := chromedp.Run(pa, chromedp.Evaluate[domState](string(readDOM))); err == nil {
			s = v
		}
		switch {
		case s.MatchEnd:
			return got
		case s.HandEnd:
			_ = soon(pa, chromedp.Click(chromedp.CSS("#close")))
			time.Sleep(20 * time.Millisecond)
		case s.Draw:
			_ = soon(pa, chromedp.KeyEvent("d"))
			end := time.Now().Add(5 * time.Second)
			for time.Now().Before(end) {
				if d, err := chromedp.Run(pa, chromedp.Evaluate[domState](string(readDOM))); err == nil && (!d.Draw || d.HandEnd || d.MatchEnd) {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
		case s.Discard && len(s.Tiles) > 0:
			before := len(s.Tiles)
			// Drain what came before the click.
			for len(f.moved) > 0 {
				<-f.moved
			}
			for len(f.steps) > 0 {
				<-f.steps
			}
			for len(pubs) > 0 {
				<-pubs
			}
			if _, err := chromedp.Run(pa, chromedp.Evaluate[bool](`(() => { window.actAt = 0; return true; })()`)); err != nil {
				b.Fatal(err)
			}
			sel := `#rack .tile[data-pos="` + strconv.Itoa(s.Tiles[len(s.Tiles)-1]) + `"]`
			if err := soon(pa, chromedp.DoubleClick(chromedp.CSS(sel))); err != nil {
				continue // the page redrew the tile between: try again
			}
			act := waitTimes(b, pa, "the double click", func(p pageTimes) bool { return p.Act > 0 }).Act
			// The other page shows the rack one tile shorter.
			shown, ok := pollTimes(b, pb, 3*time.Second, func(p pageTimes) bool { return p.Rack >= act })
			if d, err := chromedp.Run(pb, chromedp.Evaluate[domState](string(readDOM))); !ok || err != nil || len(d.Tiles) != before-1 {
				continue // a hand's end or a refusal: not a discard shown
			}
			var taken, step, pub float64
			deadline := time.After(2 * time.Second)
		wait:
			for taken == 0 || step == 0 || pub == 0 {
				select {
				case t := <-f.moved:
					if taken == 0 {
						taken = epochMS(t)
					}
				case s := <-f.steps:
					if step == 0 && s.tiles == before-1 {
						step = epochMS(s.at)
					}
				case p := <-pubs:
					if pub == 0 && p.tiles == before-1 {
						pub = epochMS(p.at)
					}
				case <-deadline:
					break wait
				}
			}
			if taken == 0 || step == 0 || pub == 0 {
				continue
			}
			stage["taken"] = append(stage["taken"], taken-act)
			stage["step"] = append(stage["step"], step-act)
			stage["published"] = append(stage["published"], pub-act)
			stage["received"] = append(stage["received"], shown.RackRecv-act)
			stage["drawn"] = append(stage["drawn"], shown.Rack-act)
			got++
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
	if os.Getenv("OKEY_SPEED_DEBUG") != "" {
		b.Logf("a match: %d measured", got)
	}
	return got
}
