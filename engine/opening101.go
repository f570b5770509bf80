package engine

// The best opening of Okey 101 a rack allows: the most points in sets and
// runs, and the most doubles.
//
// Points: a dynamic programme over the numbers 1..13. Within a number it
// visits the four colours; a colour's state is its two run tracks (there are
// two tiles of each face, so at most two runs of one colour pass through a
// number), each 0 (none), 1, 2 or 3 (three or more tiles so far), kept
// sorted. A track of 1 or 2 must go on to the next number; a track of 3 may
// stop. The tiles of a number not used in tracks may go to sets: per colour
// 0, 1 or 2 of them; after the fourth colour the sets of the number close
// (one set: 3..4 tiles, each colour once; two sets: 6..8 tiles, each colour
// at most twice), okeys filling in. Okeys used so far are part of the state.
// Among states with the same key the highest value wins (the first one met
// on a tie), so the result is a pure function of the rack. There is no 14th
// number: a run never wraps from 13 to 1.

// Opening101 is the best opening a rack allows.
type Opening101 struct {
	// Value is the most points the rack can lay in sets and runs, and Groups
	// those sets and runs (Tiles the printed faces, As what each plays as).
	Value  int
	Groups []Group
	// Doubles is the most doubles the rack can lay, and Pairs those doubles.
	Doubles int
	Pairs   []Group
}

// Opens reports whether the rack can open: 101 points or five doubles.
func (o Opening101) Opens() bool { return o.Value >= 101 || o.Doubles >= 5 }

// BestOpening101 returns the best opening of a rack of faces (any size) for
// the okey okey. jokerDoubles is false under the option no-joker-doubles.
// It runs in time linear in the rack's size with a bounded state space; the
// result does not depend on the order of rack.
func BestOpening101(okey Face, rack []Face, jokerDoubles bool) (Opening101, error) {
	return BestOpening101With(okey, rack, jokerDoubles, NoFace)
}

// BestOpening101With is BestOpening101 where the opening must use a tile of
// face must (the discard just taken; NoFace for none), by the rule of
// UsesTaken. When no opening uses it, Value is 0 (no groups) or Doubles is 0
// (no pairs) respectively.
func BestOpening101With(okey Face, rack []Face, jokerDoubles bool, must Face) (Opening101, error) {
	if okey >= FalseJoker {
		return Opening101{}, errorf(ErrBadTile, "okey %v", okey)
	}
	if err := ValidateHand(rack); err != nil {
		return Opening101{}, err
	}
	if must != NoFace {
		have := false
		for _, f := range rack {
			have = have || f == must
		}
		if !have {
			return Opening101{}, errorf(ErrNotHeld, "the rack has no %v", must)
		}
	}
	var o Opening101
	var dp openDP
	dp.init(okey, rack, must)
	o.Value, o.Groups = dp.run()
	o.Doubles, o.Pairs = bestDoubles(okey, rack, jokerDoubles, must)
	if must != NoFace && !UsesTaken(o.Groups, must) {
		o.Value, o.Groups = 0, nil
	}
	return o, nil
}

// UsesTaken reports whether groups lay a tile of printed face taken: the
// rule that a player who takes a discard before opening opens with it
// (okey-classic.txt, Okey 101), in the form the analysis needs. The table
// (Game101) checks that the taken slot is among the tiles laid; tiles of
// one printed face are interchangeable, so groups with a tile of the taken
// face can always lay the taken slot in its place (LayAction101 with the
// slot first among its face). The face compared is the printed one: a false
// joker taken is used only by laying a false joker (never by an okey
// playing as the okey's face), and an okey taken only by laying an okey
// (never by a false joker).
func UsesTaken(groups []Group, taken Face) bool {
	for _, g := range groups {
		for _, t := range g.Tiles {
			if t == taken {
				return true
			}
		}
	}
	return false
}

