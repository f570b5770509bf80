package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
	"github.com/okey-game/okey/ui/tablemodel/rig101"
)

// The Okey 101 browser tests: a rigged round (the terminal's rigging,
// package rig101) that gives an opening, a lay, an add and a swap every
// run, made by clicks, drags and keys in Chromium and read from the DOM;
// and a real match against three B101 bots played in the page to its end.

// dom101 is what the 101 tests read from the page.
type dom101 struct {
	Seq      int            `json:"seq"`
	Draw     bool           `json:"draw"`
	Discard  bool           `json:"discard"`
	HandEnd  bool           `json:"handEnd"`
	MatchEnd bool           `json:"matchEnd"`
	Melds    []domMeld      `json:"melds"`
	Rack     map[int]string `json:"rack"` // position: face
	Sel      []int          `json:"sel"`
	SelText  string         `json:"selText"`
	Me       string         `json:"me"`
	Msg      string         `json:"msg"`
	Bad      bool           `json:"bad"`
	Ask      string         `json:"ask"` // the penalty question shown ("" none)
	Panel    string         `json:"panel"`
	Verdict  string         `json:"verdict"`
	Good     bool           `json:"good"`
	Seats    []string       `json:"seats"` // the seats' info lines
}

type domMeld struct {
	Handle string   `json:"handle"`
	Owner  string   `json:"owner"`
	Tiles  []string `json:"tiles"`
	As     []string `json:"as"` // an okey's face ("" for the others)
}

const read101 browsertest.DOM[dom101] = `(() => {
	const q = (s) => document.querySelector(s);
	const p = q('#panel');
	const rack = {};
	for (const e of document.querySelectorAll('#rack .tile')) rack[e.dataset.pos] = e.dataset.face || '';
	const ask = q('#ask');
	return {
		seq: Number(document.body.dataset.seq || 0),
		draw: !!q('#buttons button[data-op=draw].on'),
		discard: !!q('#buttons button[data-op=discard].on'),
		handEnd: !p.hidden && p.className === 'handend',
		matchEnd: !p.hidden && p.className === 'matchend',
		melds: [...document.querySelectorAll('#melds .meld')].map((m) => ({
			handle: m.querySelector('.handle').textContent, owner: m.querySelector('.owner').textContent,
			tiles: [...m.querySelectorAll('.tile')].map((t) => t.dataset.face || ''),
			as: [...m.querySelectorAll('.tile')].map((t) => t.dataset.as || '')})),
		rack,
		sel: [...document.querySelectorAll('#rack .tile.sel')].map((e) => Number(e.dataset.pos)),
		selText: (q('#sel101') || {textContent: ''}).textContent,
		me: (q('#me101') || {textContent: ''}).textContent,
		msg: q('#msg').textContent,
		bad: q('#msg').classList.contains('bad'),
		ask: ask && !ask.hidden ? q('#ask-text').textContent : '',
		panel: p.hidden ? '' : q('#panel-box').innerText,
		verdict: (q('#verdict') || {textContent: ''}).textContent,
		good: !!q('#verdict.good'),
		seats: [...document.querySelectorAll('.seat .info')].map((e) => e.textContent),
	};
})()`

// posOf is the rack position of face f on the page.
func (d dom101) posOf(t *testing.T, f string) int {
	t.Helper()
	for p, face := range d.Rack {
		if face == f {
			return p
		}
	}
	t.Fatalf("no %s on the page's rack: %v", f, d.Rack)
	return -1
}

// rigRun drives a web Game through the rigged round: it asks the page for
// the player's moves (Move101, as the seat's peer does) and shows the
// snapshots after each move.
type rigRun struct {
	t *testing.T
	g *Game
	s *tablemodel.Snapshot
}

// show hands the page a copy of the round as it stands (the peer hands
// the model a snapshot of its own).
func (r *rigRun) show() {
	cp := *r.s
	cp.Match101 = r.s.Match101.Clone()
	r.g.show(&cp)
}

// play applies a (a draw of the player's learns face draw) and shows it.
func (r *rigRun) play(a engine.Action101, draw string) {
	r.t.Helper()
	if _, err := rig101.Apply(r.s, a, draw); err != nil {
		r.t.Fatal(err)
	}
	r.show()
}

