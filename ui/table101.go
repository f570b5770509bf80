package ui

import (
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
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
	// meldAt is where each meld on the table was drawn (for clicks).
	handles []meldHandle
	// sent counts the moves sent.
	sent int
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

// tick moves for the player when the time of its turn ran out: the
// move B101 would make (draw, use or give back a taken discard, lay, add,
// discard), one a tick, so that the turn always ends.
func (pt *part101) tick(t *TableView) {
	if t.overlay == quitOverlay || t.overlay == helpOverlay {
		t.overlay = noOverlay
	}
	t.m.Rack.Lifted = -1
	v := t.m.Snap.View
	a, err := bot.NewB101().Move101(round(t), &v)
	if err != nil {
		if _, drawn, _ := round(t).Turn(); !drawn {
			pt.bank(t)
		}
		return
	}
	t.log = append(t.log, Line{txt(i18n.T("time is up: the program plays %v for you", a.Kind))})
	pt.send(t, a, i18n.T("time is up: the program played %v for you", a.Kind))
}

// plain101 is the face a tile plays as when it plays as itself: a false
// joker plays as the okey's face.
func plain101(okey, f engine.Face) engine.Face {
	if f == engine.FalseJoker {
		return okey
	}
	return f
}

// my returns the round when the player is asked for a move; otherwise
// it refuses with the reason and returns nil.
func (*part101) my(t *TableView) *engine.Game101 {
	if why := t.m.MoveOff(); why != "" {
		t.refuse(why)
		return nil
	}
	return round(t)
}

// send tries a on a copy of the match and sends it when it holds (the
// model does: tablemodel.Table.Send101).
func (pt *part101) send(t *TableView, a engine.Action101, done string) bool {
	if !t.m.Send101(a, done) {
		return false
	}
	pt.sent++
	return true
}

func (pt *part101) bank(t *TableView) {
	if t.m.Draw() {
		pt.sent++
	}
}

// prevDiscard101 is the discard the player may take, or NoFace.
func prevDiscard101(g *engine.Game101) engine.Face { return tablemodel.PrevDiscard101(g) }

func (pt *part101) take(t *TableView) {
	if t.m.Take() {
		pt.sent++
	}
}

func (pt *part101) giveBack(t *TableView) {
	if t.m.GiveBack() {
		pt.sent++
	}
}

// selection returns the selected tiles in rack order with their faces.
func (pt *part101) selection(t *TableView) ([]engine.Slot, []engine.Face) {
	var slots []engine.Slot
	var faces []engine.Face
	for _, sl := range t.m.Rack.Tiles() {
		if t.m.Sel[sl] {
			slots = append(slots, sl)
			faces = append(faces, t.face(sl))
		}
	}
	return slots, faces
}

// selBlocks splits the selection (in rack order) into the player's own
// groups: selected tiles side by side on a row of the rack, a gap, an
// unselected tile or the row's end separating them. It returns how many
// selected tiles each block holds.
func (pt *part101) selBlocks(t *TableView) []int {
	var out []int
	n := 0
	for p := 0; p < RackSize; p++ {
		sl := t.m.Rack.At(p)
		if p%RackCols == 0 || sl == engine.NoSlot || !t.m.Sel[sl] {
			if n > 0 {
				out, n = append(out, n), 0
			}
		}
		if sl != engine.NoSlot && t.m.Sel[sl] {
			n++
		}
	}
	if n > 0 {
		out = append(out, n)
	}
	return out
}

// blockPlan is the plan where every block of the selection is one meld of
// the same sort (sets and runs, or doubles); ok is false otherwise.
func blockPlan(g *engine.Game101, opened engine.Opened, faces []engine.Face, blocks []int) (layPlan, bool) {
	if len(blocks) < 2 {
		return layPlan{}, false
	}
	jd := !g.Rules().Game101.NoJokerDoubles
	var p layPlan
	at := 0
	for i, n := range blocks {
		o, err := engine.BestOpening101(g.Okey(), faces[at:at+n], jd)
		at += n
		if err != nil {
			return layPlan{}, false
		}
		switch {
		case len(o.Groups) == 1 && len(o.Groups[0].Tiles) == n && (i == 0 || !p.pairs) && opened != engine.OpenedDoubles:
			p.groups = append(p.groups, o.Groups[0])
			p.value += o.Value
		case n == 2 && len(o.Pairs) == 1 && (i == 0 || p.pairs) && opened != engine.OpenedSets:
			p.groups = append(p.groups, o.Pairs[0])
			p.pairs = true
			p.doubles++
		default:
			return layPlan{}, false
		}
	}
	p.whole = true
	return p, true
}

func (pt *part101) toggle(t *TableView, p int) {
	sl := t.m.Rack.At(p)
	if sl == engine.NoSlot {
		t.refuse(i18n.T("no tile there to select"))
		return
	}
	if t.m.Sel == nil {
		t.m.Sel = map[engine.Slot]bool{}
	}
	if t.m.Sel[sl] {
		delete(t.m.Sel, sl)
	} else {
		t.m.Sel[sl] = true
	}
	t.say(pt.selText(t))
}

func (pt *part101) clearSel(t *TableView) {
	t.m.Sel = nil
	t.m.Rack.Lifted = -1
	t.say(i18n.T("selection cleared"))
}

// layPlan is how the selected tiles would be laid: the groups (printed
// faces and what each plays as), their points and doubles, and whether
// every selected tile is in them.
type layPlan struct {
	groups  []engine.Group
	value   int
	doubles int
	pairs   bool // the groups are doubles
	whole   bool // every selected tile is in a group
	loose   []engine.Face
}

// plan101 arranges faces into melds the way the player's state allows:
// the player's own blocks on the rack when each is a meld; otherwise sets
// and runs (the most points), or doubles for a doubles opener (or an
// unopened player whose selection makes doubles only).
func plan101(g *engine.Game101, opened engine.Opened, faces []engine.Face, blocks []int) (layPlan, error) {
	if p, ok := blockPlan(g, opened, faces, blocks); ok {
		return p, nil
	}
	o, err := engine.BestOpening101(g.Okey(), faces, !g.Rules().Game101.NoJokerDoubles)
	if err != nil {
		return layPlan{}, err
	}
	sets := layPlan{groups: o.Groups, value: o.Value, whole: countTiles(o.Groups) == len(faces)}
	pairs := layPlan{groups: o.Pairs, doubles: o.Doubles, pairs: true, whole: countTiles(o.Pairs) == len(faces)}
	var p layPlan
	switch {
	case opened == engine.OpenedDoubles:
		p = pairs
	case opened == engine.OpenedSets:
		p = sets
	case sets.whole && len(sets.groups) > 0:
		p = sets
	case pairs.whole && len(pairs.groups) > 0:
		p = pairs
	case sets.value >= 101 || o.Doubles < 5 && countTiles(o.Groups) >= countTiles(o.Pairs):
		p = sets
	default:
		p = pairs
	}
	p.loose = looseFaces(faces, p.groups)
	return p, nil
}

func countTiles(gs []engine.Group) int {
	n := 0
	for _, g := range gs {
		n += len(g.Tiles)
	}
	return n
}

// looseFaces returns the faces not used by groups.
func looseFaces(faces []engine.Face, gs []engine.Group) []engine.Face {
	left := slices.Clone(faces)
	for _, g := range gs {
		for _, f := range g.Tiles {
			if i := slices.Index(left, f); i >= 0 {
				left = slices.Delete(left, i, i+1)
			}
		}
	}
	return left
}

// selText describes the selection as melds: its value toward 101 (or
// its doubles toward five), what it opens or lays, or why it does not.
func (pt *part101) selText(t *TableView) string {
	slots, faces := pt.selection(t)
	if len(slots) == 0 {
		return i18n.T("nothing selected")
	}
	if slices.Contains(faces, engine.NoFace) {
		return i18n.T("a selected tile is not open to you yet")
	}
	g := round(t)
	opened := g.Opened(t.m.Snap.Seat)
	if len(faces) == 1 && opened != engine.NotOpened && faces[0] != g.Okey() {
		add, swap := g.AddTargets(faces[0])
		var hs []string
		for _, i := range add {
			hs = append(hs, string(handleOf(i)))
		}
		for _, i := range swap {
			hs = append(hs, string(handleOf(i))+"⇄")
		}
		if len(hs) > 0 {
			return i18n.T("%s: add it to meld %s (press the handle or click the meld)", faces[0].String(), strings.Join(hs, ", "))
		}
	}
	p, err := plan101(g, opened, faces, pt.selBlocks(t))
	if err != nil {
		return refusalIn(game101, err)
	}
	var b strings.Builder
	if len(p.groups) == 0 && !p.whole && len(faces) < 3 && !p.pairs {
		return i18n.T("a meld needs 3 tiles (a set or a run), a double 2")
	}
	if p.pairs {
		b.WriteString(plural(len(p.groups), i18n.T("selected: 1 double"), i18n.T("selected: %d doubles", len(p.groups))))
	} else {
		b.WriteString(plural(len(p.groups), i18n.T("selected: 1 meld, %d points", p.value), i18n.T("selected: %d melds, %d points", len(p.groups), p.value)))
	}
	switch {
	case !p.whole:
		b.WriteString(" · ")
		if len(faces) < 3 && !p.pairs {
			b.WriteString(i18n.T("a meld needs 3 tiles (a set or a run), a double 2"))
		} else {
			b.WriteString(i18n.T("not in any meld: %s", engine.FormatFaces(p.loose)))
		}
	case opened != engine.NotOpened:
		b.WriteString(" · " + i18n.T("l lays them"))
	case (p.pairs && len(p.groups) >= 5 || !p.pairs && p.value >= 101) && g.DealerFirst():
		// The engine refuses a lay before the dealer's first discard.
		b.WriteString(" · " + i18n.T("the dealer starts by discarding (x)"))
	case p.pairs && len(p.groups) >= 5 || !p.pairs && p.value >= 101:
		b.WriteString(" · " + i18n.T("that opens: l lays the opening"))
	case p.pairs:
		b.WriteString(" · " + i18n.T("%d of 5 doubles to open", len(p.groups)))
	default:
		b.WriteString(" · " + i18n.T("%d of 101 points to open", p.value))
	}
	return b.String()
}

// lay lays the selected tiles as melds (the opening, several melds in
// one move, or more melds once open).
func (pt *part101) lay(t *TableView) {
	g := pt.my(t)
	if g == nil {
		return
	}
	slots, faces := pt.selection(t)
	if len(slots) == 0 {
		t.refuse(i18n.T("select the tiles to lay first (space or a click on each)"))
		return
	}
	if slices.Contains(faces, engine.NoFace) {
		t.refuse(i18n.T("a selected tile is not open to you yet"))
		return
	}
	p, err := plan101(g, g.Opened(t.m.Snap.Seat), faces, pt.selBlocks(t))
	if err != nil {
		t.refuse(refusalIn(game101, err))
		return
	}
	if !p.whole || len(p.groups) == 0 {
		t.refuse(pt.selText(t))
		return
	}
	a, ok := engine.LayAction101(t.m.Snap.Seat, slots, faces, p.groups)
	if !ok {
		t.refuse(i18n.T("those tiles do not make melds"))
		return
	}
	what := plural(len(p.groups), i18n.T("you lay 1 meld (%d points)", p.value), i18n.T("you lay %d melds (%d points)", len(p.groups), p.value))
	if p.pairs {
		what = plural(len(p.groups), i18n.T("you lay 1 double"), i18n.T("you lay %d doubles", len(p.groups)))
	}
	if g.Opened(t.m.Snap.Seat) == engine.NotOpened {
		what = i18n.T("you open: %s", what)
	}
	if pt.send(t, a, what) {
		t.m.Sel = nil
	}
}

// addAction101 builds the add of faces (slots) to meld i: each tile plays
// as itself, an okey as whatever makes the meld valid.
func addAction101(m *engine.Match101, seat, i int, slots []engine.Slot, faces []engine.Face) (engine.Action101, error) {
	g := m.Game()
	okey := g.Okey()
	mp := engine.MeldPlay{}
	var jokers []int
	for k, s := range slots {
		mp.Tiles = append(mp.Tiles, engine.SlotFace{Slot: s, Face: faces[k]})
		as := plain101(okey, faces[k])
		if faces[k] == okey {
			jokers = append(jokers, k)
		}
		mp.As = append(mp.As, as)
	}
	a := engine.Action101{Kind: engine.Act101Add, Seat: seat, Meld: i, Melds: []engine.MeldPlay{mp}}
	try := func() error { return m.Clone().Apply(a) }
	if len(jokers) == 0 || len(jokers) > 2 {
		return a, try()
	}
	// An okey stands for any face: try them in order (a set's colours, a
	// run's ends).
	var first error
	var rec func(j int) bool
	rec = func(j int) bool {
		if j == len(jokers) {
			err := try()
			if first == nil {
				first = err
			}
			return err == nil
		}
		for f := engine.Face(0); f < engine.FalseJoker; f++ {
			mp.As[jokers[j]] = f
			if rec(j + 1) {
				return true
			}
		}
		return false
	}
	if rec(0) {
		return a, nil
	}
	return a, first
}

// addTo adds the selection (or the tile under the cursor) to meld i;
// a single tile that an okey of that meld stands for swaps it instead.
func (pt *part101) addTo(t *TableView, i int) {
	g := pt.my(t)
	if g == nil {
		return
	}
	melds := g.Melds()
	if i < 0 || i >= len(melds) {
		t.refuse(i18n.T("no meld %c on the table", handleOf(max(i, 0))))
		return
	}
	slots, faces := pt.selection(t)
	if len(slots) == 0 {
		if sl := t.m.Rack.At(t.m.Rack.Cursor); sl != engine.NoSlot {
			slots, faces = []engine.Slot{sl}, []engine.Face{t.face(sl)}
		}
	}
	if len(slots) == 0 {
		t.refuse(i18n.T("select the tile to add first (space or a click)"))
		return
	}
	if slices.Contains(faces, engine.NoFace) {
		t.refuse(i18n.T("a selected tile is not open to you yet"))
		return
	}
	seat := t.m.Snap.Seat
	a, err := addAction101(t.m.Snap.Match101, seat, i, slots, faces)
	if err == nil {
		if pt.send(t, a, i18n.T("you add %s to meld %c", engine.FormatFaces(faces), handleOf(i))) {
			t.m.Sel = nil
		}
		return
	}
	if len(slots) == 1 && faces[0] != g.Okey() {
		m := melds[i]
		want := plain101(g.Okey(), faces[0])
		for k, sl := range m.Tiles {
			if g.IsOkeySlot(sl) && m.As[k] == want {
				sw := engine.Action101{Kind: engine.Act101Swap, Seat: seat, Meld: i, Pos: k,
					Faces: []engine.SlotFace{{Slot: slots[0], Face: faces[0]}}}
				if pt.send(t, sw, i18n.T("you swap the okey of meld %c for your %s: the okey is yours", handleOf(i), faces[0].String())) {
					t.m.Sel = nil
				}
				return
			}
		}
	}
	t.refuse(refusalIn(game101, err))
}

// add adds the selection to the one meld it fits, or asks for a handle.
func (pt *part101) add(t *TableView) {
	g := pt.my(t)
	if g == nil {
		return
	}
	if g.Opened(t.m.Snap.Seat) == engine.NotOpened {
		t.refuse(refusalIn(game101, engine.ErrNotOpened))
		return
	}
	_, faces := pt.selection(t)
	if len(faces) == 0 {
		if sl := t.m.Rack.At(t.m.Rack.Cursor); sl != engine.NoSlot {
			faces = []engine.Face{t.face(sl)}
		}
	}
	var targets []int
	if len(faces) == 1 {
		add, swap := g.AddTargets(faces[0])
		targets = append(add, swap...)
	}
	if len(targets) == 1 {
		pt.addTo(t, targets[0])
		return
	}
	t.say(i18n.T("press the handle of the meld to add to (1-9, A-Z), or click the meld"))
}

// discard discards the one selected tile, or the tile under the cursor.
func (pt *part101) discard(t *TableView) {
	pt.discardSlot(t, pt.discardTarget(t))
}

// discardTarget is the tile x discards: the one selected, or the tile
// under the cursor.
func (pt *part101) discardTarget(t *TableView) engine.Slot {
	s := t.target()
	if slots, _ := pt.selection(t); len(slots) == 1 && t.m.Rack.Lifted < 0 {
		s = slots[0]
	}
	return s
}

func (pt *part101) discardSlot(t *TableView, s engine.Slot) {
	if t.m.Discard(s) {
		pt.sent++
		delete(t.m.Sel, s)
	}
}

// --- keys --------------------------------------------------------------

// selection101 is the tiles selected on the rack of a 101 round.
func selection101(t *TableView) map[engine.Slot]bool {
	if _, ok := t.game().(*part101); ok {
		return t.m.Sel
	}
	return nil
}

// drawn101 reports whether the player to move has taken a tile.
func drawn101(t *TableView) bool { return t.m.Drawn() }

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
	sortHelp,
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
