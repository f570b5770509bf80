package engine

import (
	"math/rand"
	"slices"
	"testing"
)

// TestBestOpening101Table: openings from the text and the rules' edges.
func TestBestOpening101Table(t *testing.T) {
	for _, c := range []struct {
		ind, rack string
		value     int
		doubles   int
		opens     bool
	}{
		// The text's examples: a set (black 5, red 5, blue 5) and a run (red 7, 8, 9).
		{"Y1", "K5 R5 B5", 15, 0, false},
		{"Y1", "R7 R8 R9", 24, 0, false},
		// 101 exactly: 10 11 12 13 in red (46) and 11 12 13 in black (36) and 6 6 6 (18) = 100; one more 1-2-3 run.
		{"Y1", "R10 R11 R12 R13 K11 K12 K13 R6 Y6 B6", 100, 0, false},
		{"Y1", "R10 R11 R12 R13 K11 K12 K13 R6 Y6 B6 B1 B2 B3", 106, 0, true},
		// No 13-1 continuation: 12-13-1 and 13-1-2 are no runs.
		{"Y1", "K12 K13 K1", 0, 0, false},
		{"Y1", "K13 K1 K2", 0, 0, false},
		// A set never repeats a colour: blue 10, red 10, blue 10.
		{"Y1", "B10 R10 B10", 0, 1, false},
		// An okey counts as the tile it stands for (okey R5): R12 R13 + okey as R11.
		{"R4", "R12 R13 R5", 36, 1, false},
		// A false joker is the okey's face and nothing else: R4 FJ R6 is 4 5 6.
		{"R4", "R4 FJ R6", 15, 0, false},
		{"R4", "K4 FJ K6", 0, 0, false},
		// Two sets of one number: both copies of three colours.
		{"Y1", "R9 R9 B9 B9 K9 K9", 54, 3, false},
		// Five doubles open; an okey makes a double with a single.
		{"Y1", "R1 R1 K3 K3 B7 B7 Y9 Y9 R13 R13", 0, 5, true},
		{"R4", "R1 R1 K3 K3 B7 B7 Y9 Y9 R13 R5", 0, 5, true},
		// Two okeys make a double together.
		{"R4", "R1 R1 K3 K3 B7 B7 Y9 Y9 R5 R5", 30, 5, true},
		// Identical false jokers are a double of the okey's face.
		{"R4", "FJ FJ", 0, 1, false},
		// A whole colour 1..13 is one run of 91.
		{"Y1", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13", 91, 0, false},
		// Sets of four and a run from the same tiles: 13s and a run 11-12-13.
		{"Y1", "R13 Y13 B13 K13 K12 K11 R13 Y13 B13", 13*7 + 23, 3, true},
	} {
		okey := mustOkey(t, c.ind)
		o, err := BestOpening101(okey, MustParseFaces(c.rack), true)
		if err != nil {
			t.Fatalf("%s: %v", c.rack, err)
		}
		if o.Value != c.value || o.Doubles != c.doubles || o.Opens() != c.opens {
			t.Errorf("%s (okey %v): value %d doubles %d opens %v, want %d %d %v (%v %v)", c.rack, okey,
				o.Value, o.Doubles, o.Opens(), c.value, c.doubles, c.opens, o.Groups, o.Pairs)
		}
		checkOpening(t, okey, MustParseFaces(c.rack), o, true)
	}
}

func TestBestOpening101NoJokerDoubles(t *testing.T) {
	okey := mustOkey(t, "R4")
	rack := MustParseFaces("R1 R1 K3 K3 B7 B7 Y9 Y9 R13 R5")
	o, _ := BestOpening101(okey, rack, false)
	if o.Doubles != 4 {
		t.Fatalf("no-joker-doubles: %d doubles, want 4 (%v)", o.Doubles, o.Pairs)
	}
	checkOpening(t, okey, rack, o, false)
	o, _ = BestOpening101(okey, MustParseFaces("R5 R5 K1"), false)
	if o.Doubles != 1 {
		t.Fatalf("two okeys as themselves: %d doubles, want 1", o.Doubles)
	}
}

func TestBestOpening101With(t *testing.T) {
	okey := mustOkey(t, "Y1")
	rack := MustParseFaces("R10 R11 R12 R13 K11 K12 K13 R6 Y6 B6 B1 B2 B3 K5")
	o, err := BestOpening101With(okey, rack, true, MustParseFaces("K5")[0])
	if err != nil || o.Value != 0 {
		t.Fatalf("K5 fits nothing: value %d, %v", o.Value, err)
	}
	o, _ = BestOpening101With(okey, rack, true, MustParseFaces("R6")[0])
	if o.Value != 106 {
		t.Fatalf("with R6: value %d, want 106", o.Value)
	}
	if _, err := BestOpening101With(okey, rack, true, MustParseFaces("K9")[0]); err == nil {
		t.Fatal("a must tile not in the rack: no error")
	}
	// The must tile forces a smaller opening: B6 only in a 6 set.
	rack = MustParseFaces("B4 B5 B6 R6 Y6 B7")
	o, _ = BestOpening101With(okey, rack, true, MustParseFaces("Y6")[0])
	if o.Value != 18 {
		t.Fatalf("with Y6: value %d, want 18 (%v)", o.Value, o.Groups)
	}
}

// checkOpening: the groups are valid melds of 101 from the rack's tiles and
// their values add up to Value; the pairs are valid doubles, Doubles of them.
func checkOpening(t *testing.T, okey Face, rack []Face, o Opening101, jokerDoubles bool) {
	t.Helper()
	var have [NumFaces]int
	for _, f := range rack {
		have[f]++
	}
	use := func(gs []Group) [NumFaces]int {
		var u [NumFaces]int
		for _, g := range gs {
			for _, f := range g.Tiles {
				u[f]++
			}
		}
		return u
	}
	sum := 0
	for _, g := range o.Groups {
		k, err := meldKind101(okey, g.Tiles, g.As, jokerDoubles)
		if err != nil || k != g.Kind || k == Pair {
			t.Fatalf("rack %s: group %v: kind %v, %v", FormatFaces(rack), g, k, err)
		}
		sum += meldValue101(k, g.As)
	}
	if sum != o.Value {
		t.Fatalf("rack %s: groups %v add up to %d, value %d", FormatFaces(rack), o.Groups, sum, o.Value)
	}
	for _, gs := range [][]Group{o.Groups, o.Pairs} {
		u := use(gs)
		for f := range u {
			if u[f] > have[f] {
				t.Fatalf("rack %s: %v uses %d of %v", FormatFaces(rack), gs, u[f], Face(f))
			}
		}
	}
	if len(o.Pairs) != o.Doubles {
		t.Fatalf("rack %s: %d pairs, doubles %d", FormatFaces(rack), len(o.Pairs), o.Doubles)
	}
	for _, g := range o.Pairs {
		if k, err := meldKind101(okey, g.Tiles, g.As, jokerDoubles); err != nil || k != Pair {
			t.Fatalf("rack %s: pair %v: %v", FormatFaces(rack), g, err)
		}
	}
}

// oracleOpening is an exhaustive search: the most points of disjoint sets
// and runs, each okey tried as every face.
func oracleOpening(okey Face, rack []Face) int {
	n := len(rack)
	memo := map[int]int{}
	var best func(mask int) int
	best = func(mask int) int {
		if mask == 0 {
			return 0
		}
		if v, ok := memo[mask]; ok {
			return v
		}
		low := mask & -mask
		v := best(mask &^ low)
		rest := mask &^ low
		for sub := rest; ; sub = (sub - 1) & rest {
			g := sub | low
			if cnt := popcount(g); cnt >= 3 {
				if gv := groupValue(okey, rack, g, n); gv > 0 {
					v = max(v, gv+best(mask&^g))
				}
			}
			if sub == 0 {
				break
			}
		}
		memo[mask] = v
		return v
	}
	return best(1<<n - 1)
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// groupValue is the best value of the tiles in mask as one set or run, 0
// when they are none.
func groupValue(okey Face, rack []Face, mask, n int) int {
	var faces []Face
	var jok []int
	for i := 0; i < n; i++ {
		if mask&(1<<i) != 0 {
			if rack[i] == okey {
				jok = append(jok, len(faces))
			}
			faces = append(faces, rack[i])
		}
	}
	as := make([]Face, len(faces))
	for i, f := range faces {
		as[i] = natural(okey, f)
	}
	// An okey in a set or run plays as a face of the colour or the number
	// of a plain tile of the group.
	var cand []Face
	for f := Face(0); f < FalseJoker; f++ {
		for i, g := range as {
			if !slices.Contains(jok, i) && (f.Colour() == g.Colour() || f.Number() == g.Number()) {
				cand = append(cand, f)
				break
			}
		}
	}
	best := 0
	var try func(k int)
	try = func(k int) {
		if k == len(jok) {
			if kind, err := meldKind101(okey, faces, as, true); err == nil && kind != Pair {
				best = max(best, meldValue101(kind, as))
			}
			return
		}
		for _, f := range cand {
			as[jok[k]] = f
			try(k + 1)
		}
	}
	try(0)
	return best
}

// randomRack draws n tiles of a small range of faces (so that groups are
// likely), with okeys and false jokers at times.
func randomRack(r *rand.Rand, n int) (Face, []Face) {
	ind := Face(r.Intn(52))
	okey, _ := OkeyFor(ind)
	lo := 1 + r.Intn(9)
	var pool []Face
	for c := 0; c < NumColours; c++ {
		for k := lo; k < lo+5 && k <= 13; k++ {
			pool = append(pool, NewFace(Colour(c), k), NewFace(Colour(c), k))
		}
	}
	pool = append(pool, okey, okey, FalseJoker, FalseJoker)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	var rack []Face
	var cnt [NumFaces]int
	for _, f := range pool {
		if len(rack) == n {
			break
		}
		if cnt[f] < 2 {
			cnt[f]++
			rack = append(rack, f)
		}
	}
	return okey, rack
}

// TestBestOpening101Oracle: on small racks the programme's value equals an
// exhaustive search, and its groups are a valid layout of that value.
func TestBestOpening101Oracle(t *testing.T) {
	r := rand.New(rand.NewSource(101))
	runs := 400 / raceScale / raceScale
	if testing.Short() {
		runs = 50
	}
	for i := 0; i < runs; i++ {
		okey, rack := randomRack(r, 3+r.Intn(7))
		o, err := BestOpening101(okey, rack, true)
		if err != nil {
			t.Fatal(err)
		}
		checkOpening(t, okey, rack, o, true)
		if want := oracleOpening(okey, rack); o.Value != want {
			t.Fatalf("okey %v rack %s: value %d, exhaustive search %d (%v)", okey, FormatFaces(rack), o.Value, want, o.Groups)
		}
		// The order of the rack does not matter.
		sh := slices.Clone(rack)
		r.Shuffle(len(sh), func(i, j int) { sh[i], sh[j] = sh[j], sh[i] })
		o2, _ := BestOpening101(okey, sh, true)
		if o2.Value != o.Value || o2.Doubles != o.Doubles || FormatGroups(o2.Groups) != FormatGroups(o.Groups) {
			t.Fatalf("rack %s: the order changed the result", FormatFaces(rack))
		}
	}
}

// FormatGroups writes groups as "R1 R2 R3 | K5 Y5 B5" for messages.
func FormatGroups(gs []Group) string {
	s := ""
	for i, g := range gs {
		if i > 0 {
			s += " | "
		}
		s += FormatFaces(g.Tiles)
	}
	return s
}

// FuzzBestOpening101: any rack the parser accepts gives a valid opening or a
// clear error, never a panic; small racks agree with the exhaustive search.
// take < len(rack) makes rack[take] the taken tile the opening must use: what
// is laid uses it, and small racks agree with the exhaustive search under
// the table's rule.
func FuzzBestOpening101(f *testing.F) {
	f.Add(uint8(3), uint8(255), []byte{9, 10, 11, 22, 35, 48, 52})
	f.Add(uint8(17), uint8(255), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21})
	// issue 20 and its neighbours (opening101_taken_test.go); bit 7 of the
	// indicator byte is no-joker-doubles.
	seed := func(ind string, noJD bool, take int, rack string) {
		b := []byte{}
		for _, x := range MustParseFaces(rack) {
			b = append(b, byte(x))
		}
		i := byte(MustParseFaces(ind)[0])
		if noJD {
			i |= 0x80
		}
		f.Add(i, uint8(take), b)
	}
	seed("R4", false, 2, "R4 R6 FJ K9 K10 K11")
	seed("R4", false, 10, "K3 K3 Y7 Y7 B1 B1 B2 B2 K13 K13 R5")
	seed("R4", true, 10, "K3 K3 Y7 Y7 B1 B1 B2 B2 K13 K13 R5")
	seed("R4", false, 2, "K5 B5 FJ R10 R11 R12")
	seed("R4", false, 5, "K12 K13 R5 Y3 B3 FJ")
	seed("R4", false, 2, "R3 R4 FJ R5 K9 K10")
	seed("R4", true, 2, "FJ FJ R5 K3 K3 Y7 Y7 B1 B1 B2 B2")
	seed("R4", false, 2, "K1 K1 R5")
	seed("R4", false, 10, "R10 R11 R12 R13 B10 B11 B12 B13 K11 K12 R5")
	seed("Y1", false, 11, "R10 R11 R12 R13 B10 B11 B12 B13 K11 K12 K13 K7")
	seed("R4", false, 10, "K3 K3 Y7 Y7 B1 B1 B2 B2 K13 K13 Y4")
	f.Fuzz(func(t *testing.T, ind, take uint8, b []byte) {
		okey, err := OkeyFor(Face(ind % 53))
		if err != nil {
			return
		}
		jd := ind&0x80 == 0
		var rack []Face
		for _, x := range b {
			rack = append(rack, Face(x%54))
		}
		if len(rack) > 22 {
			rack = rack[:22]
		}
		o, err := BestOpening101(okey, rack, jd)
		if ValidateHand(rack) != nil {
			if err == nil {
				t.Fatalf("rack %v: no error", rack)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		checkOpening(t, okey, rack, o, jd)
		if len(rack) <= 8 {
			if want := oracleOpening(okey, rack); o.Value != want {
				t.Fatalf("okey %v rack %s: value %d, exhaustive search %d", okey, FormatFaces(rack), o.Value, want)
			}
		}
		if int(take) >= len(rack) {
			return
		}
		taken := rack[take]
		w, err := BestOpening101With(okey, rack, jd, taken)
		if err != nil {
			t.Fatal(err)
		}
		checkOpening(t, okey, rack, w, jd)
		checkTaken(t, rack, taken, w)
		if w.Value > o.Value || w.Doubles > o.Doubles {
			t.Fatalf("okey %v rack %s taken %v: more with the taken tile than without (%d, %d > %d, %d)", okey, FormatFaces(rack), taken, w.Value, w.Doubles, o.Value, o.Doubles)
		}
		if len(rack) <= 8 {
			if want := oracleOpeningsWith(okey, rack)[take]; w.Value != want {
				t.Fatalf("okey %v rack %s taken %v: value %d, exhaustive search %d", okey, FormatFaces(rack), taken, w.Value, want)
			}
			if want := oracleDoubles(okey, rack, jd, int(take)); w.Doubles != want {
				t.Fatalf("okey %v rack %s taken %v: %d doubles, exhaustive search %d", okey, FormatFaces(rack), taken, w.Doubles, want)
			}
		}
	})
}
