package engine

import "math/bits"

// Distance returns how many tiles of hand (14 tiles) must be exchanged, at
// the fewest, to make a winning hand (groups or seven pairs).
//
// Exactly: the least k such that removing k tiles from hand and adding k
// tiles gives a winning 14-tile hand with no face more than twice (the deck
// has two tiles of each face, two okeys and two false jokers). Any face may
// come in, up to that limit, an okey included; which tiles are still in the
// stock is not considered (the indicator, discards and other racks are
// ignored). Distance is 0 exactly when the hand wins. It returns -1 for a
// hand that is not 14 valid tiles or an okey that is not a numbered face.
func Distance(okey Face, hand []Face) int {
	if len(hand) != WinSize {
		return -1
	}
	t, ok := tallyOf(okey, hand)
	if !ok {
		return -1
	}
	return distanceOf(&t, WinSize, WinSize)
}

// BestDiscards returns, for a hand of 15 tiles, the distinct faces whose
// discard leaves a 14-tile hand of the least Distance, sorted by face, and
// that distance. It returns nil, -1 for invalid input.
func BestDiscards(okey Face, hand []Face) (discards []Face, distance int) {
	if len(hand) != WinSize+1 {
		return nil, -1
	}
	t, ok := tallyOf(okey, hand)
	if !ok {
		return nil, -1
	}
	best := WinSize + 1
	for f := Face(0); f < NumFaces; f++ {
		rest, ok := t.without(okey, f)
		if !ok {
			continue
		}
		// Only a distance of at most best matters: search below best+1.
		d := distanceOf(&rest, WinSize, best+1)
		switch {
		case d < best:
			best = d
			discards = append(discards[:0], f)
		case d == best:
			discards = append(discards, f)
		}
	}
	return discards, best
}

// distanceOf is Distance for a tally of size tiles, where a winning hand is
// size tiles in groups, or size/2 pairs. It returns the exact distance when
// that is below limit, and some value of at least limit otherwise.
func distanceOf(t *tally, size, limit int) int {
	d := pairsDistance(t, size)
	if d < limit {
		limit = d
	}
	if limit == 0 {
		return 0
	}
	var s distSearch
	s.cnt = t.c
	s.size = size
	s.rem = int(t.real)
	// Keeping more than real-limit plain tiles means a distance below limit.
	s.best = int(t.real) - limit
	s.charges()
	s.setAsidePure()
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			if s.cnt[c][n] > 0 {
				s.pres[c] |= 1 << n
			}
		}
	}
	s.dfs(0, 1)
	if g := int(t.real) - s.best; g < limit {
		return g
	}
	return limit
}

// pairsDistance is the distance to size/2 pairs. Keep every pair, match
// singles with okeys, then okeys together; each pair so made keeps two tiles.
// Any pair slot left keeps one more tile (a single or an okey with a new
// copy of anything) if one is left over.
func pairsDistance(t *tally, size int) int {
	var p2, s1 int
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			switch t.c[c][n] {
			case 2:
				p2++
			case 1:
				s1++
			}
		}
	}
	w := int(t.wild)
	slots := size / 2
	kept := 0
	m := min(p2, slots)
	kept, slots = kept+2*m, slots-m
	m = min(s1, w, slots)
	kept, slots, s1, w = kept+2*m, slots-m, s1-m, w-m
	m = min(w/2, slots)
	kept, slots, w = kept+2*m, slots-m, w-2*m
	kept += min(s1+w, slots)
	return size - kept
}

