package tablemodel

import (
	"slices"

	"github.com/okey-game/okey/engine"
)

// The rack has two rows of RackCols positions, like a wooden istaka: tiles
// stand anywhere on it, with gaps.
const (
	RackRows = 2
	RackCols = 15
	RackSize = RackRows * RackCols
)

// Rack is where the player's tiles stand on its rack. It is the player's own
// arrangement: the engine knows only which slots are in the rack.
// Positions run row by row, 0..RackSize-1.
type Rack struct {
	pos    [RackSize]engine.Slot // engine.NoSlot where the rack is empty
	Cursor int
	// Lifted is the position of the picked-up tile, or -1.
	Lifted int
	undo   [][RackSize]engine.Slot
}

// NewRack returns an empty rack.
func NewRack() *Rack {
	r := &Rack{Lifted: -1}
	r.Clear()
	return r
}

// Clear empties the rack and forgets the undo history.
func (r *Rack) Clear() {
	for i := range r.pos {
		r.pos[i] = engine.NoSlot
	}
	r.undo = nil
	r.Lifted = -1
}

// At returns the slot at position p (engine.NoSlot for a gap).
func (r *Rack) At(p int) engine.Slot {
	if p < 0 || p >= RackSize {
		return engine.NoSlot
	}
	return r.pos[p]
}

// Find returns the position of slot s, or -1.
func (r *Rack) Find(s engine.Slot) int {
	for i, x := range r.pos {
		if x == s {
			return i
		}
	}
	return -1
}

// Tiles returns the slots on the rack in position order.
func (r *Rack) Tiles() []engine.Slot {
	var out []engine.Slot
	for _, s := range r.pos {
		if s != engine.NoSlot {
			out = append(out, s)
		}
	}
	return out
}

// Sync makes the rack hold exactly slots: tiles that left it (a discard, a
// win) leave a gap, new tiles (a draw, a take) go after the last tile. On an
// empty rack (a new hand) the tiles are laid out in face order. faces gives
// the face of each of slots where known.
func (r *Rack) Sync(slots []engine.Slot, faces []engine.Face) {
	want := map[engine.Slot]bool{}
	for _, s := range slots {
		want[s] = true
	}
	empty := true
	for i, s := range r.pos {
		if s == engine.NoSlot {
			continue
		}
		if !want[s] {
			r.pos[i] = engine.NoSlot
			if r.Lifted == i {
				r.Lifted = -1
			}
			continue
		}
		empty = false
		delete(want, s)
	}
	if len(want) == 0 {
		return
	}
	var add []int // indexes into slots
	for i, s := range slots {
		if want[s] {
			add = append(add, i)
		}
	}
	if empty {
		slices.SortStableFunc(add, func(a, b int) int { return int(FaceKey(faces[a])) - int(FaceKey(faces[b])) })
	}
	last := -1
	for i, s := range r.pos {
		if s != engine.NoSlot {
			last = i
		}
	}
	for _, i := range add {
		p := r.free(last + 1)
		r.pos[p] = slots[i]
		last = p
	}
}

// FaceKey orders faces for display: by colour and number, false jokers and
// unknown faces last.
func FaceKey(f engine.Face) int {
	if f == engine.NoFace {
		return 1000
	}
	return int(f)
}

// free returns the first empty position from p on, wrapping around.
func (r *Rack) free(p int) int {
	for k := 0; k < RackSize; k++ {
		q := (p + k) % RackSize
		if r.pos[q] == engine.NoSlot {
			return q
		}
	}
	panic("ui: internal error: the rack is full")
}

func (r *Rack) save() {
	r.undo = append(r.undo, r.pos)
	if len(r.undo) > 100 {
		r.undo = r.undo[1:]
	}
}

// CanUndo reports whether there is a rack move to undo.
func (r *Rack) CanUndo() bool { return len(r.undo) > 0 }

// Undo takes back the last rearrangement (a move or a sort). Tiles that have
// left the rack since stay gone and new ones stay: the caller Syncs after.
func (r *Rack) Undo() bool {
	if len(r.undo) == 0 {
		return false
	}
	r.pos = r.undo[len(r.undo)-1]
	r.undo = r.undo[:len(r.undo)-1]
	r.Lifted = -1
	return true
}

// MoveCursor moves the cursor by dx positions within its row and dy rows,
// stopping at the ends.
func (r *Rack) MoveCursor(dx, dy int) {
	row, col := r.Cursor/RackCols, r.Cursor%RackCols
	col = min(max(col+dx, 0), RackCols-1)
	row = min(max(row+dy, 0), RackRows-1)
	r.Cursor = row*RackCols + col
}

// Lift picks up the tile under the cursor. It reports false on a gap.
func (r *Rack) Lift() bool {
	if r.pos[r.Cursor] == engine.NoSlot {
		return false
	}
	r.Lifted = r.Cursor
	return true
}

// Drop puts the lifted tile down at the cursor: into a gap, or, on a tile,
// pushing that tile and its neighbours towards the nearest gap in the row
// (right first); in a full row the two tiles swap. It reports whether the
// rack changed.
func (r *Rack) Drop() bool {
	from, to := r.Lifted, r.Cursor
	r.Lifted = -1
	if from < 0 || from == to {
		return false
	}
	r.save()
	s := r.pos[from]
	r.pos[from] = engine.NoSlot
	if r.pos[to] == engine.NoSlot {
		r.pos[to] = s
		return true
	}
	row := to / RackCols
	lo, hi := row*RackCols, row*RackCols+RackCols-1
	for g := to + 1; g <= hi; g++ {
		if r.pos[g] == engine.NoSlot {
			copy(r.pos[to+1:g+1], r.pos[to:g])
			r.pos[to] = s
			return true
		}
	}
	for g := to - 1; g >= lo; g-- {
		if r.pos[g] == engine.NoSlot {
			copy(r.pos[g:to], r.pos[g+1:to+1])
			r.pos[to] = s
			return true
		}
	}
	r.pos[from], r.pos[to] = r.pos[to], s
	return true
}

