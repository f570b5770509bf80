package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The table screen's keys: each game declares its key table once
// (gamePart.keys), as bindings; one dispatcher runs them, and the status
// bar and the help write them, their names derived from the keys.

// key is one key of a binding: a rune, a special key, or the arrows.
type key struct {
	code  tcell.Key // tcell.KeyRune for a rune
	r     rune
	alias bool // it runs the binding, but the help does not write it
}

// keyArrows stands for the four arrow keys.
const keyArrows = tcell.Key(-1)

// rk is the key of a rune, sk a special key.
func rk(r rune) key         { return key{code: tcell.KeyRune, r: r} }
func sk(k tcell.Key) key    { return key{code: k} }
func alias(k tcell.Key) key { return key{code: k, alias: true} }

// arrows are the cursor keys, as the help writes them.
var arrows = []key{sk(keyArrows), sk(tcell.KeyHome), sk(tcell.KeyEnd)}

// name is how the status bar and the help write k.
func (k key) name() string {
	switch k.code {
	case keyArrows:
		return keyName("arrows")
	case tcell.KeyRune:
		if k.r == ' ' {
			return keyName("space")
		}
		return string(k.r)
	case tcell.KeyEnter:
		return keyName("enter")
	case tcell.KeyEscape:
		return "esc"
	case tcell.KeyDelete:
		return "delete"
	case tcell.KeyHome:
		return "home"
	case tcell.KeyEnd:
		return "end"
	case tcell.KeyCtrlZ:
		return "ctrl-z"
	case tcell.KeyCtrlC:
		return "ctrl-c"
	}
	return strings.ToLower(tcell.KeyNames[k.code])
}

// matches reports whether ev is k.
func (k key) matches(ev *tcell.EventKey) bool {
	switch k.code {
	case keyArrows:
		return ev.Key() >= tcell.KeyUp && ev.Key() <= tcell.KeyLeft
	case tcell.KeyRune:
		return ev.Key() == tcell.KeyRune && ev.Rune() == k.r
	}
	return ev.Key() == k.code
}

// binding is one action of a game's key table: it drives the dispatcher,
// the status bar and the help alike.
type binding struct {
	keys  []key  // the first is the status bar's name
	label string // the status bar's word (a message id)
	// short is the word when the whole bar does not fit ("": label).
	short string
	help  string // the help's line (a message id); "": not in the help
	// do is the action (nil: the keys are handled before the table, as
	// the cursor keys are, or the binding is the bar's word only).
	do func(t *TableView)
	// disabled says why the key does nothing now ("" when it acts; nil:
	// never off): the dispatcher refuses with it, and a disabled key is
	// not in the status bar.
	disabled func(t *TableView) string
	// bar reports whether the key is worth showing in the status bar now
	// (nil: never shown).
	bar func(t *TableView) bool
	// confirm is the question asked before do ("" or nil: none); y runs
	// it, any other key does not.
	confirm func(t *TableView) string
}

// helpName is how the help writes the binding's keys: all but aliases.
func (b *binding) helpName() string {
	var names []string
	for _, k := range b.keys {
		if !k.alias {
			names = append(names, k.name())
		}
	}
	return strings.Join(names, " ")
}

// off is why b does nothing now ("" when it acts).
func (b *binding) off(t *TableView) string {
	if b.disabled == nil {
		return ""
	}
	return b.disabled(t)
}

// shown reports whether b is in the status bar now.
func (b *binding) shown(t *TableView) bool {
	return b.bar != nil && b.bar(t) && b.off(t) == ""
}

// always is a bar condition that always holds.
func always(*TableView) bool { return true }

// moveOff is the disabled function of a move: the model's reason the
// player may not move now.
func moveOff(t *TableView) string { return t.m.MoveOff() }

// discardOff is why x does nothing now, in every game: moveOff, then the
// draw that comes first (whatever the cursor is on).
func discardOff(t *TableView) string { return t.m.Off(tablemodel.Discard) }

// offered is the bar condition of a move: the model offers it now.
func offered(a tablemodel.Action) func(*TableView) bool {
	return func(t *TableView) bool { return t.m.Offered(a) }
}

// quitKeys are the keys that leave the table (asking first during a
// match), in every game.
var quitKeys = []key{rk('q'), alias(tcell.KeyCtrlC)}

// pairsKey sorts the rack for seven pairs (101: doubles), in every game;
// sortHelp is the help's one line for the three sort keys (s, r and p
// have no line of their own: the help fits 80x24).
var (
	pairsKey = binding{keys: []key{rk('p')}, label: i18n.Mark("pairs"), do: (*TableView).sortPairs}
	sortHelp = binding{keys: []key{rk('s'), rk('r'), rk('p')},
		help: i18n.Mark("sort the rack: s sets, r runs, p pairs (for seven pairs)")}
	sortHelp101 = binding{keys: []key{rk('s'), rk('r'), rk('p')},
		help: i18n.Mark("sort the rack: s sets, r runs, p pairs (for five doubles)")}
)