// The groups distance search.
//
// Distance = the plain tiles exchanged: the held okeys are always kept (a
// target has at least as many new places as okeys held, and an okey can
// fill any of them), so the search maximises the plain tiles kept in some
// target hand.
//
// It decides, lowest plain tile first, whether each tile is exchanged or
// kept, and in which group of the target. A group is chosen as a template:
// a set (3 or 4 colours at a number) or a run window (colour, lo..hi). The
// plain tiles left in a template are all kept (exchange argument: a kept
// tile elsewhere or a new tile of that face could swap with it), its other
// places are new tiles. Templates are normalised: a run window spans its
// kept tiles, widened to 3 tiles when shorter; a set has 3 colours unless it
// keeps 4; the target's extra places are new tiles added at the end. Where
// normalisation leaves a choice that only changes the faces of new tiles (a
// tile kept alone: six ways; two tiles: two ways) the choice is deferred to
// the leaf. Exchanging a tile exchanges all its copies: keeping one copy and
// exchanging the other is reached from the first copy's options.
//
// tgt counts the plain tiles of each face in the target; a place whose face
// already has two must hold an okey (over counts them; with at most two okeys
// in a hand, over <= 2).
//
// At a leaf r = size-slots places are still to fill: r = 0 is done; r >= 3
// can always be new groups of new tiles without a third copy of a face (the
// target holds at most 11 tiles, so at most 5 faces are full: some number
// has all four colours free for a set, some colour a free stretch of 5); r =
// 1 or 2 must widen groups (a run by a tile at either end, a set of 3 to 4).
//
// The bound: a kept tile is in a group of m places with k kept tiles;
// charge it m/k places. Each tile's least charge over the groups it could
// be in (with the whole hand) is computed once; for a face held twice, the
// second copy is charged the least total of two groups that share no face
// held once, less the first copy's charge. The remaining capacity holds at
// most as many tiles as the cheapest charges fit.

type distGroup struct {
	set    bool
	col    int8  // run colour
	num    int8  // set number
	lo, hi int8  // run window
	cmask  uint8 // set colours
}

// costUnit is the unit of a tile's charge: 1/costUnit places.
const costUnit = 60

// chargeOf[m][k] is costUnit*max(3,m)/k: the charge of each of k kept tiles
// in a group of m places (m, k <= 14).
var chargeOf = func() (t [15][15]int16) {
	for m := range t {
		for k := 1; k < len(t[m]); k++ {
			t[m][k] = int16(costUnit * max(3, m) / k)
		}
	}
	return t
}()

type distSearch struct {
	cnt   [NumColours][16]int8
	tgt   [NumColours][16]int8
	size  int
	slots int // places in the chosen templates
	kept  int // plain tiles kept
	rem   int // plain tiles not yet decided
	over  int // places that must hold an okey
	best  int // most plain tiles kept in a target found (or the bound)
	n     int
	gs    [24]distGroup
	defs  [16]distDeferred // groups whose new places are chosen at the leaf
	nd    int
	pres  [NumColours]uint16 // bit n: a tile of colour, number n is undecided
	pure  [16][2]int8        // tiles set aside: no group is better than alone
	npure int

	cls     [NumColours][16]int8 // charge class of each face (its first copy)
	cls2    [NumColours][16]int8 // charge class of a face's second copy
	clsCost [16]int16            // charges, ascending
	clsCnt  [16]int8             // undecided tiles per class
	ncls    int
}

