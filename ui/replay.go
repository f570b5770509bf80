package ui

import (
	"slices"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Frame is one position of a replay (tablemodel.Frame).
type Frame = tablemodel.Frame

// Replay is a transcript made into frames to step through (tablemodel.Replay).
type Replay = tablemodel.Replay

// LoadReplay verifies a transcript and replays it into frames
// (tablemodel.LoadReplay).
func LoadReplay(t *table.Transcript) (*Replay, error) { return tablemodel.LoadReplay(t) }

// ReplayView steps through a Replay.
type ReplayView struct {
	*tview.Box
	r        *Replay
	at       int
	pal      Palette
	palFixed bool
	quit     func()
}

// NewReplayView shows r from its first frame; quit is called on q.
func NewReplayView(r *Replay, quit func()) *ReplayView {
	return &ReplayView{Box: tview.NewBox(), r: r, quit: quit, pal: Palette256}
}

// SetPalette fixes the palette.
func (v *ReplayView) SetPalette(p Palette) { v.pal, v.palFixed = p, true }

// At returns the index of the frame shown.
func (v *ReplayView) At() int { return v.at }

// Seek shows frame i (clamped).
func (v *ReplayView) Seek(i int) { v.at = min(max(i, 0), len(v.r.Frames)-1) }

// seekHand moves to the first frame of the next (dir 1) or this/previous
// (dir -1) hand.
func (v *ReplayView) seekHand(dir int) {
	fs := v.r.Frames
	cur := fs[v.at].Hand
	if dir > 0 {
		for i := v.at + 1; i < len(fs); i++ {
			if fs[i].Hand != cur {
				v.at = i
				return
			}
		}
		v.at = len(fs) - 1
		return
	}
	i := v.at
	if i > 0 && fs[i-1].Hand == cur {
		for i > 0 && fs[i-1].Hand == cur {
			i--
		}
	} else if i > 0 {
		i--
		for i > 0 && fs[i-1].Hand == fs[i].Hand {
			i--
		}
	}
	v.at = i
}

// Key handles a key press.
func (v *ReplayView) Key(ev *tcell.EventKey) {
	switch {
	case ev.Key() == tcell.KeyRight || ev.Rune() == 'n' || ev.Rune() == ' ':
		v.Seek(v.at + 1)
	case ev.Key() == tcell.KeyLeft || ev.Rune() == 'p':
		v.Seek(v.at - 1)
	case ev.Key() == tcell.KeyPgDn || ev.Key() == tcell.KeyDown || ev.Rune() == 'N':
		v.seekHand(1)
	case ev.Key() == tcell.KeyPgUp || ev.Key() == tcell.KeyUp || ev.Rune() == 'P':
		v.seekHand(-1)
	case ev.Key() == tcell.KeyHome:
		v.Seek(0)
	case ev.Key() == tcell.KeyEnd:
		v.Seek(len(v.r.Frames) - 1)
	case ev.Rune() == 'q' || ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC:
		v.quit()
	}
}

// InputHandler implements tview.Primitive.
func (v *ReplayView) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return v.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) { v.Key(ev) })
}

// Draw implements tview.Primitive.
func (v *ReplayView) Draw(scr tcell.Screen) {
	v.Box.DrawForSubclass(scr, v)
	x, y, w, h := v.GetRect()
	if !v.palFixed {
		v.pal = PaletteFor(scr.Colors())
	}
	p := v.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	fill(scr, x, y, w, h, felt)
	if w < MinWidth || h < MinHeight {
		put(scr, x, y, w, i18n.T("okey needs %dx%d, this terminal is %dx%d", MinWidth, MinHeight, w, h), felt.Foreground(p.Bad))
		return
	}
	f := v.r.Frames[v.at]
	frameGame(f).drawReplay(v, scr, x, y, w, h, f)
}

