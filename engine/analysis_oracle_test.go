package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A slow, obviously correct oracle for the hand rules, straight from the
// definitions: try every partition of the tiles into groups (or pairs), and
// for distance every exchange of d tiles.

// oPlain returns the face a non-okey tile plays as.
func oPlain(okey, f Face) Face {
	if f == FalseJoker {
		return okey
	}
	return f
}

// oGroupOK reports whether g (3 or more tiles) is a set or a run.
func oGroupOK(okey Face, g []Face) bool {
	return oSetOK(okey, g) || oRunOK(okey, g)
}

func oSetOK(okey Face, g []Face) bool {
	if len(g) < 3 || len(g) > 4 {
		return false
	}
	num, seen := -1, [NumColours]bool{}
	for _, f := range g {
		if f == okey {
			continue
		}
		p := oPlain(okey, f)
		if num >= 0 && p.Number() != num {
			return false
		}
		num = p.Number()
		if seen[p.Colour()] {
			return false
		}
		seen[p.Colour()] = true
	}
	return true
}

func oRunOK(okey Face, g []Face) bool {
	k := len(g)
	if k < 3 || k > 13 {
		return false
	}
	col := -1
	var nums []int
	for _, f := range g {
		if f == okey {
			continue
		}
		p := oPlain(okey, f)
		if col >= 0 && int(p.Colour()) != col {
			return false
		}
		col = int(p.Colour())
		if slices.Contains(nums, p.Number()) {
			return false
		}
		nums = append(nums, p.Number())
	}
	// Positions 1..14, 14 being the 1 after 13; a window may not hold both.
	for a := 1; a+k-1 <= 14; a++ {
		b := a + k - 1
		if a == 1 && b == 14 {
			continue
		}
		fits := true
		for _, n := range nums {
			if n == 1 {
				fits = fits && (a == 1 || b == 14)
			} else {
				fits = fits && a <= n && n <= b
			}
		}
		if fits {
			return true
		}
	}
	return false
}

// oCouldGrow reports whether some set or run contains g.
func oCouldGrow(okey Face, g []Face) bool {
	if len(g) > 13 {
		return false
	}
	sameNum, sameCol := true, true
	var cols [NumColours]bool
	var nums [14]bool
	num, col := -1, -1
	for _, f := range g {
		if f == okey {
			continue
		}
		p := oPlain(okey, f)
		if num >= 0 && p.Number() != num {
			sameNum = false
		}
		if col >= 0 && int(p.Colour()) != col {
			sameCol = false
		}
		num, col = p.Number(), int(p.Colour())
		if cols[p.Colour()] {
			sameNum = false
		}
		cols[p.Colour()] = true
		if nums[p.Number()] {
			sameCol = false
		}
		nums[p.Number()] = true
	}
	return (sameNum && len(g) <= 4) || sameCol
}

// oGrouped reports whether the tiles split into sets and runs.
func oGrouped(okey Face, h []Face) bool {
	used := make([]bool, len(h))
	return oGroupedRec(okey, h, used)
}

func oGroupedRec(okey Face, h []Face, used []bool) bool {
	i := slices.Index(used, false)
	if i < 0 {
		return true
	}
	used[i] = true
	var grow func(start int, g []Face) bool
	grow = func(start int, g []Face) bool {
		if len(g) >= 3 && oGroupOK(okey, g) && oGroupedRec(okey, h, used) {
			return true
		}
		for j := start; j < len(h); j++ {
			if used[j] {
				continue
			}
			g2 := append(slices.Clip(g), h[j])
			if !oCouldGrow(okey, g2) {
				continue
			}
			used[j] = true
			ok := grow(j+1, g2)
			used[j] = false
			if ok {
				return true
			}
		}
		return false
	}
	ok := grow(i+1, []Face{h[i]})
	used[i] = false
	return ok
}

// oPairs reports whether the tiles split into pairs of identical tiles, an
// okey pairing with anything.
func oPairs(okey Face, h []Face) bool {
	if len(h)%2 != 0 {
		return false
	}
	if len(h) == 0 {
		return true
	}
	for j := 1; j < len(h); j++ {
		if h[j] == h[0] || h[0] == okey || h[j] == okey {
			rest := slices.Delete(slices.Clone(h), j, j+1)[1:]
			if oPairs(okey, rest) {
				return true
			}
		}
	}
	return false
}

// oValid reports whether the hand has no face more than twice.
func oValid(h []Face) bool {
	var n [256]int
	for _, f := range h {
		n[f]++
		if n[f] > 2 {
			return false
		}
	}
	return true
}