// charges computes each face's least charge and the classes.
func (s *distSearch) charges() {
	var cost, cost2 [NumColours][16]int16
	var pres [NumColours]uint32 // bit p: a tile at position p (14: the 1)
	var colk [16]int8           // colours held at each number
	var once uint64             // bit c*16+n: a face held once
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			switch s.cnt[c][n] {
			case 0:
				continue
			case 1:
				once |= 1 << (c*16 + n)
			}
			pres[c] |= 1 << n
			colk[n]++
		}
		if pres[c]&2 != 0 {
			pres[c] |= 1 << 14
		}
	}
	var vals [32]int16
	nv := 0
	addVal := func(v int16) {
		for i := 0; i < nv; i++ {
			if vals[i] == v {
				return
			}
		}
		vals[nv] = v
		nv++
	}
	for c := 0; c < NumColours; c++ {
		// Sets: with all the colours held at the number.
		for m := pres[c] & (1<<14 - 1); m != 0; m &= m - 1 {
			n := bits.TrailingZeros32(m)
			cost[c][n] = chargeOf[colk[n]][colk[n]]
		}
		// Runs: windows lo..hi, at most 13 long (so never holding both 1
		// and 14). Only windows from a tile to a tile matter (a wider one
		// keeps no more), each widened to 3 if shorter.
		var ps [15]int
		np := 0
		for m := pres[c]; m != 0; m &= m - 1 {
			ps[np] = bits.TrailingZeros32(m)
			np++
		}
		for i := 0; i < np; i++ {
			for j := i; j < np && ps[j]-ps[i] <= 12; j++ {
				ch := chargeOf[ps[j]-ps[i]+1][j-i+1]
				for k := i; k <= j; k++ {
					p := ps[k]
					if p == 14 {
						p = 1
					}
					cost[c][p] = min(cost[c][p], ch)
				}
			}
		}
		for m := pres[c] & (1<<14 - 1); m != 0; m &= m - 1 {
			n := bits.TrailingZeros32(m)
			addVal(cost[c][n])
			if s.cnt[c][n] == 2 {
				cost2[c][n] = s.secondCharge(c, n, cost[c][n], &pres, once, ps[:np])
				addVal(cost2[c][n])
			}
		}
	}
	// Classes in ascending charge.
	for i := 1; i < nv; i++ {
		for j := i; j > 0 && vals[j] < vals[j-1]; j-- {
			vals[j], vals[j-1] = vals[j-1], vals[j]
		}
	}
	s.ncls = nv
	copy(s.clsCost[:], vals[:nv])
	for c := 0; c < NumColours; c++ {
		for m := pres[c] & (1<<14 - 1); m != 0; m &= m - 1 {
			n := bits.TrailingZeros32(m)
			for i := 0; i < nv; i++ {
				if vals[i] == cost[c][n] {
					s.cls[c][n] = int8(i)
					s.clsCnt[i]++
				}
				if s.cnt[c][n] == 2 && vals[i] == cost2[c][n] {
					s.cls2[c][n] = int8(i)
					s.clsCnt[i]++
				}
			}
		}
	}
}

// secondCharge is the charge of the second copy of a face (c, n) held
// twice, whose first copy is charged first: the two copies are in two
// groups that share no face held once, so it is the least total charge of
// two such groups, less first. ps are the positions of colour c held.
func (s *distSearch) secondCharge(c, n int, first int16, pres *[NumColours]uint32, once uint64, ps []int) int16 {
	var gch [8 + 32]int16
	var gmask [8 + 32]uint64
	ng := 0
	// Sets: with any of the other colours held at n.
	var others [NumColours]int
	no := 0
	for x := 0; x < NumColours; x++ {
		if x != c && pres[x]&(1<<n) != 0 {
			others[no] = x
			no++
		}
	}
	for sub := 0; sub < 1<<no; sub++ {
		var m uint64
		for i, x := range others[:no] {
			if sub&(1<<i) != 0 {
				m |= 1 << (x*16 + n)
			}
		}
		k := 1 + bits.OnesCount(uint(sub))
		gch[ng], gmask[ng] = chargeOf[k][k], m
		ng++
	}
	// Runs: any tiles of the colour with this one (a group may leave out a
	// tile between two of its tiles: that tile is in another group and a new
	// tile takes its place). Too many tiles to try: the plain bound.
	np := len(ps)
	if np > 5 {
		return first
	}
	for sub := 1; sub < 1<<np; sub++ {
		lo, hi := 15, 0
		hasN := false
		var m uint64
		for i := 0; i < np; i++ {
			if sub&(1<<i) == 0 {
				continue
			}
			p := ps[i]
			lo, hi = min(lo, p), max(hi, p)
			q := p
			if q == 14 {
				q = 1
			}
			if q == n {
				hasN = true
			} else {
				m |= 1 << (c*16 + q)
			}
		}
		if !hasN || hi-lo > 12 {
			continue
		}
		gch[ng], gmask[ng] = chargeOf[hi-lo+1][bits.OnesCount(uint(sub))], m
		ng++
	}
	pair := int16(6 * costUnit)
	least := int16(3 * costUnit)
	for a := 0; a < ng; a++ {
		least = min(least, gch[a])
	}
	for a := 0; a < ng; a++ {
		if gch[a]+least >= pair {
			continue
		}
		for b := a; b < ng; b++ {
			if gch[a]+gch[b] < pair && gmask[a]&gmask[b]&once == 0 {
				pair = gch[a] + gch[b]
			}
		}
	}
	return pair - first
}