// ask asks the page for the player's move, runs do (the clicks, drags and
// keys) once the page offers a move, and returns the move sent.
func (r *rigRun) ask(c context.Context, what string, do func()) engine.Action101 {
	r.t.Helper()
	got := make(chan engine.Action101, 1)
	go func() {
		a, err := r.g.Move101(nil, nil)
		if err == nil {
			got <- a
		}
	}()
	read101.Until(r.t, c, 5*time.Second, "the page to offer a move for the "+what, func(d dom101) bool { return d.Draw || d.Discard })
	do()
	select {
	case a := <-got:
		return a
	case <-time.After(10 * time.Second):
		d := read101.Read(r.t, c)
		r.t.Fatalf("the page sent no move for the %s: %+v", what, d)
	}
	return engine.Action101{}
}

// clickFace clicks the rack's tile of face f (selecting or unselecting
// it) and waits for the page to show it.
func clickFace(t *testing.T, c context.Context, f string) {
	t.Helper()
	d := read101.Read(t, c)
	p := d.posOf(t, f)
	was := slices.Contains(d.Sel, p)
	browsertest.Click(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, p))
	read101.Until(t, c, 5*time.Second, "the "+f+" selected", func(d dom101) bool { return slices.Contains(d.Sel, p) != was })
}

// serve101 serves g's table and opens it in a new tab.
func serve101(t *testing.T, ctx context.Context, g *Game) context.Context {
	t.Helper()
	srv := serve(t)(Listen(g, 0))
	return browsertest.Page(t, ctx, srv.URL(), "#rack .tile")
}