// bestDoubles counts the most doubles: identical tiles (a false joker and,
// under no-joker-doubles, an okey play as the okey's face), then
// (jokerDoubles) an okey with a single tile, then two okeys together. With
// must, among the most doubles one that uses a tile of face must (by
// UsesTaken), or none (0) when no pairing uses it.
func bestDoubles(okey Face, rack []Face, jokerDoubles bool, must Face) (int, []Group) {
	wildMust := must == okey && jokerDoubles // the taken tile is a wild okey
	var cnt [NumFaces]int                    // tiles by the face they play as, wild okeys aside
	wild, fj, plainOkeys := 0, 0, 0
	for _, f := range rack {
		switch {
		case f == okey && jokerDoubles:
			wild++
			continue
		case f == FalseJoker:
			fj++
		case f == okey:
			plainOkeys++
		}
		cnt[natural(okey, f)]++
	}
	// printed is the k-th tile playing as face as. At the okey's face (false
	// jokers, and okeys under no-joker-doubles) the kind that must be used
	// comes first, so that the first double of that face holds it.
	printed := func(as Face, k int) Face {
		if as != okey {
			return as
		}
		first, firstN, second := FalseJoker, fj, okey
		if must == okey {
			first, firstN, second = okey, plainOkeys, FalseJoker
		}
		if k < firstN {
			return first
		}
		return second
	}
	var pairs []Group
	var singles []Face
	for f := Face(0); f < FalseJoker; f++ {
		k := 0
		for ; k+1 < cnt[f]; k += 2 {
			pairs = append(pairs, Group{Kind: Pair, Tiles: []Face{printed(f, k), printed(f, k+1)}, As: []Face{f, f}})
		}
		if k < cnt[f] {
			singles = append(singles, f)
		}
	}
	// A single of the face that must be used goes first to an okey.
	if must != NoFace && !wildMust {
		m := natural(okey, must)
		for i, f := range singles {
			if f == m {
				copy(singles[1:i+1], singles[:i])
				singles[0] = m
			}
		}
	}
	j := 0
	for _, f := range singles {
		if j == wild {
			break
		}
		pairs = append(pairs, Group{Kind: Pair, Tiles: []Face{printed(f, cnt[f]-1), okey}, As: []Face{f, f}})
		j++
	}
	if wild-j >= 2 {
		pairs = append(pairs, Group{Kind: Pair, Tiles: []Face{okey, okey}, As: []Face{okey, okey}})
		j += 2
	}
	// A lone okey taken with no single to pair with takes the place of a
	// tile in a double: as many doubles, and the okey is used.
	if wildMust && j == 0 && wild > 0 && len(pairs) > 0 {
		pairs[0].Tiles[1] = okey
	}
	sortGroups(pairs)
	if must != NoFace && !UsesTaken(pairs, must) {
		return 0, nil
	}
	return len(pairs), pairs
}

// sortGroups orders groups by the face their first tile plays as, then by
// length (a stable insertion sort: deterministic).
func sortGroups(gs []Group) {
	less := func(a, b Group) bool {
		if a.As[0] != b.As[0] {
			return a.As[0] < b.As[0]
		}
		return len(a.As) < len(b.As)
	}
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && less(gs[j], gs[j-1]); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

// The state key: bits 0..15 the four colours' track pairs (4 bits each: two
// 2-bit tracks, smaller first), bits 16..17 the okeys used, bit 18 whether
// the must tile is used, bits 19..22 the set tiles of the current number,
// bit 23 whether a colour gave two tiles to the number's sets.
const (
	keyJokShift = 16
	keyMustBit  = 1 << 18
	keySetShift = 19
	keyTwoBit   = 1 << 23
)

type dpEntry struct {
	key    uint32
	value  int32
	parent int32 // index in all of the entry this one grew from
	dec    uint8 // colour step: cont1 | cont2<<1 | sets<<2 | okeys<<4; close: okeys to sets
}

type openDP struct {
	okey   Face
	cnt    [NumColours][16]int8 // plain tiles playing as each face (false jokers as the okey's face)
	fj     int                  // false jokers in the rack
	jokers int
	// The tile that must be used: mustWild when it is an okey (any okey
	// used); else must is the face it plays as (a false joker as the okey's
	// face: the only plain tiles of that face), NoFace for none.
	must     Face
	mustWild bool
	// all holds every layer's entries; layer L is all[start[L]:start[L+1]].
	// Layer (n-1)*5 + k is after colour k-1 of number n (k = 1..4); k = 0
	// after closing number n-1's sets.
	all   []dpEntry
	start [13*5 + 2]int32
	index dpIndex
	// rem[n][c]: the points of the plain tiles of number n in colours c..3
	// and of every number above n (an upper bound of what is left to lay).
	rem [15][NumColours + 1]int32
	// avail[n][c]: plain tiles of number n in colours c..3.
	avail [15][NumColours + 1]int8
	lb    int32 // the best value of a complete layout seen at a closed number
	// sf[c][n][t1|t2<<2]: shortfall(c, n, t1, t2), precomputed.
	sf [NumColours][14][16]int8
}

func (d *openDP) init(okey Face, rack []Face, must Face) {
	d.okey, d.must = okey, NoFace
	for _, f := range rack {
		switch {
		case f == okey:
			d.jokers++
		default:
			if f == FalseJoker {
				d.fj++
			}
			g := natural(okey, f)
			d.cnt[g.Colour()][g.Number()]++
		}
	}
	switch {
	case must == okey:
		d.mustWild = true
	case must != NoFace:
		d.must = natural(okey, must)
	}
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			for t := 0; t < 16; t++ {
				d.sf[c][n][t] = int8(d.shortfall(c, n, t&3, t>>2))
			}
		}
	}
	for n := 13; n >= 1; n-- {
		d.rem[n][NumColours] = d.rem[n+1][0]
		for c := NumColours - 1; c >= 0; c-- {
			d.rem[n][c] = d.rem[n][c+1] + int32(n)*int32(d.cnt[c][n])
			d.avail[n][c] = d.avail[n][c+1] + d.cnt[c][n]
		}
	}
}

