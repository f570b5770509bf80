package engine

import (
	"errors"
	"math/rand"
	"slices"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// The opening of Okey 101 after a take (okey-classic.txt, Okey 101): "If a
// player takes the discarded tile from the previous player they must always
// use that tile. If the player has not opened yet he/she must open with that
// tile included." A false joker "has the value of" the okey's face and plays
// only as it; an okey "can represent any tile"; "Doubles are two identical
// tiles" (an okey in a double stands for the tile it pairs with).

// TestBestOpening101Taken: openings that must use the taken tile, from the
// text.
func TestBestOpening101Taken(t *testing.T) {
	for _, c := range []struct {
		name       string
		ind, rack  string
		taken      string
		noJD       bool // no-joker-doubles
		value      int
		doubles    int
		opens      bool
		wantGroups string // FormatGroups of the groups, when not ""
	}{
		// issue 20: a taken false joker plays as the okey's face (R5) in R4 R5
		// R6; K9 K10 K11 is 30.
		{"false joker in a run", "R4", "R4 R6 FJ K9 K10 K11", "FJ", false, 45, 0, false, "R4 FJ R6 | K9 K10 K11"},
		// A taken false joker in a set of 5s.
		{"false joker in a set", "R4", "K5 B5 FJ R10 R11 R12", "FJ", false, 48, 0, false, "FJ B5 K5 | R10 R11 R12"},
		// A taken false joker next to an okey: the false joker in R3 R4 R5,
		// the okey as K11.
		{"false joker and an okey", "R4", "R3 R4 FJ R5 K9 K10", "FJ", false, 42, 1, false, "R3 R4 FJ | K9 K10 R5"},
		// A taken false joker that fits nothing does not count as an okey
		// used: K11* K12 K13 is 36 but leaves the false joker out; with the
		// okey the false joker makes a double.
		{"false joker unusable, an okey is no substitute", "R4", "K12 K13 R5 Y3 B3 FJ", "FJ", false, 0, 1, false, ""},
		// issue 20: a taken okey in a doubles opening takes the place of a
		// tile in a double: still five doubles, and it opens.
		{"okey in a doubles opening", "R4", "K3 K3 Y7 Y7 B1 B1 B2 B2 K13 K13 R5", "R5", false, 6, 5, true, ""},
		{"okey alone with one double", "R4", "K1 K1 R5", "R5", false, 0, 1, false, ""},
		{"okey alone, no double", "R4", "R5", "R5", false, 0, 0, false, ""},
		// A taken okey pairs with a single.
		{"okey in a double with a single", "R4", "R1 R1 K3 K3 B7 B7 Y9 Y9 R13 R5", "R5", false, 0, 5, true, ""},
		// Two false jokers and a taken okey: the okey in a double either way.
		{"okey beside two false jokers", "R4", "FJ FJ R5 K3 K3 Y7 Y7 B1 B1 B2 B2", "R5", false, 6, 5, true, ""},
		// no-joker-doubles: an okey plays as itself (R5) in a double, so the
		// taken okey pairs with a false joker; alone it makes none.
		{"no-joker-doubles: okey with a false joker", "R4", "FJ FJ R5 K3 K3 Y7 Y7 B1 B1 B2 B2", "R5", true, 6, 5, true, ""},
		{"no-joker-doubles: false joker with an okey", "R4", "FJ R5 R5 K3 K3 Y7 Y7 B1 B1 B2 B2", "FJ", true, 18, 5, true, ""},
		{"no-joker-doubles: okey single", "R4", "K3 K3 Y7 Y7 B1 B1 B2 B2 K13 K13 R5", "R5", true, 6, 0, false, ""},
		// A taken okey as a wildcard in a run opening: K11 K12 K13*.
		{"okey in a run opening", "R4", "R10 R11 R12 R13 B10 B11 B12 B13 K11 K12 R5", "R5", false, 128, 1, true,
			"R10 R11 R12 R13 | B10 B11 B12 B13 | K11 K12 R5"},
		// A taken tile that cannot be used: the opening does not count.
		{"unusable in sets", "Y1", "R10 R11 R12 R13 B10 B11 B12 B13 K11 K12 K13 K7", "K7", false, 0, 0, false, ""},
		{"unusable in doubles", "R4", "K3 K3 Y7 Y7 B1 B1 B2 B2 K13 K13 Y4", "Y4", false, 0, 0, false, ""},
		// The taken tile forces a smaller opening.
		{"forced smaller", "Y1", "B4 B5 B6 R6 Y6 B7", "Y6", false, 18, 0, false, "R6 Y6 B6"},
	} {
		okey := mustOkey(t, c.ind)
		rack := MustParseFaces(c.rack)
		taken := MustParseFaces(c.taken)[0]
		o, err := BestOpening101With(okey, rack, !c.noJD, taken)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if o.Value != c.value || o.Doubles != c.doubles || o.Opens() != c.opens {
			t.Errorf("%s: %s taken %v (okey %v): value %d doubles %d opens %v, want %d %d %v (%s / %s)", c.name, c.rack, taken, okey,
				o.Value, o.Doubles, o.Opens(), c.value, c.doubles, c.opens, FormatGroups(o.Groups), FormatGroups(o.Pairs))
		}
		if c.wantGroups != "" && FormatGroups(o.Groups) != c.wantGroups {
			t.Errorf("%s: groups %s, want %s", c.name, FormatGroups(o.Groups), c.wantGroups)
		}
		checkOpening(t, okey, rack, o, !c.noJD)
		checkTaken(t, rack, taken, o)
	}
}

// checkTaken: what BestOpening101With lays uses the taken tile, or is empty.
func checkTaken(t *testing.T, rack []Face, taken Face, o Opening101) {
	t.Helper()
	if (o.Value > 0) != UsesTaken(o.Groups, taken) || len(o.Groups) > 0 && o.Value == 0 {
		t.Fatalf("rack %s taken %v: value %d, groups %s", FormatFaces(rack), taken, o.Value, FormatGroups(o.Groups))
	}
	if (o.Doubles > 0) != UsesTaken(o.Pairs, taken) {
		t.Fatalf("rack %s taken %v: %d doubles, pairs %s", FormatFaces(rack), taken, o.Doubles, FormatGroups(o.Pairs))
	}
}

// TestUsesTaken: the printed face decides, not the face a tile plays as.
func TestUsesTaken(t *testing.T) {
	okey := mustOkey(t, "R4") // R5
	run := []Group{{Kind: Run, Tiles: MustParseFaces("R4 FJ R6"), As: MustParseFaces("R4 R5 R6")}}
	wild := []Group{{Kind: Run, Tiles: MustParseFaces("R4 R5 R6"), As: MustParseFaces("R4 R5 R6")}}
	for _, c := range []struct {
		gs    []Group
		taken Face
		want  bool
	}{
		{run, FalseJoker, true}, {run, okey, false}, {wild, okey, true}, {wild, FalseJoker, false},
		{run, MustParseFaces("R6")[0], true}, {run, MustParseFaces("K6")[0], false}, {nil, okey, false},
	} {
		if got := UsesTaken(c.gs, c.taken); got != c.want {
			t.Errorf("%s taken %v: %v, want %v", FormatGroups(c.gs), c.taken, got, c.want)
		}
	}
}

// oracleOpeningsWith is an exhaustive search, for each index k of the
// rack, for the most points of disjoint sets and runs where one group holds
// rack[k] (the table's rule: the taken tile is among those laid); 0 when no
// group can hold it.
func oracleOpeningsWith(okey Face, rack []Face) []int {
	n := len(rack)
	gv := make([]int, 1<<n) // the value of a mask as one group, 0 for none
	for g := range gv {
		if popcount(g) >= 3 {
			gv[g] = groupValue(okey, rack, g, n)
		}
	}
	memo := make([]int, 1<<n)
	for mask := 1; mask < 1<<n; mask++ {
		// The best layout of mask: its lowest tile in no group, or in one.
		low := mask & -mask
		v := memo[mask&^low]
		rest := mask &^ low
		for sub := rest; ; sub = (sub - 1) & rest {
			if g := sub | low; gv[g] > 0 {
				v = max(v, gv[g]+memo[mask&^g])
			}
			if sub == 0 {
				break
			}
		}
		memo[mask] = v
	}
	full := 1<<n - 1
	out := make([]int, n)
	for k := range rack {
		rest := full &^ (1 << k)
		for sub := rest; ; sub = (sub - 1) & rest {
			if g := sub | 1<<k; gv[g] > 0 {
				out[k] = max(out[k], gv[g]+memo[full&^g])
			}
			if sub == 0 {
				break
			}
		}
	}
	return out
}

// oracleDoubles is an exhaustive search for the most disjoint doubles (the
// table's meldKind101 decides a double) with one holding rack[must] (must
// -1: none); 0 when none can hold it.
func oracleDoubles(okey Face, rack []Face, jokerDoubles bool, must int) int {
	pair := make([][]bool, len(rack))
	for i, a := range rack {
		pair[i] = make([]bool, len(rack))
		for j, b := range rack {
			// A double plays as the face of one of its tiles (an okey
			// standing for its partner, or two tiles as their own face).
			for _, x := range []Face{natural(okey, a), natural(okey, b)} {
				k, err := meldKind101(okey, []Face{a, b}, []Face{x, x}, jokerDoubles)
				pair[i][j] = pair[i][j] || err == nil && k == Pair
			}
		}
	}
	used := make([]bool, len(rack))
	best := 0
	var rec func(i, pairs int, mustIn bool)
	rec = func(i, pairs int, mustIn bool) {
		for i < len(rack) && used[i] {
			i++
		}
		if i == len(rack) {
			if must < 0 || mustIn {
				best = max(best, pairs)
			}
			return
		}
		used[i] = true
		rec(i+1, pairs, mustIn) // rack[i] in no double
		for j := i + 1; j < len(rack); j++ {
			if !used[j] && pair[i][j] {
				used[j] = true
				rec(i+1, pairs+1, mustIn || i == must || j == must)
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(0, 0, false)
	return best
}

// TestBestOpening101TakenOracle: on small racks, for every face of the rack
// as the taken tile and with and without no-joker-doubles, the value and the
// doubles equal an exhaustive search under the table's rules, and what is
// laid uses the taken tile.
func TestBestOpening101TakenOracle(t *testing.T) {
	lane.NoRace(t) // the engine is pure: no goroutine
	r := rand.New(rand.NewSource(2020))
	runs := 300 / raceScale / raceScale
	if testing.Short() {
		runs = 40
	}
	for i := 0; i < runs; i++ {
		okey, rack := randomRack(r, 3+r.Intn(7))
		if i%4 == 0 && !slices.Contains(rack, FalseJoker) {
			rack[0] = FalseJoker // false jokers taken more often
		}
		values := oracleOpeningsWith(okey, rack)
		for k, taken := range rack {
			if slices.Index(rack, taken) != k {
				continue // each face once
			}
			for _, jd := range []bool{true, false} {
				o, err := BestOpening101With(okey, rack, jd, taken)
				if err != nil {
					t.Fatal(err)
				}
				checkOpening(t, okey, rack, o, jd)
				checkTaken(t, rack, taken, o)
				if want := values[k]; o.Value != want {
					t.Fatalf("okey %v rack %s taken %v: value %d, exhaustive search %d (%s)", okey, FormatFaces(rack), taken, o.Value, want, FormatGroups(o.Groups))
				}
				if want := oracleDoubles(okey, rack, jd, k); o.Doubles != want {
					t.Fatalf("okey %v rack %s taken %v jokerDoubles %v: %d doubles, exhaustive search %d (%s)", okey, FormatFaces(rack), taken, jd, o.Doubles, want, FormatGroups(o.Pairs))
				}
			}
		}
		// Unconstrained doubles agree with the search too.
		for _, jd := range []bool{true, false} {
			o, _ := BestOpening101(okey, rack, jd)
			if want := oracleDoubles(okey, rack, jd, -1); o.Doubles != want {
				t.Fatalf("okey %v rack %s jokerDoubles %v: %d doubles, exhaustive search %d", okey, FormatFaces(rack), jd, o.Doubles, want)
			}
		}
	}
}

// TestOpening101TakenAgreesWithTable: the analysis and the table agree on an
// opening after a take. A rigged two-seat round: the dealer discards a tile,
// seat 1 (21 tiles from a narrow range, so that openings are common) takes
// it. When BestOpening101With says seat 1 opens with it, the table accepts
// that opening (laid with the taken slot); when it says no but the rack opens
// without it, the table refuses that opening as not using the discard.
func TestOpening101TakenAgreesWithTable(t *testing.T) {
	r := rand.New(rand.NewSource(20))
	runs := 240 / raceScale
	if testing.Short() {
		runs = 30
	}
	seen := map[string]int{}
	for i := 0; i < runs; i++ {
		rules := "101"
		if i%3 == 2 {
			rules = "101:no-joker-doubles"
		}
		ind, taken, rack := takeDeal(r)
		okey, _ := OkeyFor(ind)
		deal := deal101{racks: []string{FormatFaces([]Face{taken}), FormatFaces(rack)}, indicator: FormatFaces([]Face{ind})}
		for _, doubles := range []bool{false, true} {
			rg := newRig101(t, rules, 2, 0, deal)
			rg.ok(rg.discard(0, FormatFaces([]Face{taken})))
			rg.ok(rg.take(1))
			g := rg.g()
			_, _, slot := g.Turn()
			jd := !g.opt.NoJokerDoubles
			// The rack with the taken slot first: LayAction101 lays it first
			// among the tiles of its face.
			slots := []Slot{slot}
			for _, s := range g.Rack(1) {
				if s != slot {
					slots = append(slots, s)
				}
			}
			faces := make([]Face, len(slots))
			for k, s := range slots {
				faces[k] = rg.deck[s]
			}
			o, err := BestOpening101With(okey, faces, jd, taken)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := BestOpening101(okey, faces, jd)
			with, without := o.Value >= 101, u.Value >= 101
			gs, ugs := o.Groups, u.Groups
			if doubles {
				with, without = o.Doubles >= 5, u.Doubles >= 5
				gs, ugs = o.Pairs, u.Pairs
			}
			lay := func(gs []Group) Action101 {
				a, ok := LayAction101(1, slots, faces, gs)
				if !ok {
					t.Fatalf("rack %s: cannot lay %s", FormatFaces(faces), FormatGroups(gs))
				}
				return a
			}
			switch {
			case with && groupTiles(gs) < len(faces):
				if err := rg.m.Apply(lay(gs)); err != nil {
					t.Fatalf("okey %v rack %s taken %v: the analysis opens with %s, the table refuses: %v", okey, FormatFaces(faces), taken, FormatGroups(gs), err)
				}
				if g.Opened(1) == NotOpened {
					t.Fatal("accepted but not opened")
				}
				seen["opens"]++
			case with:
				seen["lays all"]++
			case without && groupTiles(ugs) < len(faces):
				if UsesTaken(ugs, taken) {
					t.Fatalf("okey %v rack %s taken %v: %s uses the taken tile, the analysis says it does not open", okey, FormatFaces(faces), taken, FormatGroups(ugs))
				}
				before := rg.m.Hash()
				if err := rg.m.Apply(lay(ugs)); !errors.Is(err, ErrMustUse) {
					t.Fatalf("okey %v rack %s taken %v: an opening without it (%s): %v, want %v", okey, FormatFaces(faces), taken, FormatGroups(ugs), err, ErrMustUse)
				}
				if rg.m.Hash() != before {
					t.Fatal("refused but the state changed")
				}
				seen["needs the taken tile"]++
			default:
				seen["no opening"]++
			}
			if taken == FalseJoker || taken == okey {
				seen["wild or false joker taken"]++
			}
		}
	}
	t.Logf("cases: %v", seen)
	if seen["opens"] == 0 || seen["needs the taken tile"] == 0 || seen["no opening"] == 0 {
		t.Fatalf("the random deals miss a kind of case: %v", seen)
	}
}

// groupTiles counts the tiles of groups.
func groupTiles(gs []Group) int {
	n := 0
	for _, g := range gs {
		n += len(g.Tiles)
	}
	return n
}

// takeDeal draws an indicator, a tile to take and a 21-tile rack from a
// narrow range of numbers, okeys and false jokers included, each face at
// most twice in all (the indicator once more).
func takeDeal(r *rand.Rand) (ind, taken Face, rack []Face) {
	ind = Face(r.Intn(52))
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
	var cnt [NumFaces]int
	cnt[ind] = 1
	var tiles []Face
	for _, f := range pool {
		if len(tiles) == 22 {
			break
		}
		if cnt[f] < 2 {
			cnt[f]++
			tiles = append(tiles, f)
		}
	}
	// The tile taken: a false joker or an okey now and then.
	k := r.Intn(len(tiles))
	for j, f := range tiles {
		if (f == FalseJoker || f == okey) && r.Intn(3) == 0 {
			k = j
		}
	}
	taken = tiles[k]
	rack = append(slices.Clone(tiles[:k]), tiles[k+1:]...)
	return ind, taken, rack
}