// setAsidePure takes out of the search the tiles whose least charge is 3
// places (every group with other tiles costs at least 2 new places per kept
// tile). Such a tile is never better off in a group with other
// kept tiles than alone (splitting it off keeps as many tiles in no more
// places), so the search leaves them out and keeps as many as fit at each
// leaf. They stay in the bound's classes.
func (s *distSearch) setAsidePure() {
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			for s.cnt[c][n] > 0 && s.clsCost[s.cls[c][n]] == 3*costUnit {
				s.pure[s.npure] = [2]int8{int8(c), int8(n)}
				s.npure++
				s.cnt[c][n]--
				s.rem--
			}
		}
	}
}

// leaf completes a target: it keeps as many set-aside tiles alone as fit and
// the best kept count found improves.
func (s *distSearch) leaf() {
	for j := min(s.npure, (s.size-s.slots)/3); j >= 0 && s.kept+j > s.best; j-- {
		if s.placePure(0, j) {
			s.best = s.kept + j
			return
		}
	}
}

// placePure keeps j of the set-aside tiles from i on, alone, and checks the
// whole target (placeSingles).
func (s *distSearch) placePure(i, j int) bool {
	if j == 0 {
		return s.placeDeferred(0)
	}
	for ; s.npure-i >= j; i++ {
		c, n := int(s.pure[i][0]), int(s.pure[i][1])
		s.addSlot(c, n)
		s.slots += 3
		s.defs[s.nd] = distDeferred{kind: defSingle, c: int8(c), n: int8(n)}
		s.nd++
		ok := s.over <= 2 && s.placePure(i+1, j-1)
		s.nd--
		s.slots -= 3
		s.delSlot(c, n)
		if ok {
			return true
		}
	}
	return false
}

// bound is the most plain tiles any completion of the current node keeps.
func (s *distSearch) bound() int {
	budget := (s.size - s.slots) * costUnit
	extra := s.kept
	for i := 0; i < s.ncls; i++ {
		k, cost := int(s.clsCnt[i]), int(s.clsCost[i])
		if k*cost > budget {
			return extra + budget/cost
		}
		extra += k
		budget -= k * cost
	}
	return extra
}

func (s *distSearch) addSlot(c, p int) {
	if p == 14 {
		p = 1
	}
	if s.tgt[c][p] >= 2 {
		s.over++
	}
	s.tgt[c][p]++
}

func (s *distSearch) delSlot(c, p int) {
	if p == 14 {
		p = 1
	}
	s.tgt[c][p]--
	if s.tgt[c][p] >= 2 {
		s.over--
	}
}

// take keeps a plain tile of face (c, p) if one is left.
func (s *distSearch) take(c, p int) bool {
	if p == 14 {
		p = 1
	}
	if s.cnt[c][p] > 0 {
		s.cnt[c][p]--
		if s.cnt[c][p] == 0 {
			s.pres[c] &^= 1 << p
			s.clsCnt[s.cls[c][p]]--
		} else {
			s.clsCnt[s.cls2[c][p]]--
		}
		s.kept++
		s.rem--
		return true
	}
	return false
}