// tracks returns colour c's two tracks (smaller first) from a key.
func tracksOf(key uint32, c int) (int, int) {
	v := key >> (4 * c)
	return int(v & 3), int(v >> 2 & 3)
}

func withTracks(key uint32, c, t1, t2 int) uint32 {
	if t1 > t2 {
		t1, t2 = t2, t1
	}
	key &^= 0xF << (4 * c)
	return key | uint32(t1|t2<<2)<<(4*c)
}

// add puts e into the layer being built, keeping the higher value (the
// first on a tie) of two entries with one key.
func (d *openDP) add(e dpEntry) {
	if i, ok := d.index.find(e.key); ok {
		if e.value > d.all[i].value {
			d.all[i] = e
		}
		return
	}
	d.index.put(e.key, int32(len(d.all)))
	d.all = append(d.all, e)
}

func (d *openDP) layer(l int) []dpEntry { return d.all[d.start[l]:d.start[l+1]] }

// run fills the layers and reconstructs the best groups.
func (d *openDP) run() (int, []Group) {
	start := uint32(0)
	if d.must == NoFace && !d.mustWild {
		start |= keyMustBit
	}
	d.all = make([]dpEntry, 0, 2048)
	d.all = append(d.all, dpEntry{key: start, parent: -1})
	d.start[1] = 1
	l := 0
	for n := 1; n <= 13; n++ {
		for c := 0; c <= NumColours; c++ {
			d.index.reset()
			if c < NumColours {
				d.colourStep(l, n, c)
			} else {
				d.closeStep(l, n)
			}
			l++
			d.start[l+1] = int32(len(d.all))
		}
	}
	last := d.layer(l)
	best := -1
	for i, e := range last {
		if !allDone(e.key) || e.key&keyMustBit == 0 {
			continue
		}
		if best < 0 || e.value > last[best].value {
			best = i
		}
	}
	if best < 0 || last[best].value == 0 {
		return 0, nil
	}
	return int(last[best].value), d.rebuild(int(d.start[l]) + best)
}

// allDone reports whether every track is 0 or 3 (no run left short).
func allDone(key uint32) bool {
	for c := 0; c < NumColours; c++ {
		t1, t2 := tracksOf(key, c)
		if t1 == 1 || t1 == 2 || t2 == 1 || t2 == 2 {
			return false
		}
	}
	return true
}

// shortfall is how many okeys colour c's tracks (after number n) need at
// least to reach three tiles, or -1 when they cannot (past 13).
func (d *openDP) shortfall(c, n, t1, t2 int) int {
	need1, need2 := 0, 0 // tiles needed at n+1 and at n+2
	for _, t := range [2]int{t1, t2} {
		if t == 1 || t == 2 {
			need1++
		}
		if t == 1 {
			need2++
		}
	}
	if need1 > 0 && n+1 > 13 || need2 > 0 && n+2 > 13 {
		return -1
	}
	return max(0, need1-int(d.cnt[c][n+1])) + max(0, need2-int(d.cnt[c][n+2]))
}

