package tablemodel

import (
	"slices"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Okey 101's selection and the moves made from it: the tiles selected on
// the rack (Table.Sel) read as melds (SelText), laid (Lay) or added to a
// meld on the table (Add, AddTo), each tried on a copy of the match.

// Selection returns the selected tiles in rack order with their faces.
func (m *Table) Selection() ([]engine.Slot, []engine.Face) {
	var slots []engine.Slot
	var faces []engine.Face
	for _, sl := range m.Rack.Tiles() {
		if m.Sel[sl] {
			slots = append(slots, sl)
			faces = append(faces, m.Face(sl))
		}
	}
	return slots, faces
}

// selBlocks splits the selection (in rack order) into the player's own
// groups: selected tiles side by side on a row of the rack, a gap, an
// unselected tile or the row's end separating them. It returns how many
// selected tiles each block holds.
func (m *Table) selBlocks() []int {
	var out []int
	n := 0
	for p := 0; p < RackSize; p++ {
		sl := m.Rack.At(p)
		if p%RackCols == 0 || sl == engine.NoSlot || !m.Sel[sl] {
			if n > 0 {
				out, n = append(out, n), 0
			}
		}
		if sl != engine.NoSlot && m.Sel[sl] {
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

// Toggle selects or unselects the tile at rack position p (101).
func (m *Table) Toggle(p int) {
	sl := m.Rack.At(p)
	if sl == engine.NoSlot {
		m.Refuse(i18n.T("no tile there to select"))
		return
	}
	if m.Sel == nil {
		m.Sel = map[engine.Slot]bool{}
	}
	if m.Sel[sl] {
		delete(m.Sel, sl)
	} else {
		m.Sel[sl] = true
	}
	m.Say(m.SelText())
}

// ClearSel clears the selection (101).
func (m *Table) ClearSel() {
	m.Sel = nil
	m.Rack.Lifted = -1
	m.Say(i18n.T("selection cleared"))
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

// SelText describes the selection as melds: its value toward 101 (or
// its doubles toward five), what it opens or lays, or why it does not.
func (m *Table) SelText() string {
	slots, faces := m.Selection()
	if len(slots) == 0 {
		return i18n.T("nothing selected")
	}
	if slices.Contains(faces, engine.NoFace) {
		return i18n.T("a selected tile is not open to you yet")
	}
	g := m.round()
	opened := g.Opened(m.Snap.Seat)
	if len(faces) == 1 && opened != engine.NotOpened && faces[0] != g.Okey() {
		add, swap := g.AddTargets(faces[0])
		var hs []string
		for _, i := range add {
			hs = append(hs, string(HandleOf(i)))
		}
		for _, i := range swap {
			hs = append(hs, string(HandleOf(i))+"⇄")
		}
		if len(hs) > 0 {
			return i18n.T("%s: add it to meld %s (press the handle or click the meld)", faces[0].String(), strings.Join(hs, ", "))
		}
	}
	p, err := plan101(g, opened, faces, m.selBlocks())
	if err != nil {
		return Refusal(game101, err)
	}
	var b strings.Builder
	if len(p.groups) == 0 && !p.whole && len(faces) < 3 && !p.pairs {
		return i18n.T("a meld needs 3 tiles (a set or a run), a double 2")
	}
	if p.pairs {
		b.WriteString(Plural(len(p.groups), i18n.T("selected: 1 double"), i18n.T("selected: %d doubles", len(p.groups))))
	} else {
		b.WriteString(Plural(len(p.groups), i18n.T("selected: 1 meld, %d points", p.value), i18n.T("selected: %d melds, %d points", len(p.groups), p.value)))
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

// Lay lays the selected tiles as melds (the opening, several melds in
// one move, or more melds once open).
func (m *Table) Lay() bool {
	g := m.myRound()
	if g == nil {
		return false
	}
	slots, faces := m.Selection()
	if len(slots) == 0 {
		m.Refuse(i18n.T("select the tiles to lay first (space or a click on each)"))
		return false
	}
	if slices.Contains(faces, engine.NoFace) {
		m.Refuse(i18n.T("a selected tile is not open to you yet"))
		return false
	}
	p, err := plan101(g, g.Opened(m.Snap.Seat), faces, m.selBlocks())
	if err != nil {
		m.Refuse(Refusal(game101, err))
		return false
	}
	if !p.whole || len(p.groups) == 0 {
		m.Refuse(m.SelText())
		return false
	}
	a, ok := engine.LayAction101(m.Snap.Seat, slots, faces, p.groups)
	if !ok {
		m.Refuse(i18n.T("those tiles do not make melds"))
		return false
	}
	what := Plural(len(p.groups), i18n.T("you lay 1 meld (%d points)", p.value), i18n.T("you lay %d melds (%d points)", len(p.groups), p.value))
	if p.pairs {
		what = Plural(len(p.groups), i18n.T("you lay 1 double"), i18n.T("you lay %d doubles", len(p.groups)))
	}
	if g.Opened(m.Snap.Seat) == engine.NotOpened {
		what = i18n.T("you open: %s", what)
	}
	if !m.Send101(a, what) {
		return false
	}
	m.Sel = nil
	return true
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

// AddTo adds the selection (or the tile under the cursor) to meld i;
// a single tile that an okey of that meld stands for swaps it instead.
func (m *Table) AddTo(i int) bool {
	g := m.myRound()
	if g == nil {
		return false
	}
	melds := g.Melds()
	if i < 0 || i >= len(melds) {
		m.Refuse(i18n.T("no meld %c on the table", HandleOf(max(i, 0))))
		return false
	}
	slots, faces := m.Selection()
	if len(slots) == 0 {
		if sl := m.Rack.At(m.Rack.Cursor); sl != engine.NoSlot {
			slots, faces = []engine.Slot{sl}, []engine.Face{m.Face(sl)}
		}
	}
	if len(slots) == 0 {
		m.Refuse(i18n.T("select the tile to add first (space or a click)"))
		return false
	}
	if slices.Contains(faces, engine.NoFace) {
		m.Refuse(i18n.T("a selected tile is not open to you yet"))
		return false
	}
	seat := m.Snap.Seat
	a, err := addAction101(m.Snap.Match101, seat, i, slots, faces)
	if err == nil {
		if !m.Send101(a, i18n.T("you add %s to meld %c", engine.FormatFaces(faces), HandleOf(i))) {
			return false
		}
		m.Sel = nil
		return true
	}
	if len(slots) == 1 && faces[0] != g.Okey() {
		md := melds[i]
		want := plain101(g.Okey(), faces[0])
		for k, sl := range md.Tiles {
			if g.IsOkeySlot(sl) && md.As[k] == want {
				sw := engine.Action101{Kind: engine.Act101Swap, Seat: seat, Meld: i, Pos: k,
					Faces: []engine.SlotFace{{Slot: slots[0], Face: faces[0]}}}
				if !m.Send101(sw, i18n.T("you swap the okey of meld %c for your %s: the okey is yours", HandleOf(i), faces[0].String())) {
					return false
				}
				m.Sel = nil
				return true
			}
		}
	}
	m.Refuse(Refusal(game101, err))
	return false
}

// Add adds the selection to the one meld it fits, or asks for a handle.
func (m *Table) Add() bool {
	g := m.myRound()
	if g == nil {
		return false
	}
	if g.Opened(m.Snap.Seat) == engine.NotOpened {
		m.Refuse(Refusal(game101, engine.ErrNotOpened))
		return false
	}
	_, faces := m.Selection()
	if len(faces) == 0 {
		if sl := m.Rack.At(m.Rack.Cursor); sl != engine.NoSlot {
			faces = []engine.Face{m.Face(sl)}
		}
	}
	var targets []int
	if len(faces) == 1 {
		add, swap := g.AddTargets(faces[0])
		targets = append(add, swap...)
	}
	if len(targets) == 1 {
		return m.AddTo(targets[0])
	}
	m.Say(i18n.T("press the handle of the meld to add to (1-9, A-Z), or click the meld"))
	return false
}

// DiscardTarget is the tile a discard is about: in 101 the one tile
// selected; otherwise the picked-up tile, or the one under the cursor.
func (m *Table) DiscardTarget() engine.Slot {
	s := m.Target()
	if Game(m.Snap) == Okey101 {
		if slots, _ := m.Selection(); len(slots) == 1 && m.Rack.Lifted < 0 {
			s = slots[0]
		}
	}
	return s
}