// oWins is the oracle's verdict for a hand of any size: groups, or (even
// size) pairs.
func oWins(okey Face, h []Face) bool {
	return oPairs(okey, h) || oGrouped(okey, h)
}

// fastWins is the fast code's verdict for a hand of any size.
func fastWins(okey Face, h []Face) bool {
	t, ok := tallyOf(okey, h)
	if !ok {
		return false
	}
	if len(h)%2 == 0 && t.pairsWin() {
		return true
	}
	s := winSearch{t: t}
	return s.win(0)
}

// oDistance is the least d <= maxD such that exchanging d tiles of h makes a
// winning hand with no face more than twice (win decides), or maxD+1.
func oDistance(h []Face, maxD int, win func([]Face) bool) int {
	for d := 0; d <= maxD; d++ {
		found := false
		forCombos(len(h), d, func(rm []int) bool {
			kept := make([]Face, 0, len(h))
			for i, f := range h {
				if !slices.Contains(rm, i) {
					kept = append(kept, f)
				}
			}
			forMultisets(int(NumFaces), d, func(add []int) bool {
				cand := slices.Clone(kept)
				for _, a := range add {
					cand = append(cand, Face(a))
				}
				if oValid(cand) && win(cand) {
					found = true
				}
				return !found
			})
			return !found
		})
		if found {
			return d
		}
	}
	return maxD + 1
}