func (s *distSearch) untake(c, p int) {
	if p == 14 {
		p = 1
	}
	s.cnt[c][p]++
	s.pres[c] |= 1 << p
	if s.cnt[c][p] == 2 {
		s.clsCnt[s.cls2[c][p]]++
	} else {
		s.clsCnt[s.cls[c][p]]++
	}
	s.kept--
	s.rem++
}

// distOption is one template for the lowest tile.
type distOption struct {
	kind   uint8 // optSet, optRun, optDeferred
	cmask  uint8 // set colours
	lo, hi int8  // run window
	def    distDeferred
	score  int8
}

const (
	optSet = iota
	optRun
	optDeferred
)

// distDeferred is a group kept with two new tiles (defSingle: one kept tile)
// or one (defSetPair: colours c and x at n; defRunPair: n and n+1 of colour
// c), whose new places are chosen at the leaf: the choices only differ in
// the faces of the new tiles.
type distDeferred struct {
	kind    uint8
	c, n, x int8
}

const (
	defSingle = iota
	defSetPair
	defRunPair
)

func (s *distSearch) dfs(c, n int) {
	if s.bound() <= s.best {
		return
	}
	m := s.pres[c] &^ (1<<n - 1)
	for m == 0 {
		c++
		if c == NumColours {
			s.leaf()
			return
		}
		m = s.pres[c]
	}
	n = bits.TrailingZeros16(m)
	pres := uint32(s.pres[c])
	if pres&2 != 0 {
		pres |= 1 << 14 // the 1, seen after 13
	}

	var opts [32]distOption
	no := 0
	// Runs up from n to a tile at n+2 or beyond.
	for r := pres >> (n + 2) << (n + 2) & (1<<14 - 1); r != 0; r &= r - 1 {
		hi := bits.TrailingZeros32(r)
		gain := bits.OnesCount32(pres >> n & (1<<(hi-n+1) - 1))
		opts[no] = distOption{kind: optRun, lo: int8(n), hi: int8(hi), score: int8(2*gain - (hi - n + 1))}
		no++
	}
	if n+1 <= 13 && pres&(1<<(n+1)) != 0 {
		opts[no] = distOption{kind: optDeferred, def: distDeferred{kind: defRunPair, c: int8(c), n: int8(n)}, score: 1}
		no++
	}
	if n == 1 {
		// Runs ending with this 1 as the high 1.
		addDown := func(lo int) {
			gain := bits.OnesCount32(pres >> lo & (1<<(15-lo) - 1))
			opts[no] = distOption{kind: optRun, lo: int8(lo), hi: 14, score: int8(2*gain - (15 - lo))}
			no++
		}
		for r := pres & (1<<13 - 1) &^ 3; r != 0; r &= r - 1 {
			addDown(bits.TrailingZeros32(r))
		}
		if pres&(1<<13) != 0 && pres&(1<<12) == 0 {
			addDown(12)
		}
	}
	// Sets.
	var others uint8
	for x := c + 1; x < NumColours; x++ {
		if s.pres[x]&(1<<n) != 0 {
			others |= 1 << x
		}
	}
	switch bits.OnesCount8(others) {
	case 3:
		opts[no] = distOption{kind: optSet, cmask: 0xF, score: 4}
		no++
		for x := 0; x < NumColours; x++ {
			if x != c {
				opts[no] = distOption{kind: optSet, cmask: 0xF &^ (1 << x), score: 3}
				no++
			}
		}
	case 2:
		opts[no] = distOption{kind: optSet, cmask: others | 1<<c, score: 3}
		no++
	}
	for o := others; o != 0; o &= o - 1 {
		x := bits.TrailingZeros8(o)
		opts[no] = distOption{kind: optDeferred, def: distDeferred{kind: defSetPair, c: int8(c), n: int8(n), x: int8(x)}, score: 1}
		no++
	}
	opts[no] = distOption{kind: optDeferred, def: distDeferred{kind: defSingle, c: int8(c), n: int8(n)}, score: -1}
	no++
	// Best-looking first (stable insertion sort: the order is fixed).
	for i := 1; i < no; i++ {
		for j := i; j > 0 && opts[j].score > opts[j-1].score; j-- {
			opts[j], opts[j-1] = opts[j-1], opts[j]
		}
	}
	for i := range opts[:no] {
		switch o := &opts[i]; o.kind {
		case optSet:
			s.trySet(c, n, o.cmask)
		case optRun:
			s.tryRun(c, n, int(o.lo), int(o.hi))
		default:
			s.tryDeferred(c, n, o.def)
		}
	}
	// Or exchange the tile: all its copies (keeping one copy and exchanging
	// the other is tried from the first copy's options).
	k := s.cnt[c][n]
	s.cnt[c][n] = 0
	s.pres[c] &^= 1 << n
	s.clsCnt[s.cls[c][n]]--
	if k == 2 {
		s.clsCnt[s.cls2[c][n]]--
	}
	s.rem -= int(k)
	s.dfs(c, n)
	s.rem += int(k)
	s.clsCnt[s.cls[c][n]]++
	if k == 2 {
		s.clsCnt[s.cls2[c][n]]++
	}
	s.pres[c] |= 1 << n
	s.cnt[c][n] = k
}