// helpKey and quitKey end every game's key table.
var (
	helpKey = binding{keys: []key{rk('?')}, label: i18n.Mark("help"),
		do: func(t *TableView) { t.overlay = helpOverlay }, bar: always}
	quitKey = binding{keys: quitKeys, label: i18n.Mark("quit"), help: i18n.Mark("leave (asks first during a match)"),
		do: (*TableView).askQuit, bar: always}
)

// dispatch runs the binding of ev (no panel open): the cursor keys, the
// game's own keys, then its key table; a rune that is none of them is
// refused.
func (t *TableView) dispatch(ev *tcell.EventKey) {
	if t.cursorKey(ev) {
		return
	}
	g := t.game()
	if g.key(t, ev) {
		return
	}
	for i := range g.keys() {
		b := &g.keys()[i]
		if b.do == nil || !b.hit(ev) {
			continue
		}
		t.run(b)
		return
	}
	if ev.Key() == tcell.KeyRune {
		t.refuse(i18n.T("%q does nothing here: ? lists the keys", ev.Rune()))
	}
}

// hit reports whether ev is one of b's keys.
func (b *binding) hit(ev *tcell.EventKey) bool {
	for _, k := range b.keys {
		if k.matches(ev) {
			return true
		}
	}
	return false
}

// run runs b: refused with the reason when it is off, asked first when it
// asks.
func (t *TableView) run(b *binding) {
	if why := b.off(t); why != "" {
		t.refuse(why)
		return
	}
	if b.confirm != nil {
		if q := b.confirm(t); q != "" {
			t.asking, t.question = b.do, q
			t.overlay = confirmOverlay
			return
		}
	}
	b.do(t)
}

// answer handles the key pressed at a binding's question: y runs it.
func (t *TableView) answer(ev *tcell.EventKey) {
	do := t.asking
	t.asking, t.question = nil, ""
	t.overlay = noOverlay
	if yes(ev) {
		do(t)
	}
	if t.overlay == noOverlay {
		// A hand's panel that came while the question was up.
		t.reopen()
	}
}

// yes reports whether ev answers a question with yes: y, and in Turkish
// e (evet) too, as the Turkish screens show it.
func yes(ev *tcell.EventKey) bool {
	if ev.Key() != tcell.KeyRune {
		return false
	}
	switch ev.Rune() {
	case 'y', 'Y':
		return true
	case 'e', 'E':
		return i18n.Current() == i18n.Turkish
	}
	return false
}

// yesKey and noKey are the answers a question's key bar names: y and n,
// in Turkish e (evet) and h (hayır), as the Turkish questions say.
func yesKey() string {
	if i18n.Current() == i18n.Turkish {
		return "e"
	}
	return "y"
}

func noKey() string {
	if i18n.Current() == i18n.Turkish {
		return "h"
	}
	return "n"
}

// cursorKey moves the rack's cursor for the arrow, Home and End keys and
// reports whether ev was one of them.
func (t *TableView) cursorKey(ev *tcell.EventKey) bool {
	switch ev.Key() {
	case tcell.KeyLeft:
		t.m.Rack.MoveCursor(-1, 0)
	case tcell.KeyRight:
		t.m.Rack.MoveCursor(1, 0)
	case tcell.KeyUp:
		t.m.Rack.MoveCursor(0, -1)
	case tcell.KeyDown:
		t.m.Rack.MoveCursor(0, 1)
	case tcell.KeyHome:
		t.m.Rack.Cursor -= t.m.Rack.Cursor % RackCols
	case tcell.KeyEnd:
		t.m.Rack.Cursor += RackCols - 1 - t.m.Rack.Cursor%RackCols
	default:
		return false
	}
	return true
}

func (t *TableView) askQuit() {
	if !t.inMatch() {
		t.quit()
		return
	}
	t.overlay = quitOverlay
}

// barItem is one key of the status bar: its name and word, already in the
// interface's language, and its action when a click runs it.
type barItem struct {
	name, label, short string
	do                 func(t *TableView)
}

func (t *TableView) drawStatus(scr tcell.Screen, x, y, w int) {
	items, ok := t.overlayItems()
	if !ok {
		for i := range t.game().keys() {
			b := &t.game().keys()[i]
			if b.shown(t) {
				it := barItem{name: b.keys[0].name(), label: i18n.TKey(b.label), do: b.do}
				if b.short != "" {
					it.short = i18n.TKey(b.short)
				}
				items = append(items, it)
			}
		}
	}
	t.drawBindings(scr, x, y, w, items)
}

