package engine

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mustOkey returns the okey for an indicator in notation.
func mustOkey(t testing.TB, ind string) Face {
	t.Helper()
	f, err := ParseFace(ind)
	if err != nil {
		t.Fatal(err)
	}
	okey, err := OkeyFor(f)
	if err != nil {
		t.Fatal(err)
	}
	return okey
}

// TestHandsFile runs testdata/analysis/hands.txt: the rule texts' examples
// and counter-examples, and whole hands.
func TestHandsFile(t *testing.T) {
	fh, err := os.Open("testdata/analysis/hands.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	lines := 0
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines++
		ind, rest, ok1 := strings.Cut(line, ":")
		tiles, verdict, ok2 := strings.Cut(rest, "->")
		if !ok1 || !ok2 {
			t.Fatalf("line %d: want IND: TILES -> VERDICT", ln)
		}
		okey := mustOkey(t, strings.TrimSpace(ind))
		hand, err := ParseFaces(tiles)
		if err != nil {
			t.Fatalf("line %d: %v", ln, err)
		}
		if err := ValidateHand(hand); err != nil {
			t.Fatalf("line %d: %v", ln, err)
		}
		v := strings.Fields(verdict)
		name := fmt.Sprintf("line %d (%s)", ln, line)
		switch len(hand) {
		case WinSize:
			checkHand14(t, name, okey, hand, v)
		case WinSize + 1:
			if v[0] != "discards" {
				t.Fatalf("%s: want discards", name)
			}
			var want []Face
			if v[1] != "none" {
				want = MustParseFaces(strings.Join(v[1:], " "))
			}
			if got := WinningDiscards(okey, hand); !slices.Equal(got, want) {
				t.Errorf("%s: WinningDiscards = %s", name, FormatFaces(got))
			}
			ds, d := BestDiscards(okey, hand)
			if len(want) > 0 && (d != 0 || !slices.Equal(ds, want)) {
				t.Errorf("%s: BestDiscards = %s, %d", name, FormatFaces(ds), d)
			}
			if len(want) == 0 && d == 0 {
				t.Errorf("%s: BestDiscards distance 0 with no winning discard", name)
			}
		default:
			want := v[0] == "groups"
			if v[0] != "groups" && v[0] != "no" {
				t.Fatalf("%s: want groups or no", name)
			}
			if got := IsGrouped(okey, hand); got != want {
				t.Errorf("%s: IsGrouped = %v", name, got)
			}
			if got := oGrouped(okey, hand); got != want {
				t.Errorf("%s: the oracle says %v", name, got)
			}
			groups, rest := Arrange(okey, hand, false)
			if want != (len(rest) == 0) {
				t.Errorf("%s: Arrange leaves %s", name, FormatFaces(rest))
			}
			checkLayout(t, okey, hand, groups, rest)
		}
	}
	if lines < 50 {
		t.Fatalf("only %d cases read", lines)
	}
}

func checkHand14(t *testing.T, name string, okey Face, hand []Face, v []string) {
	t.Helper()
	wantKind := map[string]HandKind{"groups": Groups, "pairs": Pairs, "no": NotWinning}
	kind, ok := wantKind[v[0]]
	if !ok {
		t.Fatalf("%s: bad verdict %q", name, v[0])
	}
	arr, won := WinningArrangement(okey, hand)
	if arr.Kind != kind || won != (kind != NotWinning) {
		t.Errorf("%s: WinningArrangement = %v, %v", name, arr.Kind, won)
	}
	if won {
		checkArrangement(t, okey, hand, arr)
	}
	if IsWinning(okey, hand) != won {
		t.Errorf("%s: IsWinning disagrees", name)
	}
	if oWins(okey, hand) != won {
		t.Errorf("%s: the oracle disagrees", name)
	}
	d := Distance(okey, hand)
	if (d == 0) != won {
		t.Errorf("%s: Distance %d", name, d)
	}
	for _, x := range v[1:] {
		if s, ok := strings.CutPrefix(x, "d="); ok {
			want, _ := strconv.Atoi(s)
			if d != want {
				t.Errorf("%s: Distance = %d, want %d", name, d, want)
			}
			if want <= 2 && !testing.Short() {
				if o := oDistance(hand, 2, func(h []Face) bool { return IsWinning(okey, h) }); o != want {
					t.Errorf("%s: oracle distance %d", name, o)
				}
			}
		}
	}
}