func (s *distSearch) trySet(c, n int, m uint8) {
	k := bits.OnesCount8(m)
	if s.slots+k > s.size {
		return
	}
	var took uint8
	for x := 0; x < NumColours; x++ {
		if m&(1<<x) != 0 {
			s.addSlot(x, n)
			if s.take(x, n) {
				took |= 1 << x
			}
		}
	}
	s.slots += k
	if s.over <= 2 {
		s.gs[s.n] = distGroup{set: true, num: int8(n), cmask: m}
		s.n++
		s.dfs(c, n)
		s.n--
	}
	s.slots -= k
	for x := 0; x < NumColours; x++ {
		if m&(1<<x) != 0 {
			s.delSlot(x, n)
			if took&(1<<x) != 0 {
				s.untake(x, n)
			}
		}
	}
}

func (s *distSearch) tryRun(c, n, lo, hi int) {
	k := hi - lo + 1
	if s.slots+k > s.size {
		return
	}
	var took uint16
	for p := lo; p <= hi; p++ {
		s.addSlot(c, p)
		if s.take(c, p) {
			took |= 1 << p
		}
	}
	s.slots += k
	if s.over <= 2 {
		s.gs[s.n] = distGroup{col: int8(c), lo: int8(lo), hi: int8(hi)}
		s.n++
		s.dfs(c, n)
		s.n--
	}
	s.slots -= k
	for p := lo; p <= hi; p++ {
		s.delSlot(c, p)
		if took&(1<<p) != 0 {
			s.untake(c, p)
		}
	}
}

// tryDeferred keeps the tiles of d now and leaves its new places to the leaf.
func (s *distSearch) tryDeferred(c, n int, d distDeferred) {
	if s.slots+3 > s.size {
		return
	}
	x, p := c, n // the second kept tile, if any
	switch d.kind {
	case defSetPair:
		x = int(d.x)
	case defRunPair:
		p = n + 1
	}
	s.take(c, n)
	s.addSlot(c, n)
	if d.kind != defSingle {
		s.take(x, p)
		s.addSlot(x, p)
	}
	s.slots += 3
	s.defs[s.nd] = d
	s.nd++
	if s.over <= 2 {
		s.dfs(c, n)
	}
	s.nd--
	s.slots -= 3
	if d.kind != defSingle {
		s.delSlot(x, p)
		s.untake(x, p)
	}
	s.delSlot(c, n)
	s.untake(c, n)
}