func (d *openDP) colourStep(from, n, c int) {
	a := int(d.cnt[c][n])
	isMust := d.must != NoFace && d.must == NewFace(Colour(c), n)
	jokers := d.jokers
	for pi := d.start[from]; pi < d.start[from+1]; pi++ {
		e := d.all[pi]
		jok := int(e.key >> keyJokShift & 3)
		if e.value+d.rem[n][c]+int32(13*(jokers-jok)) < d.lb {
			continue // cannot reach a layout already seen
		}
		t1, t2 := tracksOf(e.key, c)
		sets := int(e.key >> keySetShift & 15)
		two := e.key&keyTwoBit != 0
		for cont := 0; cont < 4; cont++ {
			c1, c2 := cont&1, cont>>1
			if c1 == 0 && (t1 == 1 || t1 == 2) || c2 == 0 && (t2 == 1 || t2 == 2) {
				continue
			}
			need := c1 + c2
			nat := min(a, need)
			jn := need - nat
			n1, n2 := 0, 0
			if c1 == 1 {
				n1 = min(t1+1, 3)
			}
			if c2 == 1 {
				n2 = min(t2+1, 3)
			}
			sf := int(d.sf[c][n][n1|n2<<2])
			if sf < 0 || jok+jn+sf > jokers {
				continue
			}
			for s := 0; s <= a-nat && s <= 2; s++ {
				t, tw := sets+s, two || s == 2
				// The number's sets must still be able to reach 3 (one
				// set) or 6 (two) tiles with what is left.
				if t > 8 || t > 0 && t+int(d.avail[n][c+1])+jokers-jok-jn < 3 ||
					tw && t+int(d.avail[n][c+1])+jokers-jok-jn < 6 {
					continue
				}
				key := withTracks(e.key, c, n1, n2)
				key = key&^(3<<keyJokShift) | uint32(jok+jn)<<keyJokShift
				key = key&^(15<<keySetShift) | uint32(t)<<keySetShift
				if tw {
					key |= keyTwoBit
				}
				if isMust && nat+s > 0 {
					key |= keyMustBit
				}
				d.add(dpEntry{key: key, value: e.value + int32(n*(need+s)), parent: pi,
					dec: uint8(c1 | c2<<1 | s<<2 | jn<<4)})
			}
		}
	}
}

func (d *openDP) closeStep(from, n int) {
	for pi := d.start[from]; pi < d.start[from+1]; pi++ {
		e := d.all[pi]
		jok := int(e.key >> keyJokShift & 3)
		sets := int(e.key >> keySetShift & 15)
		two := e.key&keyTwoBit != 0
		for js := 0; jok+js <= d.jokers; js++ {
			t := sets + js
			ok := t == 0 || !two && t >= 3 && t <= 4 || t >= 6 && t <= 8
			if !ok {
				continue
			}
			key := e.key &^ (keyTwoBit | 15<<keySetShift | 3<<keyJokShift)
			key |= uint32(jok+js) << keyJokShift
			if d.mustWild && jok+js > 0 {
				key |= keyMustBit
			}
			v := e.value + int32(n*js)
			if v > d.lb && key&keyMustBit != 0 && allDone(key) {
				d.lb = v
			}
			d.add(dpEntry{key: key, value: v, parent: pi, dec: uint8(js)})
		}
	}
}

// rebuild follows the parents of the best final entry and lays out its
// groups: runs as the tracks grew, sets as each number closed.
func (d *openDP) rebuild(best int) []Group {
	var path [13 * 5]dpEntry
	var keys [13*5 + 1]uint32
	i := best
	for l := 13 * 5; l > 0; l-- {
		e := d.all[i]
		path[l-1], keys[l] = e, e.key
		i = int(e.parent)
	}
	keys[0] = d.all[0].key
	var groups []Group
	type track struct{ tiles, as []Face }
	var tr [NumColours][2]track
	fjLeft := d.fj
	plain := func(f Face) Face {
		if f == d.okey && fjLeft > 0 {
			fjLeft--
			return FalseJoker
		}
		return f
	}
	flush := func(t *track) {
		if len(t.as) > 0 {
			groups = append(groups, Group{Kind: Run, Tiles: t.tiles, As: t.as})
		}
		*t = track{}
	}
	for n := 1; n <= 13; n++ {
		var setTiles [NumColours]int
		for c := 0; c < NumColours; c++ {
			l := (n-1)*5 + c
			e := path[l]
			t1, t2 := tracksOf(keys[l], c)
			c1, c2 := int(e.dec&1), int(e.dec>>1&1)
			s, jn := int(e.dec>>2&3), int(e.dec>>4&3)
			face := NewFace(Colour(c), n)
			// Map the sorted tracks to the actual ones by their state.
			st := func(t *track) int { return min(len(t.as), 3) }
			a, b := &tr[c][0], &tr[c][1]
			if st(a) != t1 || st(b) != t2 {
				a, b = b, a
			}
			if st(a) != t1 || st(b) != t2 {
				panic("engine: internal error: opening tracks out of step")
			}
			nat := c1 + c2 - jn
			for k, t := range []*track{a, b} {
				if []int{c1, c2}[k] == 0 {
					flush(t)
					continue
				}
				tile := d.okey
				if nat > 0 {
					tile, nat = plain(face), nat-1
				}
				t.tiles = append(t.tiles, tile)
				t.as = append(t.as, face)
			}
			setTiles[c] = s
		}
		js := int(path[(n-1)*5+4].dec)
		groups = append(groups, buildSets(n, setTiles, js, d.okey, plain)...)
	}
	for c := range tr {
		flush(&tr[c][0])
		flush(&tr[c][1])
	}
	sortGroups(groups)
	return groups
}