// checkLayout checks an Arrange result: valid groups, all tiles used once.
func checkLayout(t *testing.T, okey Face, hand []Face, groups []Group, rest []Face) {
	t.Helper()
	all := slices.Clone(rest)
	for _, g := range groups {
		if g.Kind == Pair {
			t.Fatalf("Arrange returned a pair")
		}
		checkGroup(t, okey, g)
		all = append(all, g.Tiles...)
	}
	slices.Sort(all)
	h := slices.Sorted(slices.Values(hand))
	if !slices.Equal(all, h) {
		t.Fatalf("Arrange: %v + %s is not %s", groups, FormatFaces(rest), FormatFaces(h))
	}
	if !slices.IsSorted(rest) {
		t.Fatalf("rest not sorted: %s", FormatFaces(rest))
	}
}

func TestWinningArrangementDisplay(t *testing.T) {
	okey := mustOkey(t, "R4") // red 5
	for _, tc := range []struct {
		hand string
		want []string // groups' tiles; As after a slash
	}{
		{"B6 R5 R5 B9 Y8 K8 R5 K1 K2 K3 Y11 Y12 Y13 Y1", nil}, // three okeys: invalid
		{"B6 R5 R5 B9 Y8 K8 B8 K1 K2 K3 Y11 Y12 Y13 Y1",
			[]string{"Y11 Y12 Y13 Y1", "Y8 B8 K8", "B6 R5 R5 B9/B6 B7 B8 B9", "K1 K2 K3"}},
		{"R4 FJ R6 K5 Y5 B5 FJ K9 K10 K11 K12 B1 B2 B3",
			[]string{"R4 FJ R6/R4 R5 R6", "FJ Y5 B5 K5/R5 Y5 B5 K5", "B1 B2 B3", "K9 K10 K11 K12"}},
		{"K4 K4 K2 K2 K9 K9 B5 B5 K13 K13 K7 K7 B4 R5",
			[]string{"B4 R5/B4 B4", "B5 B5", "K2 K2", "K4 K4", "K7 K7", "K9 K9", "K13 K13"}},
		{"K4 K4 K2 K2 K9 K9 B5 B5 K13 K13 K7 K7 R5 R5",
			[]string{"B5 B5", "K2 K2", "K4 K4", "K7 K7", "K9 K9", "K13 K13", "R5 R5"}},
	} {
		arr, ok := WinningArrangement(okey, MustParseFaces(tc.hand))
		if ok != (tc.want != nil) {
			t.Errorf("%s: ok = %v", tc.hand, ok)
			continue
		}
		var got []string
		for _, g := range arr.Groups {
			s := FormatFaces(g.Tiles)
			if !slices.Equal(g.Tiles, g.As) {
				s += "/" + FormatFaces(g.As)
			}
			got = append(got, s)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.hand, got, tc.want)
		}
	}
}

