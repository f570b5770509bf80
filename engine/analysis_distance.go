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
	forEachDiscard(okey, &t, func(f Face, rest *tally) {
		// Only a distance of at most best matters: search below best+1.
		d := distanceOf(rest, WinSize, best+1)
		switch {
		case d < best:
			best = d
			discards = append(discards[:0], f)
		case d == best:
			discards = append(discards, f)
		}
	})
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
	s.dfs(0)
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
// It decides, lowest plain tile first, whether each tile is kept and in
// which group of the target hand. A group is chosen as a template: a set (3
// or 4 colours at a number) or a run window (colour, lo..hi). The plain
// tiles left in the template are all kept (exchange argument: a kept tile
// elsewhere or a new tile of that face could swap with it), its other places
// are new tiles. Run windows are normalised: they span the kept tiles,
// widened to 3 tiles when shorter; the target's extra places are new tiles
// added at the end. tgt counts the plain tiles of each face in the target;
// a place whose face already has two must hold an okey (over counts them;
// with at most two okeys in a hand, over <= 2). The okeys held are always
// kept: there are at least as many new places as okeys held.
//
// At a leaf r = size-slots places are still to fill: r = 0 is done; r >= 3
// can always be new groups of new tiles without a third copy of a face (the
// target holds at most 11 tiles, so at most 5 faces are full: some number
// has all four colours free for a set, some colour a free stretch of 5); r =
// 1 or 2 must widen groups (a run by a tile at either end, a set of 3 to 4).

type distGroup struct {
	set    bool
	col    int8  // run colour
	num    int8  // set number
	lo, hi int8  // run window
	cmask  uint8 // set colours
}

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
	gs    [16]distGroup
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
	s.kept--
	s.rem++
}

// option is one template for the lowest tile.
type distOption struct {
	set    bool
	cmask  uint8
	lo, hi int8
	score  int8
}

func (s *distSearch) dfs(start int) {
	if s.kept+min(s.rem, s.size-s.slots) <= s.best {
		return
	}
	c, n := start/13, start%13+1
	for ; c < NumColours; c, n = c+1, 1 {
		for ; n <= 13 && s.cnt[c][n] == 0; n++ {
		}
		if n <= 13 {
			break
		}
	}
	if c == NumColours {
		if r := s.size - s.slots; r == 0 || r >= 3 || s.extend(r) {
			s.best = s.kept
		}
		return
	}
	idx := c*13 + n - 1

	var opts [24]distOption
	no := 0
	row := &s.cnt[c]
	addRun := func(lo, hi int) {
		if lo < 1 || hi > 14 || (lo == 1 && hi == 14) || hi-lo < 2 {
			return
		}
		gain := 0
		for p := lo; p <= hi; p++ {
			q := p
			if q == 14 {
				q = 1
			}
			if row[q] > 0 {
				gain++
			}
		}
		opts[no] = distOption{lo: int8(lo), hi: int8(hi), score: int8(2*gain - (hi - lo + 1))}
		no++
	}
	if n == 1 {
		addRun(12, 14)
		for p := 11; p >= 2; p-- {
			if row[p] > 0 {
				addRun(p, 14)
			}
		}
	}
	addRun(n, n+2)
	for p := n + 3; p <= 13; p++ {
		if row[p] > 0 {
			addRun(n, p)
		}
	}
	addRun(n-1, n+1)
	addRun(n-2, n)
	for x := 0; x < NumColours; x++ {
		// Sets of three without colour x, and (x == c) the set of four.
		m := uint8(0xF) &^ (1 << x)
		if x == c {
			m = 0xF
		}
		gain := 0
		for y := 0; y < NumColours; y++ {
			if m&(1<<y) != 0 && s.cnt[y][n] > 0 {
				gain++
			}
		}
		opts[no] = distOption{set: true, cmask: m, score: int8(2*gain - bits.OnesCount8(m))}
		no++
	}
	// Best-looking first (stable insertion sort: the order is fixed).
	for i := 1; i < no; i++ {
		for j := i; j > 0 && opts[j].score > opts[j-1].score; j-- {
			opts[j], opts[j-1] = opts[j-1], opts[j]
		}
	}
	for _, o := range opts[:no] {
		if o.set {
			s.trySet(c, n, idx, o.cmask)
		} else {
			s.tryRun(c, idx, int(o.lo), int(o.hi))
		}
	}
	// Or exchange the tile.
	row[n]--
	s.rem--
	s.dfs(idx)
	s.rem++
	row[n]++
}

func (s *distSearch) trySet(c, n, idx int, m uint8) {
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
		s.dfs(idx)
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

func (s *distSearch) tryRun(c, idx, lo, hi int) {
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
		s.dfs(idx)
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
