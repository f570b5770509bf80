package ui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// overlay is a panel drawn over the table.
type overlay uint8

const (
	noOverlay overlay = iota
	helpOverlay
	quitOverlay
	handOverlay
	matchOverlay
	confirmOverlay // a binding's question (binding.confirm)
)

// MatchEnd is what the end-of-match screen shows (tablemodel.MatchEnd).
type MatchEnd = tablemodel.MatchEnd

// moveReq and moveReq101 are requests for a classic and an Okey 101 move.
type (
	moveReq    = tablemodel.Request[engine.Action]
	moveReq101 = tablemodel.Request[engine.Action101]
)

// asked is a pending request of either game.
type asked = tablemodel.Asked

// region is a clickable area of the last drawn frame.
type region struct {
	x, y, w, h int
	click      func(t *TableView, double bool)
}

// TableView is the table screen: a tview primitive that draws a Snapshot,
// keeps the player's rack arrangement, and turns keys and clicks into
// moves. It never decides a rule: every move is tried on a copy of the
// engine state before it is sent, and refused with the engine's reason.
type TableView struct {
	*tview.Box
	pal      Palette
	palFixed bool
	// m is the table's model: the snapshot, the move asked for, the
	// message line, the hint, the turn timer, the match's end.
	m       *tablemodel.Table
	part    gamePart // the game's part of the screen (game.go)
	overlay overlay
	quit    func() // called when the player confirms leaving
	// back, when set, is what the match's end panel's keys do instead of
	// quit: go back to the lobby (Game.FreshTable, Game.SitTable).
	back      func()
	regions   []region
	away      []string // players whose peers are not connected
	links     []SeatLink
	down      map[string]time.Time // seats reconnecting: since when (links.go)
	leaveNote string               // how to resume after leaving (the quit question)

	lastClick struct {
		x, y int
		at   time.Time
	}
	lastFrame struct{ w, h int }

	// A binding's question (binding.confirm) and what y runs.
	question string
	asking   func(t *TableView)

	// ended is set while the table is drawn as a hand ended (drawGame):
	// the turn timer, of the hand being played, is not shown then.
	ended bool

	chat *chatState // the table's chat, at a networked table (chat.go)
}

// NewTableView returns an empty table screen. quit is called when the player
// leaves (after confirming, during a match).
func NewTableView(quit func()) *TableView {
	t := &TableView{Box: tview.NewBox(), m: tablemodel.New(), quit: quit, pal: Palette256, part: noGame}
	return t
}

// SetPalette fixes the palette (the default follows the screen's colours).
func (t *TableView) SetPalette(p Palette) { t.pal, t.palFixed = p, true }

// Rack returns the player's rack arrangement.
func (t *TableView) Rack() *Rack { return t.m.Rack }

// Message returns the message line's text.
func (t *TableView) Message() string { return t.m.Msg }

// Update shows a new snapshot, with the log lines and the hand end that led
// to it. Call it from the UI goroutine.
func (t *TableView) Update(s *Snapshot, lines []Line, ends []*HandEnd) {
	defer t.keepRack()
	t.m.AddLog(lines)
	if t.m.AddEnds(s, ends) && t.overlay == noOverlay {
		t.overlay = handOverlay
	}
	if s == nil {
		return
	}
	g := gameOf(s)
	if g != nil && g.name() != t.part.name() {
		t.part = g
	}
	t.m.Update(s)
}

// drawGame draws the game's table: while a hand's panel is due, the table
// as that hand ended (tablemodel.EndedTable), else as it is now.
func (t *TableView) drawGame(scr tcell.Screen, g gamePart, x, y, w, h int) int {
	if len(t.m.Ends) == 0 || t.m.EndedAt(t.m.Ends[0]) == nil {
		return g.draw(t, scr, x, y, w, h)
	}
	e := t.m.EndedAt(t.m.Ends[0])
	if !g.plays(e.Snap) {
		if g = gameOf(e.Snap); g == nil {
			return t.game().draw(t, scr, x, y, w, h)
		}
	}
	snap, rack, log := t.m.Snap, t.m.Rack, t.m.Log
	t.m.Snap, t.m.Rack, t.m.Log, t.ended = e.Snap, e.Rack, e.Log, true
	defer func() { t.m.Snap, t.m.Rack, t.m.Log, t.ended = snap, rack, log, false }()
	return g.draw(t, scr, x, y, w, h)
}

// game is the part of the game on screen; before the first hand the
// classic table, with nothing on it, is drawn.
func (t *TableView) game() gamePart {
	if t.m.Snap != nil && t.part.plays(t.m.Snap) {
		return t.part
	}
	return noGame
}

// isFresh reports whether a tile arrived on the rack a moment ago.
func (t *TableView) isFresh(sl engine.Slot) bool { return t.m.IsFresh(sl) }

// turnSeconds returns the table's turn timer (0: none).
func (t *TableView) turnSeconds() int { return t.m.TurnSeconds() }

// turnSeat is the seat whose turn it is (-1 outside play).
func (t *TableView) turnSeat() int { return tablemodel.TurnOf(t.m.Snap) }

// TimeLeft returns the time left on the turn timer for the seat to move,
// and false when the table has no timer or no turn is being timed (or the
// table is drawn as a hand ended).
func (t *TableView) TimeLeft() (time.Duration, bool) {
	if t.ended {
		return 0, false
	}
	return t.m.TimeLeft()
}

// Tick moves for the player when the time of its turn ran out: it draws
// from the stock if it has not drawn, then discards the tile the hint
// recommends (declares the win the hint sees), or the tile it drew. The
// Game calls it every second, and when a move is asked for.
func (t *TableView) Tick() {
	if !t.myMove() {
		return
	}
	if left, ok := t.TimeLeft(); !ok || left > 0 {
		return
	}
	// The model moves for the player; a panel left open closes.
	if t.m.TimeUp() {
		closeForTimeUp(t)
	}
}