// TestBrowser101Rigged plays the rigged round's turns in Chromium: a
// refusal, the opening threshold, the opening by clicks and a key, a
// discard by a drag, bot1's meld with an okey, an add by a drag onto a
// meld, the swap of that okey by a click and the meld's handle, a lay by
// a drag onto the table, the penalty question (no), and a discard by a
// key. Every move is the one the engine takes (rig101.Apply holds each to
// the rules).
func TestBrowser101Rigged(t *testing.T) {
	lane.NoRace(t)
	ctx := browser(t)
	s, err := rig101.Fixture(2, "rounds=3")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(0)
	g.Start()
	t.Cleanup(g.Quit)
	r := &rigRun{t: t, g: g, s: s}
	r.show()
	c := serve101(t, ctx, g)
	browsertest.Shoot(t, c, "r101-start")

	// A lay before the draw: the model's sentence, and no move.
	a := r.ask(c, "draw", func() {
		browsertest.Key(t, c, "l")
		d := read101.Until(t, c, 5*time.Second, "the refusal", func(d dom101) bool { return d.Bad })
		if !strings.Contains(d.Msg, "select the tiles to lay first") {
			t.Errorf("the refusal reads %q", d.Msg)
		}
		browsertest.Key(t, c, "d")
	})
	if a.Kind != engine.Act101Draw {
		t.Fatalf("d sent %+v", a)
	}
	r.play(a, "Y7")

	// The opening: an add before opening is refused with the model's
	// sentence; the tiles clicked one by one count toward 101; l lays.
	a = r.ask(c, "opening", func() {
		browsertest.Key(t, c, "a")
		d := read101.Until(t, c, 5*time.Second, "the refusal of an add", func(d dom101) bool { return d.Bad })
		if d.Msg == "" || strings.Contains(d.Msg, "add it") {
			t.Errorf("an add before opening: %q", d.Msg)
		}
		for i, f := range engine.MustParseFaces(rig101.Opening) {
			clickFace(t, c, f.String())
			if i == 3 {
				d := read101.Read(t, c)
				if !strings.Contains(d.SelText, "46 of 101 points to open") {
					t.Errorf("four tiles selected: %q", d.SelText)
				}
			}
		}
		d = read101.Read(t, c)
		if !strings.Contains(d.SelText, "that opens") {
			t.Errorf("the opening selected: %q", d.SelText)
		}
		browsertest.Key(t, c, "l")
	})
	if a.Kind != engine.Act101Lay || len(a.Melds) != 3 {
		t.Fatalf("the opening sent %+v", a)
	}
	r.play(a, "")
	d := read101.Until(t, c, 5*time.Second, "the opening on the table", func(d dom101) bool { return len(d.Melds) == 3 })
	if !strings.Contains(d.Me, "opened") || d.Melds[0].Handle != "1" {
		t.Errorf("after the opening: %+v", d)
	}
	browsertest.Shoot(t, c, "r101-opened")

	// Y1 dragged onto the discard spot.
	a = r.ask(c, "discard", func() {
		d := read101.Read(t, c)
		browsertest.Drag(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, d.posOf(t, "Y1")), "#discard")
	})
	if a.Kind != engine.Act101Discard || a.Faces[0].Face.String() != "Y1" {
		t.Fatalf("the drag sent %+v", a)
	}
	r.play(a, "")

	// bot1 draws, opens with Y6 okey(Y7) Y8, R10-R13, K10-K13, discards R3.
	r.play(engine.Action101{Kind: engine.Act101Draw, Seat: 1}, "")
	lay, err := rig101.Lay(r.s.Match101.Game(), 1, rig101.Meld{Tiles: "Y6 B2 Y8", As: "Y6 Y7 Y8"},
		rig101.Meld{Tiles: "R10 R11 R12 R13"}, rig101.Meld{Tiles: "K10 K11 K12 K13"})
	if err != nil {
		t.Fatal(err)
	}
	r.play(lay, "")
	dis, err := rig101.Discard(r.s.Match101.Game(), 1, -1, "R3")
	if err != nil {
		t.Fatal(err)
	}
	r.play(dis, "")
	d = read101.Until(t, c, 5*time.Second, "bot1's melds", func(d dom101) bool { return len(d.Melds) == 6 })
	if d.Melds[3].Owner != "bot1" || !strings.HasPrefix(d.Melds[3].As[1], "Y7") || d.Melds[3].Tiles[1] != "B2" {
		t.Errorf("bot1's meld with the okey: %+v", d.Melds[3])
	}

	// A draw by a click on the bank: Y4.
	a = r.ask(c, "draw", func() { browsertest.Click(t, c, "#stock") })
	if a.Kind != engine.Act101Draw {
		t.Fatalf("a click on the bank sent %+v", a)
	}
	r.play(a, "Y4")

	// The add: R9 dragged onto meld 5 (bot1's R10-R13; the opening laid
	// the 10s as a set).
	a = r.ask(c, "add", func() {
		d := read101.Read(t, c)
		browsertest.Drag(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, d.posOf(t, "R9")), `#melds .meld[data-meld="4"]`)
	})
	if a.Kind != engine.Act101Add || a.Meld != 4 {
		t.Fatalf("the drag onto meld 5 sent %+v", a)
	}
	r.play(a, "")
	read101.Until(t, c, 5*time.Second, "R9 on meld 5", func(d dom101) bool { return len(d.Melds[4].Tiles) == 5 })

	// The swap: Y7 selected by a click, then meld 4's handle.
	a = r.ask(c, "swap", func() {
		clickFace(t, c, "Y7")
		d := read101.Read(t, c)
		if !strings.Contains(d.SelText, "4⇄") {
			t.Errorf("Y7's targets: %q", d.SelText)
		}
		browsertest.Key(t, c, "4")
	})
	if a.Kind != engine.Act101Swap || a.Meld != 3 || a.Pos != 1 {
		t.Fatalf("4 sent %+v, want the swap of meld 4's okey", a)
	}
	r.play(a, "")
	d = read101.Until(t, c, 5*time.Second, "the okey on the rack", func(d dom101) bool {
		return slices.Contains(d.Melds[3].Tiles, "Y7") && slices.ContainsFunc(mapValues(d.Rack), func(f string) bool { return f == "B2" })
	})
	browsertest.Shoot(t, c, "r101-swapped")

	// A lay once open: Y3 Y4 Y5 selected, one of them dragged onto the
	// table's free cloth.
	a = r.ask(c, "lay", func() {
		for _, f := range []string{"Y3", "Y4", "Y5"} {
			clickFace(t, c, f)
		}
		d := read101.Read(t, c)
		xy := browsertest.Eval[[]float64](t, c, `(() => { const r = document.querySelector('#melds').getBoundingClientRect(); return [r.right - 6, r.bottom - 6]; })()`)
		browsertest.DragTo(t, c, fmt.Sprintf(`#rack .tile[data-pos="%d"]`, d.posOf(t, "Y5")), xy[0], xy[1])
	})
	if a.Kind != engine.Act101Lay || len(a.Melds) != 1 || len(a.Melds[0].Tiles) != 3 {
		t.Fatalf("the drag onto the table sent %+v", a)
	}
	r.play(a, "")
	read101.Until(t, c, 5*time.Second, "the new meld", func(d dom101) bool { return len(d.Melds) == 7 })

	// The okey's discard asks first (no: it stays); K5 goes by x.
	a = r.ask(c, "discard", func() {
		clickFace(t, c, "B2")
		browsertest.Key(t, c, "x")
		d := read101.Until(t, c, 5*time.Second, "the penalty question", func(d dom101) bool { return d.Ask != "" })
		if !strings.Contains(d.Ask, "101-point penalty") {
			t.Errorf("the question reads %q", d.Ask)
		}
		browsertest.Shoot(t, c, "r101-question")
		browsertest.Click(t, c, "#ask-no")
		read101.Until(t, c, 5*time.Second, "the question closed", func(d dom101) bool { return d.Ask == "" })
		clickFace(t, c, "B2")
		clickFace(t, c, "K5")
		browsertest.Key(t, c, "x")
	})
	if a.Kind != engine.Act101Discard || a.Faces[0].Face.String() != "K5" {
		t.Fatalf("x sent %+v, want the K5", a)
	}
	r.play(a, "")
	d = read101.Until(t, c, 5*time.Second, "the discard shown", func(d dom101) bool { return !d.Discard && !d.Draw })
	if !strings.Contains(d.Me, "opened") {
		t.Errorf("the player's line: %q", d.Me)
	}
	browsertest.Shoot(t, c, "r101-end")
}

