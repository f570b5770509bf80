package ui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The classic game's part of the table screen (gamePart): its moves, keys,
// help and timer; its table is drawn by layout.go.
type classicPart struct{}

// onClassic makes a classic move a binding's action.
func onClassic(f func(*classicPart, *TableView)) func(*TableView) {
	return func(t *TableView) { f(&classicPart{}, t) }
}

func (*classicPart) name() string           { return classicGame }
func (*classicPart) plays(s *Snapshot) bool { return s.Match != nil }

func (*classicPart) key(*TableView, *tcell.EventKey) bool { return false }

func (*classicPart) title(t *TableView) string {
	s := t.m.Snap
	if s == nil || s.Match == nil {
		return ""
	}
	hand := s.Match.HandNumber() + 1
	if t.overlay == handOverlay && len(t.m.Ends) > 0 {
		// The panel of a hand that is over: its number, not the next.
		hand = int(t.m.Ends[0].Hand) + 1
	}
	title := " · " + i18n.T("hand %d", hand)
	if r := s.Match.Rules().Rounds; r > 0 {
		title += fmt.Sprintf("/%d", r)
	}
	return title
}

func (cl *classicPart) draw(t *TableView, scr tcell.Screen, x, y, w, h int) int {
	l := layoutFor(x, y, w, h)
	cl.drawTable(t, scr, l)
	cl.drawTurn(t, scr, l.tx, l.turn, l.tw)
	if l.frame {
		cl.drawSideColumn(t, scr, l)
	} else {
		cl.drawLog(t, scr, l.logX, l.logY, l.logW, l.logH)
	}
	cl.drawRack(t, scr, l.rackX, l.rackY)
	return l.rackY
}

// drawHandEnd draws the hand's panel over the table above the rack, or
// over the rack too when it needs the rows (the hands the audit opened,
// at 80x24).
func (cl *classicPart) drawHandEnd(t *TableView, scr tcell.Screen, x, y, w, h, rackY int) {
	ph := rackY - 1
	// Its text, a blank row, the enter line and the edges.
	if need := cl.drawEnd(t, measureScreen{scr}, x, y+1, w, 2*h) - (y + 1) + 3; need > ph {
		// Down to the rack's last row: the message line stays.
		ph = h - 3
	}
	cl.drawEnd(t, scr, x, y+1, w, ph)
}

func (*classicPart) drawReplay(v *ReplayView, scr tcell.Screen, x, y, w, h int, f Frame) {
	v.drawClassic(scr, x, y, w, h, f)
}