// drawClassic draws a replay frame of a classic hand.
func (v *ReplayView) drawClassic(scr tcell.Screen, x, y, w, h int, f Frame) {
	p := v.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	dim := felt.Foreground(p.Dim)
	hd := f.Match.Hand()
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	fill(scr, x, y, w, 1, bar)
	put(scr, x+1, y, w-2, i18n.T("okey replay · %s · hand %d · move %d/%d · message %d", v.r.Ruleset, f.Hand+1, v.at+1, len(v.r.Frames), f.Step), bar.Bold(true))

	row := y + 2
	dealing := hd.Phase() < engine.PhasePlay
	if dealing {
		// Before the deal is done there is no indicator, stock or rack yet:
		// say so rather than show empty ones.
		put(scr, x+1, row, w-2, i18n.T("dealer %s: the tiles are being shuffled and dealt", v.name(hd.Dealer())), dim)
	} else {
		cx := put(scr, x+1, row, 10, i18n.T("face-up")+" ", dim)
		if _, ind := hd.Indicator(); ind != engine.NoFace {
			cx = drawSmall(scr, p, cx, row, ind, engine.NoFace)
		}
		cx = put(scr, cx+2, row, 6, "okey ", dim)
		if ok := hd.Okey(); ok.Valid() {
			cx = drawSmall(scr, p, cx, row, ok, ok)
		}
		put(scr, cx+2, row, 40, i18n.T("stock %d   dealer %s   %s", hd.StockLen(), v.name(hd.Dealer()), i18n.T("%d turns", hd.Turns())), dim)
	}
	row += 2

	turn := -1
	if hd.Phase() == engine.PhasePlay {
		turn, _ = hd.Turn()
	}
	scores := f.Match.Scores()
	for seat := range v.r.Names {
		st := felt
		mark := "  "
		if seat == turn {
			mark, st = "> ", st.Foreground(p.Accent).Bold(true)
		}
		line := mark + i18n.T("%-16.16s %4d pts  discards ", v.r.Names[seat], scores[seat])
		cx := put(scr, x+1, row, w-2, line, st)
		// The latest discards that fit, the rack in face order.
		drawTileLine(scr, p, cx, row, x+w-1-cx, pileFaces(hd, seat), hd.Okey(), false, true, dim)
		row++
		if dealing {
			put(scr, x+3, row, w-4, i18n.T("(the rack is being dealt)"), dim)
		}
		drawTileLine(scr, p, x+3, row, w-4, v.rack(hd, seat), hd.Okey(), true, false, dim)
		row += 2
	}
	// What happened in this hand: the lines of its frames so far, latest
	// last, above the winning hand when the hand is won (two rows of its
	// own, so that no log text runs into it).
	logTop, logBottom := row, y+h-3
	won := f.End != nil && f.End.Result.Winner >= 0
	if won {
		logBottom -= 2
	}
	v.drawHandLog(scr, x, logTop, w, logBottom-logTop, f.Hand, hd.Okey(), dim, felt.Bold(true))
	if won {
		t := &TableView{pal: p}
		put(scr, x+1, logBottom, 12, i18n.T("winning hand"), felt.Foreground(p.Good).Bold(true))
		t.drawGroups(scr, x+14, logBottom, w-15, f.End.Result.Groups, hd.Okey())
	}
	v.drawFoot(scr, x, y, w, h, i18n.T("right next  left back  down next hand  up hand start  home end  q quit"))
}

// drawFoot writes the verdict over the keys' bar at the foot of the
// replay: wrapped at spaces onto the row above when it is too long for
// one (that row is the log's margin), never cut.
func (v *ReplayView) drawFoot(scr tcell.Screen, x, y, w, h int, keys string) {
	p := v.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	vst := felt.Foreground(verdictColour(p, v.r.Report.Status())).Bold(true)
	lines := wrap2(Verdict(v.r.Report), w-2)
	for i, l := range lines {
		if i >= 2 {
			lost(scr, x+1, y+h-2, l)
			continue
		}
		put(scr, x+1, y+h-1-min(len(lines), 2)+i, w-2, l, vst)
	}
	fill(scr, x, y+h-1, w, 1, bar)
	put(scr, x+1, y+h-1, w-2, keys, bar)
}

func (v *ReplayView) name(seat int) string {
	if seat >= 0 && seat < len(v.r.Names) {
		return v.r.Names[seat]
	}
	return "?"
}

// rack returns a seat's faces in face order (unknown faces last), in
// either game.
func (v *ReplayView) rack(h engine.Board, seat int) []engine.Face {
	all := v.r.Frames[v.at].All
	return sortedFaces(h.Rack(seat), func(s engine.Slot) engine.Face {
		if all != nil {
			return all.Face(h, s)
		}
		return h.PublicFace(s)
	})
}

// pileFaces is a seat's discards as everyone sees them, oldest first.
func pileFaces(b interface {
	engine.Board
	Pile(seat int) []engine.Slot
}, seat int) []engine.Face {
	var out []engine.Face
	for _, s := range b.Pile(seat) {
		out = append(out, b.PublicFace(s))
	}
	return out
}

// sortedFaces is the faces of slots in face order (unknown faces last).
func sortedFaces(slots []engine.Slot, face func(engine.Slot) engine.Face) []engine.Face {
	out := make([]engine.Face, 0, len(slots))
	for _, s := range slots {
		out = append(out, face(s))
	}
	slices.SortFunc(out, func(a, b engine.Face) int { return faceKey(a) - faceKey(b) })
	return out
}

// RunReplay shows a replay until the player quits.
func RunReplay(r *Replay, o Options) error {
	app := tview.NewApplication()
	if o.Screen != nil {
		app.SetScreen(o.Screen)
	}
	v := NewReplayView(r, app.Stop)
	if o.Palette != nil {
		v.SetPalette(*o.Palette)
	}
	app.SetRoot(v, true)
	return app.Run()
}

// drawHandLog draws, from row top, the last n log lines of hand up to the
// frame shown, the latest last and in bold.
func (v *ReplayView) drawHandLog(scr tcell.Screen, x, top, w, n, hand int, okey engine.Face, st, last tcell.Style) {
	var lines []Line
	for i := v.at; i >= 0 && v.r.Frames[i].Hand == hand && len(lines) < n; i-- {
		fl := v.r.Frames[i].Lines
		for j := len(fl) - 1; j >= 0 && len(lines) < n; j-- {
			lines = append(lines, fl[j])
		}
	}
	slices.Reverse(lines)
	for i, l := range lines {
		style := st
		if i == len(lines)-1 {
			style = last
		}
		drawSpans(scr, v.pal, x+1, top+i, w-2, l, okey, style)
	}
}