// buildSets lays out the sets of number n from the tiles of each colour given
// to sets and js okeys: one set, or two with every colour of two in both.
func buildSets(n int, per [NumColours]int, js int, okey Face, plain func(Face) Face) []Group {
	total := js
	for _, k := range per {
		total += k
	}
	if total == 0 {
		return nil
	}
	var g [2]Group
	var has [2][NumColours]bool
	put := func(i int, c Colour, tile Face) {
		g[i].Tiles = append(g[i].Tiles, tile)
		g[i].As = append(g[i].As, NewFace(c, n))
		has[i][c] = true
	}
	sets := 1
	if total >= 6 {
		sets = 2
	}
	next := 0
	for c := 0; c < NumColours; c++ {
		for k := 0; k < per[c]; k++ {
			i := next
			if per[c] == 2 {
				i = k
			} else if sets == 2 {
				next = 1 - next
			}
			put(i, Colour(c), plain(NewFace(Colour(c), n)))
		}
	}
	for ; js > 0; js-- {
		i := 0
		if sets == 2 && len(g[1].As) < len(g[0].As) {
			i = 1
		}
		for c := 0; c < NumColours; c++ {
			if !has[i][c] {
				put(i, Colour(c), okey)
				break
			}
		}
	}
	var out []Group
	for i := 0; i < sets; i++ {
		g[i].Kind = Set
		sortMeldFaces(g[i].Tiles, g[i].As)
		out = append(out, g[i])
	}
	return out
}

// sortMeldFaces orders a group's tiles by the face they play as.
func sortMeldFaces(tiles, as []Face) {
	for i := 1; i < len(as); i++ {
		for j := i; j > 0 && as[j] < as[j-1]; j-- {
			as[j], as[j-1] = as[j-1], as[j]
			tiles[j], tiles[j-1] = tiles[j-1], tiles[j]
		}
	}
}

// dpIndex maps a key to its position in the layer being built: open
// addressing with generation stamps, so a reset costs nothing.
type dpIndex struct {
	gen   uint32
	slots []dpSlot
	n     int
}

type dpSlot struct {
	key, gen uint32
	idx      int32
}

func (x *dpIndex) reset() {
	x.gen++
	x.n = 0
	if x.slots == nil {
		x.slots = make([]dpSlot, 1<<10)
	}
}

func (x *dpIndex) hash(k uint32) int {
	h := k * 0x9E3779B1
	return int((h ^ h>>15) & uint32(len(x.slots)-1))
}

func (x *dpIndex) find(k uint32) (int32, bool) {
	for i := x.hash(k); ; i = (i + 1) & (len(x.slots) - 1) {
		s := &x.slots[i]
		if s.gen != x.gen {
			return 0, false
		}
		if s.key == k {
			return s.idx, true
		}
	}
}

func (x *dpIndex) put(k uint32, idx int32) {
	if 2*(x.n+1) > len(x.slots) {
		old := x.slots
		x.slots = make([]dpSlot, 2*len(old))
		g := x.gen
		x.n = 0
		for _, s := range old {
			if s.gen == g {
				x.insert(s.key, s.idx)
			}
		}
	}
	x.insert(k, idx)
}

func (x *dpIndex) insert(k uint32, idx int32) {
	for i := x.hash(k); ; i = (i + 1) & (len(x.slots) - 1) {
		s := &x.slots[i]
		if s.gen != x.gen {
			*s = dpSlot{key: k, gen: x.gen, idx: idx}
			x.n++
			return
		}
	}
}