func TestValidateHand(t *testing.T) {
	if err := ValidateHand(MustParseFaces("R1 R1 FJ FJ K13 K13")); err != nil {
		t.Errorf("valid hand: %v", err)
	}
	for _, tc := range []struct {
		hand []Face
		want string
		is   error
	}{
		{MustParseFaces("R1 R1 K2 R1"), "a third R1", ErrTooManyCopies},
		{MustParseFaces("FJ K2 FJ FJ"), "a third FJ", ErrTooManyCopies},
		{[]Face{0, 53}, "face 53", ErrBadTile},
		{[]Face{NoFace}, "face 255", ErrBadTile},
	} {
		err := ValidateHand(tc.hand)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.is) {
			t.Errorf("ValidateHand(%v) = %v, want %q", tc.hand, err, tc.want)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	okey := mustOkey(t, "R4")
	win := MustParseFaces("R1 R2 R3 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5")
	third := MustParseFaces("R1 R1 R1 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R5")
	threeOkeys := MustParseFaces("R5 R5 R5 Y7 B7 K7 K9 K10 K11 K12 B1 B2 B3 R1")
	bad := slices.Clone(win)
	bad[0] = 99
	for _, h := range [][]Face{win[:13], append(slices.Clone(win), K(1)), third, threeOkeys, bad, nil} {
		if IsWinning(okey, h) {
			t.Errorf("IsWinning(%v) = true", h)
		}
		if _, ok := WinningArrangement(okey, h); ok {
			t.Errorf("WinningArrangement(%v) ok", h)
		}
		if d := Distance(okey, h); d != -1 {
			t.Errorf("Distance(%v) = %d", h, d)
		}
	}
	for _, o := range []Face{FalseJoker, NoFace, 60} {
		if IsWinning(o, win) || Distance(o, win) != -1 || WinningDiscards(o, append(slices.Clone(win), K(1))) != nil {
			t.Errorf("okey %d accepted", o)
		}
		if g, rest := Arrange(o, win, true); g != nil || len(rest) != len(win) {
			t.Errorf("Arrange with okey %d: %v %v", o, g, rest)
		}
	}
	if ds, d := BestDiscards(okey, win); ds != nil || d != -1 {
		t.Errorf("BestDiscards(14 tiles) = %v, %d", ds, d)
	}
	if WinningDiscards(okey, win) != nil {
		t.Errorf("WinningDiscards(14 tiles) not nil")
	}
	if !IsWinning(okey, win) {
		t.Errorf("control hand not winning")
	}
}

// K returns black n.
func K(n int) Face { return NewFace(Black, n) }

func TestArrange(t *testing.T) {
	okey := mustOkey(t, "Y1") // yellow 2, not in the hand
	hand := MustParseFaces("R7 Y7 B7 R8 R9 K12 K13 K1 B3 Y5")
	show := func(gs []Group) string {
		var s []string
		for _, g := range gs {
			s = append(s, g.Kind.String()+" "+FormatFaces(g.Tiles))
		}
		return strings.Join(s, ", ")
	}
	// The 7s make a set or R7 a run: six tiles covered either way, the
	// preference decides.
	for _, tc := range []struct {
		runsFirst    bool
		groups, rest string
	}{
		{true, "run R7 R8 R9, run K12 K13 K1", "Y5 Y7 B3 B7"},
		{false, "set R7 Y7 B7, run K12 K13 K1", "R8 R9 Y5 B3"},
	} {
		gs, rest := Arrange(okey, hand, tc.runsFirst)
		checkLayout(t, okey, hand, gs, rest)
		if show(gs) != tc.groups || FormatFaces(rest) != tc.rest {
			t.Errorf("runsFirst %v: %s; rest %s", tc.runsFirst, show(gs), FormatFaces(rest))
		}
	}
	// With an okey both fit: R8 R9 and the okey make a run.
	hand = append(hand, okey)
	gs, rest := Arrange(okey, hand, false)
	checkLayout(t, okey, hand, gs, rest)
	if len(rest) != 2 {
		t.Errorf("with an okey: %s; rest %s", show(gs), FormatFaces(rest))
	}
	// Any count, and nothing to group.
	gs, rest = Arrange(okey, MustParseFaces("R1 Y5 K9"), true)
	if gs != nil || FormatFaces(rest) != "R1 Y5 K9" {
		t.Errorf("Arrange(R1 Y5 K9) = %v, %s", gs, FormatFaces(rest))
	}
	gs, rest = Arrange(okey, nil, true)
	if gs != nil || rest != nil {
		t.Errorf("Arrange(nil) = %v, %v", gs, rest)
	}
}

// TestArrangeMatchesOracle: Arrange covers all tiles exactly when the oracle
// groups them all, and on a few tiles covers as many as brute force.
func TestArrangeMaximal(t *testing.T) {
	r := newRand(11)
	for i := 0; i < 300; i++ {
		okey, h := poolHand(r, 6+r.IntN(4))
		gs, rest := Arrange(okey, h, i%2 == 0)
		checkLayout(t, okey, h, gs, rest)
		// Brute force: the most tiles of some sub-multiset that groups.
		best := 0
		for mask := 0; mask < 1<<len(h); mask++ {
			var sub []Face
			for j := range h {
				if mask&(1<<j) != 0 {
					sub = append(sub, h[j])
				}
			}
			if len(sub) > best && oGrouped(okey, sub) {
				best = len(sub)
			}
		}
		if got := len(h) - len(rest); got != best {
			t.Fatalf("Arrange(%v, %s) covers %d, best %d", okey, FormatFaces(h), got, best)
		}
	}
}

func ExampleWinningArrangement() {
	okey, _ := OkeyFor(MustParseFaces("R4")[0]) // the red 5s are wild
	hand := MustParseFaces("K11 K12 K13 K1 Y7 B7 K7 B6 R5 B8 B9 R1 R2 R3")
	arr, ok := WinningArrangement(okey, hand)
	fmt.Println(ok, arr.Kind)
	for _, g := range arr.Groups {
		fmt.Println(g.Kind, FormatFaces(g.Tiles), "as", FormatFaces(g.As))
	}
	// Output:
	// true groups
	// run R1 R2 R3 as R1 R2 R3
	// set Y7 B7 K7 as Y7 B7 K7
	// run B6 R5 B8 B9 as B6 B7 B8 B9
	// run K11 K12 K13 K1 as K11 K12 K13 K1
}

func ExampleDistance() {
	okey, _ := OkeyFor(MustParseFaces("R4")[0])
	hand := MustParseFaces("R1 R2 R3 Y7 B7 K7 K9 K10 K11 K13 B1 B2 B3 B6")
	fmt.Println(Distance(okey, hand))
	discards, d := BestDiscards(okey, append(hand, MustParseFaces("K12")...))
	fmt.Println(FormatFaces(discards), d)
	// Output:
	// 1
	// B6 0
}