// classicBindings is the classic game's key table.
var classicBindings = []binding{
	{keys: arrows, label: i18n.Mark("move"), help: i18n.Mark("move the cursor (with a tile picked up: where it goes)"), bar: lifted},
	{keys: []key{rk(' '), sk(tcell.KeyEnter)}, label: i18n.Mark("put down"), bar: lifted},
	{keys: []key{rk(' '), sk(tcell.KeyEnter)}, label: i18n.Mark("pick up"),
		help: i18n.Mark("pick up the tile at the cursor; again: put it down there"),
		do:   (*TableView).lift, bar: notLifted},
	{keys: []key{sk(tcell.KeyEscape)}, label: i18n.Mark("put back"), help: i18n.Mark("put a picked-up tile back; close a panel"),
		do: func(t *TableView) { t.m.Rack.Lifted = -1; t.say(i18n.T("tile put back")) }, bar: lifted},
	{keys: []key{rk('d')}, label: i18n.Mark("draw"), help: i18n.Mark("draw from the stock (stock empty: end the hand)"),
		do: onClassic((*classicPart).drawFromStock), disabled: moveOff, bar: offered(tablemodel.Draw)},
	{keys: []key{rk('t')}, label: i18n.Mark("take"), help: i18n.Mark("take the tile the player before you just discarded"),
		do: onClassic((*classicPart).take), disabled: moveOff,
		bar: offered(tablemodel.Take)},
	{keys: []key{rk('x'), sk(tcell.KeyDelete)}, label: i18n.Mark("discard"),
		help: i18n.Mark("discard the picked-up tile, or the one under the cursor"),
		do:   onClassic((*classicPart).discard), disabled: discardOff, bar: offered(tablemodel.Discard)},
	{keys: []key{rk('w')}, label: i18n.Mark("win"), help: i18n.Mark("win with the tile at the cursor (on a gap: no discard)"),
		do: onClassic((*classicPart).win), disabled: moveOff, bar: offered(tablemodel.Win)},
	{keys: []key{rk('g')}, label: i18n.Mark("show"), help: i18n.Mark("gösterme: show the indicator's twin (before you first draw)"),
		do: onClassic((*classicPart).show), disabled: moveOff, bar: offered(tablemodel.Show)},
	sortHelp,
	{keys: []key{rk('s')}, label: i18n.Mark("sets"),
		do: func(t *TableView) { t.sort(false) }, bar: notLifted},
	{keys: []key{rk('r')}, label: i18n.Mark("runs"),
		do: func(t *TableView) { t.sort(true) }, bar: notLifted},
	{keys: []key{rk('h')}, label: i18n.Mark("hint"), help: i18n.Mark("hint: the best discard, and how far you are from a win"),
		do: (*TableView).Hint, bar: (*TableView).myMove},
	pairsKey,
	{keys: []key{rk('u'), sk(tcell.KeyCtrlZ)}, label: i18n.Mark("undo"), help: i18n.Mark("undo the last rack move or sort"),
		do: (*TableView).undo, bar: func(t *TableView) bool { return t.m.Rack.CanUndo() && t.m.Rack.Lifted < 0 }},
	helpKey,
	quitKey,
}

func (*classicPart) keys() []binding { return classicBindings }

// lifted and notLifted report whether a tile is picked up.
func lifted(t *TableView) bool    { return t.m.Rack.Lifted >= 0 }
func notLifted(t *TableView) bool { return t.m.Rack.Lifted < 0 }

func (*classicPart) help(t *TableView) helpPage {
	lines := []helpLine{
		{i18n.T("mouse"), i18n.T("click a tile: pick up / put down; double click: discard;")},
		{"", i18n.T("the stock: draw; the tile to take: take; your pile: discard")},
		{"", i18n.T("you may look through your own pile and the one before you")}}
	if secs := t.turnSeconds(); secs > 0 {
		lines = append(lines, helpLine{i18n.T("timer"), i18n.T("%d s a turn, then the program plays the hint's move", secs)})
	}
	lines = append(lines,
		helpLine{i18n.T("piles"), i18n.T("+3 before a pile: 3 more tiles lie under the ones shown")},
		helpLine{"", i18n.T("(gösterme): that player showed the indicator's twin")})
	if r, ok := t.rules(); ok {
		lines = append(lines, helpLine{i18n.T("scoring"), scoringLine(r)})
		if tl := teamsLine(r, t.m.Snap.Names); tl != "" {
			lines = append(lines, helpLine{i18n.T("teams"), tl})
		}
		lines = append(lines, helpLine{i18n.T("rules"), i18n.T("okey help rules %s (or docs/rules.md)", r.Preset)})
	}
	return helpPage{title: i18n.T("keys"), keyWidth: 16, wrap: true, lines: lines}
}

// --- moves -----------------------------------------------------------------

func (*classicPart) drawFromStock(t *TableView) { t.m.Draw() }

func (*classicPart) take(t *TableView) { t.m.Take() }

func (*classicPart) discard(t *TableView) { t.m.Discard(t.target()) }

func (*classicPart) win(t *TableView) { t.m.Win(t.target()) }

func (*classicPart) show(t *TableView) { t.m.Show() }

func (cl *classicPart) clickRack(t *TableView, p int, double bool) {
	if double {
		if t.m.Rack.At(p) != engine.NoSlot {
			t.m.Rack.Lifted = -1
			t.m.Rack.Cursor = p
			cl.discard(t)
		}
		return
	}
	t.m.Rack.Cursor = p
	t.lift()
}