// overlayItems are the status bar's keys while a panel is open; ok is
// false when none is.
func (t *TableView) overlayItems() ([]barItem, bool) {
	switch t.overlay {
	case helpOverlay:
		return []barItem{{name: keyName("any key"), label: i18n.T("close")}}, true
	case quitOverlay:
		return []barItem{{name: yesKey(), label: i18n.T("leave")}, {name: noKey(), label: i18n.T("stay")}}, true
	case confirmOverlay:
		return []barItem{{name: yesKey(), label: i18n.T("yes")}, {name: noKey(), label: i18n.T("no")}}, true
	case handOverlay:
		return []barItem{{name: keyName("enter"), label: i18n.T("continue")}, {name: "?", label: i18n.T("help")}, {name: "q", label: i18n.T("quit")}}, true
	case matchOverlay:
		if t.back != nil {
			return []barItem{{name: "q", label: i18n.T("back to the lobby")}}, true
		}
		return []barItem{{name: "q", label: i18n.T("quit")}}, true
	}
	return nil, false
}

// drawBindings draws the status bar: each key's name and label as given,
// as many as fit (the short labels when the whole bar does not fit with
// the long ones), each clickable when it has an action.
func (t *TableView) drawBindings(scr tcell.Screen, x, y, w int, items []barItem) {
	p := t.pal
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	keySt := bar.Foreground(p.Accent).Bold(true)
	fill(scr, x, y, w, 1, bar)
	need := 1
	for _, b := range items {
		need += width(b.name) + 1 + width(b.label) + 2
	}
	cx := x + 1
	for _, b := range items {
		label := b.label
		if need > w && b.short != "" {
			label = b.short
		}
		if cx+width(b.name)+1+width(label)+2 > x+w {
			break
		}
		start := cx
		cx = put(scr, cx, y, w, b.name, keySt)
		cx = put(scr, cx, y, w, " "+label, bar)
		cx += 2
		if b.do != nil {
			do := b.do
			t.regions = append(t.regions, region{start, y, cx - start - 1, 1, func(t *TableView, _ bool) { do(t) }})
		}
	}
}

// helpLine is one line of the help panel: a key's name and what it does.
type helpLine struct{ k, v string }

// helpPage is a game's help panel: its title, the lines after the key
// table's, the width of the key names' column (a longer name pushes its
// line's text right), and whether long lines wrap (else they are cut).
type helpPage struct {
	title    string
	lines    []helpLine
	keyWidth int
	wrap     bool
}

func (t *TableView) drawHelp(scr tcell.Screen, x, y, w, h int) {
	g := t.game()
	page := g.help(t)
	ix, iy, iw, ih := t.panel(scr, x, y, w, h, page.title)
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	keySt := st.Foreground(t.pal.Accent).Bold(true)
	var lines []helpLine
	for i := range g.keys() {
		if b := &g.keys()[i]; b.help != "" {
			lines = append(lines, helpLine{b.helpName(), i18n.TKey(b.help)})
		}
	}
	lines = append(lines, page.lines...)
	lines = t.withChatHelp(page, lines, iw, ih)
	row := iy
	for _, l := range lines {
		if row >= iy+ih {
			lost(scr, ix, row, l.v)
			return
		}
		// In colour a name wider than the column pushes its text right,
		// one space after it. Without colour names stand apart by layout
		// alone: two spaces after a name, the text in the same column as
		// in colour, and a name too wide for that has its row to itself.
		kw, gap := max(page.keyWidth, width(l.k)), 1
		if t.pal.Mono {
			kw, gap = page.keyWidth-1, 2
			if width(l.k) > kw {
				put(scr, ix, row, iw, l.k, keySt)
				row++
				if row >= iy+ih {
					lost(scr, ix, row, l.v)
					return
				}
			}
		}
		vx, vw := ix+kw+gap, iw-kw-gap
		if width(l.k) <= kw {
			put(scr, ix, row, kw, l.k, keySt)
		}
		if !page.wrap {
			put(scr, vx, row, vw, l.v, st)
			row++
			continue
		}
		for _, part := range wrap2(l.v, vw) {
			if row >= iy+ih {
				lost(scr, vx, row, part)
				return
			}
			put(scr, vx, row, vw, part, st)
			row++
		}
	}
}

// drawConfirm is a binding's question (binding.confirm).
func (t *TableView) drawConfirm(scr tcell.Screen, x, y, w, h int) {
	// The question wraps at spaces inside the panel, never cut.
	pw := min(60, w)
	lines := wrap2(t.question, pw-4)
	ph := 5 + len(lines)
	ix, iy, iw, _ := t.panel(scr, x+(w-pw)/2, y+(h-ph)/2, pw, ph, "")
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	for i, l := range lines {
		put(scr, ix, iy+i, iw, l, st.Bold(true))
	}
	put(scr, ix, iy+len(lines)+1, iw, i18n.T("y: yes   n: no"), st.Foreground(t.pal.Accent).Bold(true))
}
