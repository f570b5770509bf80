package ui

import (
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Okey 101 at the table screen (protocol.md 3.6): the same TableView draws
// the round and turns keys and clicks into engine.Action101 moves. Like the
// classic table it decides no rule: every move is tried on a copy of the
// match before it is sent, and refused with the engine's reason.

// part101 is Okey 101's part of the table screen (gamePart) and its state.
type part101 struct {
	// handles is where each meld on the table was drawn (for clicks).
	handles []meldHandle
}

// meldHandle is a meld's handle on screen: its key and where it is drawn.
type meldHandle struct {
	key        rune
	x, y, w, h int
}

// Move101 implements table.Mover101 for the player's seat: it asks the
// screen for a move and waits for it, or for the player to leave.
func (g *Game) Move101(_ *engine.Game101, _ *engine.View) (engine.Action101, error) {
	r := &moveReq101{Reply: make(chan engine.Action101, 1)}
	stop := g.moveStop()
	left := g.tableLeft()
	g.post(func() { g.view.Request(r) })
	select {
	case a := <-r.Reply:
		return a, nil
	case <-stop:
		return engine.Action101{}, ErrMoveCanceled
	case <-left:
		return engine.Action101{}, ErrQuit
	case <-g.ctx.Done():
		return engine.Action101{}, ErrQuit
	}
}

var _ table.Mover101 = (*Game)(nil)

func (p paced) Move101(g *engine.Game101, v *engine.View) (engine.Action101, error) {
	mv, ok := p.m.(table.Mover101)
	if !ok {
		return engine.Action101{}, table.ErrNo101Mover
	}
	time.Sleep(p.d)
	return mv.Move101(g, v)
}

// on101 makes a 101 move a binding's action.
func on101(f func(*part101, *TableView)) func(*TableView) {
	return func(t *TableView) {
		if pt, ok := t.game().(*part101); ok {
			f(pt, t)
		}
	}
}

// round is the 101 round on screen.
func round(t *TableView) *engine.Game101 { return t.m.Snap.Match101.Game() }

func (*part101) name() string           { return game101 }
func (*part101) plays(s *Snapshot) bool { return s.Match101 != nil }

// meldOff is why a lay, an add or a swap does nothing now: moveOff, then
// the dealer's first turn, whose only move is a discard (ErrDealerFirst).
func meldOff(t *TableView) string { return t.m.Off(tablemodel.Lay) }

// drawOff is why d or t does nothing now: moveOff, then the dealer's
// first turn, which starts with a tile more and no draw.
func drawOff(t *TableView) string { return t.m.Off(tablemodel.Draw) }

// key adds to a meld by its handle (1-9, A-Z).
func (pt *part101) key(t *TableView, ev *tcell.EventKey) bool {
	if ev.Key() == tcell.KeyRune {
		if i := meldOfHandle(ev.Rune()); i >= 0 {
			if why := meldOff(t); why != "" {
				t.refuse(why)
				return true
			}
			pt.addTo(t, i)
			return true
		}
	}
	return false
}

// turnText is what the screen too small for the table says of the turn.
func (*part101) turnText(t *TableView) string { return Progress(t.m.Snap) }

func (*part101) drawReplay(v *ReplayView, scr tcell.Screen, x, y, w, h int, f Frame) {
	v.draw101(scr, x, y, w, h, f)
}

func (*part101) bank(t *TableView) { t.m.Draw() }

// prevDiscard101 is the discard the player may take, or NoFace.
func prevDiscard101(g *engine.Game101) engine.Face { return tablemodel.PrevDiscard101(g) }

func (*part101) take(t *TableView) { t.m.Take() }

func (*part101) giveBack(t *TableView) { t.m.GiveBack() }

// selText describes the selection as melds (tablemodel.Table.SelText).
func (*part101) selText(t *TableView) string { return t.m.SelText() }

// toggle selects or unselects the tile at rack position p.
func (*part101) toggle(t *TableView, p int) { t.m.Toggle(p) }

func (*part101) clearSel(t *TableView) { t.m.ClearSel() }

// lay lays the selected tiles as melds.
func (*part101) lay(t *TableView) { t.m.Lay() }

// addTo adds the selection (or the tile under the cursor) to meld i, or
// swaps an okey of it.
func (*part101) addTo(t *TableView, i int) { t.m.AddTo(i) }

// add adds the selection to the one meld it fits, or asks for a handle.
func (*part101) add(t *TableView) { t.m.Add() }

// discard discards the one selected tile, or the tile under the cursor.
func (*part101) discard(t *TableView) { t.m.Discard(t.m.DiscardTarget()) }

// discardTarget is the tile x discards: the one selected, or the tile
// under the cursor.
func (*part101) discardTarget(t *TableView) engine.Slot { return t.m.DiscardTarget() }

func (*part101) discardSlot(t *TableView, s engine.Slot) { t.m.Discard(s) }

// --- keys --------------------------------------------------------------

// selection101 is the tiles selected on the rack of a 101 round.
func selection101(t *TableView) map[engine.Slot]bool {
	if _, ok := t.game().(*part101); ok {
		return t.m.Sel
	}
	return nil
}

// on101penalty is x's question when the tile it would discard costs a
// 101-point penalty (the okey, or a tile that fits a meld on the table);
// "" otherwise.
func on101penalty(t *TableView) string {
	pt, ok := t.game().(*part101)
	if !ok {
		return ""
	}
	return t.m.DiscardQuestion(pt.discardTarget(t))
}

// keys101 is the key table of a 101 round.
var keys101 = []binding{
	{keys: arrows, label: i18n.Mark("move"), help: i18n.Mark("move the cursor on the rack")},
	{keys: []key{rk(' ')}, label: i18n.Mark("select"), help: i18n.Mark("select or unselect the tile under the cursor (a click does too)"),
		do: on101(func(pt *part101, t *TableView) { pt.toggle(t, t.m.Rack.Cursor) }), bar: always},
	{keys: []key{rk('c'), alias(tcell.KeyEscape)}, label: i18n.Mark("clear"), help: i18n.Mark("clear the selection"),
		do: on101((*part101).clearSel), bar: func(t *TableView) bool { return len(selection101(t)) > 0 }},
	{keys: []key{rk('d')}, label: i18n.Mark("draw"), help: i18n.Mark("draw from the bank (bank empty: end the round)"),
		do: on101((*part101).bank), disabled: drawOff, bar: offered(tablemodel.Draw)},
	{keys: []key{rk('t')}, label: i18n.Mark("take"), help: i18n.Mark("take the previous player's discard (it must be used this turn)"),
		do: on101((*part101).take), disabled: drawOff,
		bar: offered(tablemodel.Take)},
	{keys: []key{rk('b')}, label: i18n.Mark("give back"), help: i18n.Mark("give the taken discard back, then draw from the bank"),
		do: on101((*part101).giveBack), disabled: moveOff, bar: offered(tablemodel.GiveBack)},
	{keys: []key{rk('l')}, label: i18n.Mark("lay"), help: i18n.Mark("lay the selection as melds (the opening: 101 or five doubles)"),
		do: on101((*part101).lay), disabled: meldOff,
		bar: func(t *TableView) bool { return t.m.Offered(tablemodel.Lay) && len(selection101(t)) > 0 }},
	{keys: []key{rk('a')}, label: i18n.Mark("add"), help: i18n.Mark("add the selection to the one meld it fits (else press a handle)"),
		do: on101((*part101).add), disabled: meldOff, bar: offered(tablemodel.Add)},
	{keys: []key{rk('x'), sk(tcell.KeyDelete)}, label: i18n.Mark("discard"), help: i18n.Mark("discard the tile under the cursor, or the one selected"),
		do: on101((*part101).discard), disabled: discardOff, bar: offered(tablemodel.Discard),
		confirm: on101penalty},
	{keys: []key{rk('m'), alias(tcell.KeyEnter)}, label: i18n.Mark("move tile"), help: i18n.Mark("pick up the tile under the cursor; again: put it down there"),
		do: (*TableView).lift, bar: lifted},
	sortHelp101,
	{keys: []key{rk('s')}, label: i18n.Mark("sets"),
		do: func(t *TableView) { t.sort(false) }},
	{keys: []key{rk('r')}, label: i18n.Mark("runs"),
		do: func(t *TableView) { t.sort(true) }},
	pairsKey,
	{keys: []key{rk('u'), sk(tcell.KeyCtrlZ)}, label: i18n.Mark("undo"), help: i18n.Mark("undo the last rack move or sort"),
		do: (*TableView).undo},
	{keys: []key{rk('h')}, label: i18n.Mark("hint"), help: i18n.Mark("hint: best opening (selected), what to add where, the discard"),
		do: (*TableView).Hint, bar: (*TableView).myMove},
	helpKey,
	quitKey,
}

func (*part101) keys() []binding { return keys101 }

// clickRack: a click selects or unselects a tile, a double click
// discards it; with a tile picked up (m) the click puts it down.
func (pt *part101) clickRack(t *TableView, p int, double bool) {
	if t.m.Rack.Lifted >= 0 {
		t.m.Rack.Cursor = p
		t.lift()
		return
	}
	if double {
		if sl := t.m.Rack.At(p); sl != engine.NoSlot {
			t.m.Rack.Cursor = p
			pt.discardSlot(t, sl)
		}
		return
	}
	t.m.Rack.Cursor = p
	pt.toggle(t, p)
}