// placeDeferred chooses the new places of the deferred groups from i on,
// then checks the places left (see extend).
func (s *distSearch) placeDeferred(i int) bool {
	if i == s.nd {
		r := s.size - s.slots
		return r == 0 || r >= 3 || s.extend(r)
	}
	d := s.defs[i]
	c, n := int(d.c), int(d.n)
	try := func(g distGroup, f1, f2 [2]int, two bool) bool {
		s.addSlot(f1[0], f1[1])
		if two {
			s.addSlot(f2[0], f2[1])
		}
		ok := false
		if s.over <= 2 {
			s.gs[s.n] = g
			s.n++
			ok = s.placeDeferred(i + 1)
			s.n--
		}
		if two {
			s.delSlot(f2[0], f2[1])
		}
		s.delSlot(f1[0], f1[1])
		return ok
	}
	switch d.kind {
	case defSetPair:
		for y := 0; y < NumColours; y++ {
			if y != c && y != int(d.x) {
				g := distGroup{set: true, num: int8(n), cmask: 1<<c | 1<<d.x | 1<<y}
				if try(g, [2]int{y, n}, [2]int{}, false) {
					return true
				}
			}
		}
		return false
	case defRunPair:
		if n >= 2 && try(distGroup{col: int8(c), lo: int8(n - 1), hi: int8(n + 1)}, [2]int{c, n - 1}, [2]int{}, false) {
			return true
		}
		return n+2 <= 14 && try(distGroup{col: int8(c), lo: int8(n), hi: int8(n + 2)}, [2]int{c, n + 2}, [2]int{}, false)
	}
	// A single: runs n-2..n, n-1..n+1, n..n+2, for a 1 also 12..14, then sets.
	for lo := n - 2; lo <= n; lo++ {
		if lo < 1 || lo+2 > 14 {
			continue
		}
		var f [2][2]int
		j := 0
		for p := lo; p <= lo+2; p++ {
			if p != n {
				f[j] = [2]int{c, p}
				j++
			}
		}
		if try(distGroup{col: int8(c), lo: int8(lo), hi: int8(lo + 2)}, f[0], f[1], true) {
			return true
		}
	}
	if n == 1 && try(distGroup{col: int8(c), lo: 12, hi: 14}, [2]int{c, 12}, [2]int{c, 13}, true) {
		return true
	}
	for x := 0; x < NumColours; x++ {
		if x == c {
			continue
		}
		var f [2][2]int
		j := 0
		for y := 0; y < NumColours; y++ {
			if y != c && y != x {
				f[j] = [2]int{y, n}
				j++
			}
		}
		if try(distGroup{set: true, num: int8(n), cmask: 0xF &^ (1 << x)}, f[0], f[1], true) {
			return true
		}
	}
	return false
}

// extend reports whether r more places can be added to the chosen groups,
// each widening a run at one end or making a set of three a set of four,
// with over <= 2.
func (s *distSearch) extend(r int) bool {
	if r == 0 {
		return s.over <= 2
	}
	for i := 0; i < s.n; i++ {
		g := &s.gs[i]
		if g.set {
			if bits.OnesCount8(g.cmask) != 3 {
				continue
			}
			x := bits.TrailingZeros8(^g.cmask)
			s.addSlot(x, int(g.num))
			g.cmask |= 1 << x
			ok := s.over <= 2 && s.extend(r-1)
			g.cmask &^= 1 << x
			s.delSlot(x, int(g.num))
			if ok {
				return true
			}
			continue
		}
		c := int(g.col)
		if g.lo > 1 && !(g.lo == 2 && g.hi == 14) {
			g.lo--
			s.addSlot(c, int(g.lo))
			ok := s.over <= 2 && s.extend(r-1)
			s.delSlot(c, int(g.lo))
			g.lo++
			if ok {
				return true
			}
		}
		if g.hi < 14 && !(g.lo == 1 && g.hi == 13) {
			g.hi++
			s.addSlot(c, int(g.hi))
			ok := s.over <= 2 && s.extend(r-1)
			s.delSlot(c, int(g.hi))
			g.hi--
			if ok {
				return true
			}
		}
	}
	return false
}