// Request asks the player for a move (a request of the game's action);
// the move is sent on its reply channel.
func (t *TableView) Request(r asked) {
	t.m.Ask(r)
	t.Tick()
}

// Cancel withdraws a pending request (the match stopped).
func (t *TableView) Cancel() { t.m.Cancel() }

// Finish shows the end of the match.
func (t *TableView) Finish(m *MatchEnd) {
	t.m.Finish(m)
	// The last hand's end shows first: closing it opens the match's.
	if t.overlay != helpOverlay && t.overlay != handOverlay {
		t.overlay = matchOverlay
	}
}

func (t *TableView) say(s string) { t.m.Say(s) }

func (t *TableView) refuse(s string) { t.m.Refuse(s) }

// inMatch reports whether leaving now would abandon a match.
func (t *TableView) inMatch() bool { return t.m.Final == nil }

// face is the face of a tile of the player's rack (NoFace: not open to it).
func (t *TableView) face(s engine.Slot) engine.Face { return t.m.Face(s) }

// target is the tile a discard or a win is about: the lifted tile, or the
// one under the cursor.
func (t *TableView) target() engine.Slot { return t.m.Target() }

func (t *TableView) sort(runs bool) { t.m.Sort(runs) }

// sortPairs sorts the rack for seven pairs (p).
func (t *TableView) sortPairs() { t.m.SortPairs() }

func (t *TableView) undo() { t.m.Undo() }

func (t *TableView) lift() { t.m.Lift() }

// keepRack writes the rack arrangement when it changed (the model's
// RackFile).
func (t *TableView) keepRack() { t.m.KeepRack() }

// SetRackFile makes the view keep the rack arrangement in path (written
// atomically whenever it changes) and brings back the one saved there when
// the hand it belongs to is on the table. Call it from the UI goroutine,
// before the match's first snapshot.
func (t *TableView) SetRackFile(path string) { t.m.SetRackFile(path) }

// myMove reports whether the player is asked for a move.
func (t *TableView) myMove() bool { return t.m.MyMove() }

// Hint shows what the game's analysis advises for the player's move.
func (t *TableView) Hint() { t.m.Hint() }

// Key handles one key press; it is the InputHandler's body.
func (t *TableView) Key(ev *tcell.EventKey) {
	defer t.keepRack()
	if t.chatKeyEvent(ev) {
		return
	}
	switch t.overlay {
	case helpOverlay:
		t.overlay = noOverlay
		t.reopen()
		return
	case quitOverlay:
		switch {
		case yes(ev):
			t.quit()
		default:
			t.overlay = noOverlay
			t.say(i18n.T("you stay at the table"))
			// A hand's panel left for the question comes back.
			t.reopen()
		}
		return
	case handOverlay:
		switch {
		case ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyEscape || ev.Rune() == ' ':
			t.nextEnd()
			return
		case ev.Rune() == 'q' || ev.Key() == tcell.KeyCtrlC:
			t.askQuit()
			return
		case ev.Rune() == '?':
			t.overlay = helpOverlay
			return
		}
		return
	case matchOverlay:
		if ev.Rune() == 'q' || ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC {
			if t.back != nil {
				t.back()
				return
			}
			t.quit()
		}
		return
	case confirmOverlay:
		t.answer(ev)
		return
	}
	t.dispatch(ev)
}

// nextEnd closes the shown hand end, showing the next one if any.
func (t *TableView) nextEnd() {
	t.m.NextEnd()
	t.overlay = noOverlay
	t.reopen()
}

// reopen shows the panel that is still due after another was closed.
func (t *TableView) reopen() {
	switch {
	case len(t.m.Ends) > 0:
		t.overlay = handOverlay
	case t.m.Final != nil:
		t.overlay = matchOverlay
	}
}

// InputHandler implements tview.Primitive.
func (t *TableView) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return t.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) { t.Key(ev) })
}

// MouseHandler implements tview.Primitive: clicks on the rack pick up and
// put down tiles (a double click discards), on the stock draw, on the
// discard to take take it, on the status bar run that key.
func (t *TableView) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return t.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(tview.Primitive)) (bool, tview.Primitive) {
		if action != tview.MouseLeftClick && action != tview.MouseLeftDoubleClick {
			return false, nil
		}
		setFocus(t)
		x, y := ev.Position()
		// tview calls any second click within its interval a double click,
		// wherever it is: a quick pick-up-and-put-down is two clicks. A
		// double click is two on the same cell.
		now := t.m.Now()
		double := t.lastClick.x == x && t.lastClick.y == y && now.Sub(t.lastClick.at) < tview.DoubleClickInterval
		t.lastClick.x, t.lastClick.y, t.lastClick.at = x, y, now
		if double {
			t.lastClick.at = time.Time{}
		}
		t.Click(x, y, double)
		return true, nil
	})
}

// Click handles a click at screen cell (x, y).
func (t *TableView) Click(x, y int, double bool) {
	defer t.keepRack()
	if t.overlay != noOverlay {
		t.Key(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
		return
	}
	for i := len(t.regions) - 1; i >= 0; i-- {
		r := t.regions[i]
		if x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h {
			r.click(t, double)
			return
		}
	}
}

// closeForTimeUp closes the panel the player left open when the program
// moved for it (the help, the quit question).
func closeForTimeUp(t *TableView) {
	if t.overlay == quitOverlay || t.overlay == helpOverlay {
		t.overlay = noOverlay
	}
}