func mapValues(m map[int]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// botsFor are k bots for a table of ruleset: B101 at an Okey 101 table,
// greedy ones otherwise.
func botsFor(ruleset string, k int) ([]table.Mover, []string) {
	ms, names := greedyBots(k)
	if strings.HasPrefix(ruleset, engine.Preset101) {
		for i := range ms {
			ms[i] = bot.NewB101()
		}
	}
	return ms, names
}

// TestBrowser101Match plays an Okey 101 match of three rounds against
// three B101 bots in the page to its end, by keys as at the terminal: d
// draws, h hints (the best opening selected), l lays what the hint
// selected, x discards, y answers the penalty question; each round's
// panel (the points with their causes, the racks, the score table) is
// closed by Enter, and the match's panel gives the verdict.
func TestBrowser101Match(t *testing.T) {
	lane.NoRace(t)
	ctx := browser(t)
	w := startTable(t, "101:rounds=3")
	c := w.open(t, ctx, "Okey 101")
	// A second page of the table (another tab, as another seat's page
	// would be): the time from a key in the first to the move shown in the
	// second, both on the machine's clock (Date.now).
	c2 := browsertest.Page(t, ctx, w.srv.URL(), "#rack .tile")
	browsertest.Eval[bool](t, c2, `(() => { let n = -1; new MutationObserver(() => {
		const k = document.querySelectorAll('#rack .tile').length; if (k !== n) { n = k; document.body.dataset.changedAt = String(Date.now()); } })
		.observe(document.getElementById('rack'), {childList: true, subtree: true}); return true; })()`)
	browsertest.Eval[bool](t, c, `(() => { document.addEventListener('keydown', () => { document.body.dataset.keyAt = String(Date.now()); }, true); return true; })()`)
	var other []time.Duration
	var heap []float64
	sampleHeap := func() {
		if v, err := chromedp.Run(c, chromedp.Evaluate[float64](`performance.memory ? performance.memory.usedJSHeapSize : 0`)); err == nil {
			heap = append(heap, v)
		}
	}
	sampleHeap()
	moves := map[string]int{}
	deadline := time.Now().Add(70 * time.Second)
	rounds := 0
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end in time: %v", moves)
		}
		s := read101.Read(t, c)
		switch {
		case s.MatchEnd:
			goto over
		case s.HandEnd:
			rounds++
			if rounds == 1 {
				browsertest.Shoot(t, c, "m101-round-end")
				for _, want := range []string{"round 1 is over", "total", "lowest total wins", "you", "ali"} {
					if !strings.Contains(s.Panel, want) {
						t.Errorf("the round's panel lacks %q:\n%s", want, s.Panel)
					}
				}
			}
			browsertest.Key(t, c, kb.Enter)
			read101.Until(t, c, 5*time.Second, "the round's panel to close", func(d dom101) bool { return d.Seq != s.Seq })
		case s.Ask != "":
			browsertest.Key(t, c, "y")
			moves["penalty"]++
			read101.Until(t, c, 5*time.Second, "the question answered", func(d dom101) bool { return d.Ask == "" })
		case s.Draw:
			browsertest.Key(t, c, "d")
			moves["draw"]++
			read101.Until(t, c, 5*time.Second, "the drawn tile", func(d dom101) bool { return !d.Draw || d.HandEnd || d.MatchEnd })
		case s.Discard:
			browsertest.Key(t, c, "c")
			browsertest.Key(t, c, "h")
			h := read101.Until(t, c, 5*time.Second, "the hint", func(d dom101) bool { return d.Seq != s.Seq && d.Msg != s.Msg })
			if strings.Contains(h.Msg, "l lays") && len(h.Sel) > 0 {
				browsertest.Key(t, c, "l")
				d := read101.Until(t, c, 5*time.Second, "the lay", func(d dom101) bool { return len(d.Melds) != len(h.Melds) || d.Bad || d.HandEnd || d.MatchEnd })
				if d.Bad {
					t.Fatalf("the hinted lay was refused: %q (hint %q)", d.Msg, h.Msg)
				}
				moves["lay"]++
				continue
			}
			browsertest.Key(t, c, "x")
			d := read101.Until(t, c, 5*time.Second, "the discard", func(d dom101) bool { return !d.Discard || d.Ask != "" || d.HandEnd || d.MatchEnd })
			moves["discard"]++
			if d.Ask == "" && !d.HandEnd && !d.MatchEnd && len(d.Rack) < len(s.Rack) {
				if ms := shownElsewhere(t, c, c2); ms >= 0 {
					other = append(other, ms)
				}
			}
			if moves["discard"]%4 == 0 {
				sampleHeap()
			}
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
over:
	s := read101.Read(t, c)
	sampleHeap()
	browsertest.Shoot(t, c, "m101-match-end")
	if len(other) > 0 {
		slices.Sort(other)
		t.Logf("figure: a discard by key in one page shown in another page of the table: median %v, p95 %v, max %v over %d",
			other[len(other)/2], other[len(other)*95/100], other[len(other)-1], len(other))
	}
	if len(heap) > 1 {
		t.Logf("figure: the tab's JS heap over the match (performance.memory.usedJSHeapSize): start %.1f MB, max %.1f MB, end %.1f MB (%d samples)",
			heap[0]/1e6, slices.Max(heap)/1e6, heap[len(heap)-1]/1e6, len(heap))
	}
	if !s.Good || s.Verdict == "" || rounds < 3 {
		t.Fatalf("the match's end: verdict %q (good %v), %d rounds", s.Verdict, s.Good, rounds)
	}
	if moves["draw"] < 3 || moves["discard"] < 3 {
		t.Fatalf("moves by keys: %v", moves)
	}
	w.leave(t, c, "#panel button[data-op=leave]")
	if out := <-w.out; out.Err != nil || out.Report == nil || !out.Report.Honest {
		t.Fatalf("the match: %+v", out)
	}
	t.Logf("moves by keys: %v, %d rounds", moves, rounds)
}

// shownElsewhere is the time from the last key in page a to the rack's
// change in page b (both stamped with Date.now), or -1 when b did not
// show it within a second.
func shownElsewhere(t *testing.T, a, b context.Context) time.Duration {
	t.Helper()
	k := browsertest.Eval[float64](t, a, `Number(document.body.dataset.keyAt || 0)`)
	end := time.Now().Add(time.Second)
	for time.Now().Before(end) {
		v := browsertest.Eval[float64](t, b, `Number(document.body.dataset.changedAt || 0)`)
		if v >= k {
			return time.Duration(v-k) * time.Millisecond
		}
		time.Sleep(5 * time.Millisecond)
	}
	return -1
}