// forCombos calls fn with each k-subset of 0..n-1 (increasing) until fn
// returns false.
func forCombos(n, k int, fn func([]int) bool) {
	idx := make([]int, k)
	var rec func(pos, start int) bool
	rec = func(pos, start int) bool {
		if pos == k {
			return fn(idx)
		}
		for i := start; i < n; i++ {
			idx[pos] = i
			if !rec(pos+1, i+1) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// forMultisets calls fn with each non-decreasing k-tuple of 0..n-1.
func forMultisets(n, k int, fn func([]int) bool) {
	idx := make([]int, k)
	var rec func(pos, start int) bool
	rec = func(pos, start int) bool {
		if pos == k {
			return fn(idx)
		}
		for i := start; i < n; i++ {
			idx[pos] = i
			if !rec(pos+1, i) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// ---- random hands ----

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed+1)) }

// deckFaces returns the 106 faces of the deck.
func deckFaces() []Face {
	out := make([]Face, 0, DeckSize)
	for t := Tile(0); t < DeckSize; t++ {
		out = append(out, t.Face())
	}
	return out
}

// randomHand deals n tiles of a shuffled deck and a random okey.
func randomHand(r *rand.Rand, n int) (Face, []Face) {
	d := deckFaces()
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return Face(r.IntN(52)), slices.Clone(d[:n])
}

// poolHand deals n tiles from two copies of a few faces (dense hands, where
// groups interact), the okey among them or not.
func poolHand(r *rand.Rand, n int) (Face, []Face) {
	var pool []Face
	cols := r.Perm(NumColours)[:2]
	nums := []int{1, 2, 3, 4, 5, 11, 12, 13}
	r.Shuffle(len(nums), func(i, j int) { nums[i], nums[j] = nums[j], nums[i] })
	nums = nums[:5]
	for _, c := range cols {
		for _, num := range nums {
			f := NewFace(Colour(c), num)
			pool = append(pool, f, f)
		}
	}
	// A third colour at two of the numbers, for sets.
	third := Colour(r.Perm(NumColours)[0])
	for _, num := range nums[:2] {
		f := NewFace(third, num)
		if !slices.Contains(pool, f) {
			pool = append(pool, f, f)
		}
	}
	okey := pool[r.IntN(len(pool))]
	if r.IntN(3) == 0 {
		okey = Face(r.IntN(52))
	}
	if !slices.Contains(pool, okey) {
		pool = append(pool, okey, okey)
	}
	pool = append(pool, FalseJoker)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	return okey, slices.Clone(pool[:n])
}

// winningHand builds a random winning hand of n tiles in groups (n >= 3),
// with up to two tiles replaced by okeys.
func winningHand(r *rand.Rand, n int) (Face, []Face) {
	for {
		okey := Face(r.IntN(52))
		var h []Face
		for len(h) < n {
			left := n - len(h)
			var g []Face
			if r.IntN(2) == 0 {
				num := 1 + r.IntN(13)
				k := 3 + r.IntN(2)
				for _, c := range r.Perm(NumColours)[:k] {
					g = append(g, NewFace(Colour(c), num))
				}
			} else {
				c := Colour(r.IntN(NumColours))
				k := 3 + r.IntN(4)
				a := 1 + r.IntN(14-k+1)
				if a == 1 && a+k-1 == 14 {
					a = 2
				}
				for p := a; p < a+k; p++ {
					num := p
					if num == 14 {
						num = 1
					}
					g = append(g, NewFace(c, num))
				}
			}
			if len(g) > left || left-len(g) == 1 || left-len(g) == 2 {
				continue
			}
			h = append(h, g...)
		}
		// Faces that are the okey's face are played by false jokers.
		for i, f := range h {
			if f == okey {
				h[i] = FalseJoker
			}
		}
		for k := r.IntN(3); k > 0; k-- {
			h[r.IntN(len(h))] = okey
		}
		if oValid(h) {
			r.Shuffle(len(h), func(i, j int) { h[i], h[j] = h[j], h[i] })
			return okey, h
		}
	}
}

// perturb exchanges k random tiles of h for random faces, keeping at most
// two of each face.
func perturb(r *rand.Rand, h []Face, k int) []Face {
	for {
		out := slices.Clone(h)
		for i := 0; i < k; i++ {
			out[r.IntN(len(out))] = Face(r.IntN(int(NumFaces)))
		}
		if oValid(out) {
			return out
		}
	}
}

// ---- cross-checks ----

func TestWinMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 600 / raceScale
	if testing.Short() {
		n = 150
	}
	type gen struct {
		name string
		fn   func() (Face, []Face)
	}
	gens := []gen{
		{"random", func() (Face, []Face) { return randomHand(r, 14) }},
		{"pool", func() (Face, []Face) { return poolHand(r, 14) }},
		{"winning", func() (Face, []Face) { return winningHand(r, 14) }},
		{"near", func() (Face, []Face) {
			okey, h := winningHand(r, 14)
			return okey, perturb(r, h, 1)
		}},
		{"pool9", func() (Face, []Face) { return poolHand(r, 9) }},
		{"winning9", func() (Face, []Face) { return winningHand(r, 9) }},
	}
	for _, g := range gens {
		wins := 0
		for i := 0; i < n; i++ {
			okey, h := g.fn()
			want := oWins(okey, h)
			if len(h) != WinSize {
				want = oGrouped(okey, h)
				if got := IsGrouped(okey, h); got != want {
					t.Fatalf("%s: IsGrouped(%v, %s) = %v, oracle %v", g.name, okey, FormatFaces(h), got, want)
				}
				continue
			}
			if want {
				wins++
			}
			if got := IsWinning(okey, h); got != want {
				t.Fatalf("%s: IsWinning(%v, %s) = %v, oracle %v", g.name, okey, FormatFaces(h), got, want)
			}
			arr, ok := WinningArrangement(okey, h)
			if ok != want {
				t.Fatalf("%s: WinningArrangement ok = %v, oracle %v", g.name, ok, want)
			}
			if ok {
				checkArrangement(t, okey, h, arr)
				if wantPairs := oPairs(okey, h); (arr.Kind == Pairs) != wantPairs {
					t.Fatalf("%s: %s: kind %v, oracle pairs %v", g.name, FormatFaces(h), arr.Kind, wantPairs)
				}
			}
			if d := Distance(okey, h); (d == 0) != want {
				t.Fatalf("%s: Distance(%s) = %d, winning %v", g.name, FormatFaces(h), d, want)
			}
		}
		t.Logf("%s: %d of %d winning", g.name, wins, n)
	}
}

// checkArrangement checks that arr is a valid arrangement of exactly h.
func checkArrangement(t *testing.T, okey Face, h []Face, arr Arrangement) {
	t.Helper()
	var all []Face
	for _, g := range arr.Groups {
		all = append(all, g.Tiles...)
		checkGroup(t, okey, g)
		if arr.Kind == Pairs && g.Kind != Pair || arr.Kind == Groups && g.Kind == Pair {
			t.Fatalf("%v hand has a %v group", arr.Kind, g.Kind)
		}
	}
	if a, b := slices.Sorted(slices.Values(all)), slices.Sorted(slices.Values(h)); !slices.Equal(a, b) {
		t.Fatalf("arrangement tiles %s, hand %s", FormatFaces(a), FormatFaces(b))
	}
}

// checkGroup checks a group against the oracle, and its As faces.
func checkGroup(t *testing.T, okey Face, g Group) {
	t.Helper()
	if len(g.As) != len(g.Tiles) {
		t.Fatalf("group %v: %d tiles, %d as", g, len(g.Tiles), len(g.As))
	}
	for i, f := range g.Tiles {
		if f != okey && g.As[i] != oPlain(okey, f) {
			t.Fatalf("group %v: %v plays as %v", g, f, g.As[i])
		}
	}
	switch g.Kind {
	case Pair:
		if len(g.Tiles) != 2 || g.As[0] != g.As[1] || !oPairs(okey, g.Tiles) {
			t.Fatalf("bad pair %v", g)
		}
	case Set:
		if !oSetOK(okey, g.Tiles) || !oSetOK(okey, g.As) {
			t.Fatalf("bad set %v", g)
		}
	case Run:
		// As, in order, must be consecutive numbers of one colour.
		if !oRunOK(okey, g.Tiles) || len(g.As) < 3 {
			t.Fatalf("bad run %v", g)
		}
		a0 := g.As[0].Number()
		if a0 == 1 && len(g.As) > 13 {
			t.Fatalf("run %v uses the 1 twice", g)
		}
		for i, f := range g.As {
			p := a0 + i
			num := p
			if p == 14 {
				num = 1
			}
			if p > 14 || f.Colour() != g.As[0].Colour() || f.Number() != num {
				t.Fatalf("run %v not in sequence", g)
			}
		}
	default:
		t.Fatalf("bad kind %v", g.Kind)
	}
}

func TestDistanceMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type gen struct {
		name string
		n    int
		size int
		fn   func() (Face, []Face)
	}
	near := func(size, k int) func() (Face, []Face) {
		return func() (Face, []Face) {
			okey, h := winningHand(r, size)
			return okey, perturb(r, h, k)
		}
	}
	gens := []gen{
		{"pool6", 150, 6, func() (Face, []Face) { return poolHand(r, 6) }},
		{"near6", 100, 6, near(6, 2)},
		{"random6", 60, 6, func() (Face, []Face) { return randomHand(r, 6) }},
		{"pool8", 60, 8, func() (Face, []Face) { return poolHand(r, 8) }},
		{"near8", 40, 8, near(8, 2)},
		{"near14", 12, 14, near(14, 2)},
		{"pool14", 6, 14, func() (Face, []Face) { return poolHand(r, 14) }},
	}
	for i := range gens {
		if testing.Short() {
			gens[i].n = (gens[i].n + 3) / 4
		}
		gens[i].n = (gens[i].n + raceScale - 1) / raceScale
	}
	hist := map[int]int{}
	for _, g := range gens {
		for i := 0; i < g.n; i++ {
			okey, h := g.fn()
			tl, ok := tallyOf(okey, h)
			if !ok {
				t.Fatalf("bad test hand %s", FormatFaces(h))
			}
			got := distanceOf(&tl, len(h), len(h)+1)
			want := oDistance(h, 2, func(c []Face) bool { return fastWins(okey, c) })
			hist[want]++
			if want <= 2 && got != want || want > 2 && got <= 2 {
				t.Fatalf("%s: distance(okey %v, %s) = %d, oracle %d (3 means 3 or more)", g.name, okey, FormatFaces(h), got, want)
			}
		}
	}
	t.Logf("oracle distances (3 = 3 or more): %v", hist)
}

// TestDistanceDescent checks the property that makes Distance exact given
// its values at 0: one exchange changes it by at most one, and from a
// non-winning hand some exchange lowers it by one.
func TestDistanceDescent(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 48 / raceScale
	if testing.Short() {
		n = 10
	}
	hist := map[int]int{}
	for i := 0; i < n; i++ {
		var okey Face
		var h []Face
		switch i % 4 {
		case 0:
			okey, h = randomHand(r, 14)
		case 1:
			okey, h = poolHand(r, 14)
		case 2:
			okey, h = winningHand(r, 14)
			h = perturb(r, h, 1+r.IntN(4))
		default:
			okey, h = twoOkeyWinner(r)
			h = perturb(r, h, 1+r.IntN(3))
		}
		d := Distance(okey, h)
		hist[d]++
		if (d == 0) != IsWinning(okey, h) {
			t.Fatalf("Distance(%s) = %d, IsWinning %v", FormatFaces(h), d, IsWinning(okey, h))
		}
		lower := false
		for j := range h {
			for f := Face(0); f < NumFaces; f++ {
				if f == h[j] {
					continue
				}
				h2 := slices.Clone(h)
				h2[j] = f
				if ValidateHand(h2) != nil {
					continue
				}
				d2 := Distance(okey, h2)
				if d2 < d-1 || d2 > d+1 {
					t.Fatalf("Distance(%s) = %d but Distance(%s) = %d after one exchange", FormatFaces(h), d, FormatFaces(h2), d2)
				}
				lower = lower || d2 == d-1
			}
		}
		if d > 0 && !lower {
			t.Fatalf("Distance(%s) = %d, no exchange lowers it", FormatFaces(h), d)
		}
	}
	t.Logf("distances: %v", hist)
}