// Sort lays the tiles out as engine.Arrange groups them: sets first (the
// "sort sets" button) or runs first ("sort runs"), a gap between groups, a
// group kept on one row where it fits, the tiles in no group last.
func (r *Rack) Sort(okey engine.Face, slots []engine.Slot, faces []engine.Face, runsFirst bool) {
	if !okey.Valid() {
		return
	}
	var known []engine.Face
	pool := map[engine.Face][]engine.Slot{}
	var unknown []engine.Slot
	for i, s := range slots {
		if faces[i] == engine.NoFace {
			unknown = append(unknown, s)
			continue
		}
		known = append(known, faces[i])
		pool[faces[i]] = append(pool[faces[i]], s)
	}
	take := func(f engine.Face) engine.Slot {
		ss := pool[f]
		if len(ss) == 0 {
			return engine.NoSlot
		}
		pool[f] = ss[1:]
		return ss[0]
	}
	groups, rest := engine.Arrange(okey, known, runsFirst)
	var blocks [][]engine.Slot
	for _, g := range groups {
		var b []engine.Slot
		for _, f := range g.Tiles {
			if s := take(f); s != engine.NoSlot {
				b = append(b, s)
			}
		}
		blocks = append(blocks, b)
	}
	var tail []engine.Slot
	for _, f := range rest {
		if s := take(f); s != engine.NoSlot {
			tail = append(tail, s)
		}
	}
	// Anything Arrange did not return (it should return every tile) and the
	// unknown faces go last too.
	for _, f := range known {
		for s := take(f); s != engine.NoSlot; s = take(f) {
			tail = append(tail, s)
		}
	}
	tail = append(tail, unknown...)
	r.arrange(blocks, tail)
}

// arrange lays the rack out as blocks and then tail (if any): with gaps
// (layout) when they fit, packed when they do not; as one undoable change,
// and none when the rack is already so.
func (r *Rack) arrange(blocks [][]engine.Slot, tail []engine.Slot) {
	if len(tail) > 0 {
		blocks = append(blocks, tail)
	}
	next, ok := layout(blocks, true)
	if !ok {
		next, _ = layout(blocks, false)
	}
	if next == r.pos {
		return
	}
	r.save()
	r.pos = next
	r.Lifted = -1
}

// SortPairs arranges the rack for seven pairs (or 101's doubles): each
// pair of equal faces a block, then the okeys, then the single tiles in
// colour and number order, the unknown faces last; undo brings the old
// order back.
func (r *Rack) SortPairs(okey engine.Face, slots []engine.Slot, faces []engine.Face) {
	pool := map[engine.Face][]engine.Slot{}
	var order []engine.Face // the known faces, each once, sorted
	var unknown, okeys []engine.Slot
	for i, s := range slots {
		switch f := faces[i]; {
		case f == engine.NoFace:
			unknown = append(unknown, s)
		case f == okey:
			okeys = append(okeys, s)
		default:
			if len(pool[f]) == 0 {
				order = append(order, f)
			}
			pool[f] = append(pool[f], s)
		}
	}
	slices.Sort(order)
	var blocks [][]engine.Slot
	var singles []engine.Slot
	for _, f := range order {
		ss := pool[f]
		for len(ss) >= 2 {
			blocks = append(blocks, ss[:2])
			ss = ss[2:]
		}
		singles = append(singles, ss...)
	}
	tail := append(append(okeys, singles...), unknown...)
	r.arrange(blocks, tail)
}

// layout places blocks of tiles row by row, a gap between blocks when gaps
// is set, moving a block to the next row when it does not fit the rest of
// the row (a block longer than a row is split).
func layout(blocks [][]engine.Slot, gaps bool) ([RackSize]engine.Slot, bool) {
	var out [RackSize]engine.Slot
	for i := range out {
		out[i] = engine.NoSlot
	}
	p := 0
	for _, b := range blocks {
		if len(b) == 0 {
			continue
		}
		col := p % RackCols
		if gaps && col != 0 && col+len(b) > RackCols && len(b) <= RackCols {
			p += RackCols - col
		}
		for _, s := range b {
			if p >= RackSize {
				return out, false
			}
			out[p] = s
			p++
		}
		if gaps && p%RackCols != 0 {
			p++
		}
	}
	return out, true
}

// Restore puts the tiles of slots where pos has them; pos's other slots
// are left out (they left the rack) and tiles pos lacks are left for Sync
// to add. It reports whether pos placed any tile; it changes nothing when
// pos names a slot twice.
func (r *Rack) Restore(pos [RackSize]engine.Slot, slots []engine.Slot) bool {
	seen := map[engine.Slot]bool{}
	for _, s := range pos {
		if s == engine.NoSlot {
			continue
		}
		if seen[s] {
			return false
		}
		seen[s] = true
	}
	placed := false
	for i, s := range pos {
		if s != engine.NoSlot && slices.Contains(slots, s) {
			r.pos[i] = s
			placed = true
		} else {
			r.pos[i] = engine.NoSlot
		}
	}
	r.Lifted = -1
	r.undo = nil
	return placed
}

// Positions is the arrangement: by position, row by row, the slot standing
// there (engine.NoSlot for a gap).
func (r *Rack) Positions() [RackSize]engine.Slot { return r.pos }

// Still is a copy of r with nothing picked up and no undo history (the
// rack as a hand ended, drawn under its panel).
func (r *Rack) Still() *Rack {
	c := *r
	c.undo, c.Lifted = nil, -1
	return &c
}
