package engine

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"sort"
	"testing"
)

// choiceTests maps every named choice of protocol.md section 3
// ("[choice: name]") to the test of its reading, from the texts' words.
var choiceTests = map[string]func(*testing.T){
	"stack-numbering":         TestStackDealExample,
	"reroll-reopens":          testRerollReopens,
	"show-own-turn":           TestGostermeNeedsTheHoldersTurn,
	"upcard-from-audit":       TestTurkishUpcardBonus,
	"first-player-wins-dealt": TestFirstPlayerWinsWithDealtTiles,
	"final-discard-middle":    TestFirstPlayerWinsWithDealtTiles,
	"classic-groups":          TestClassicGroupsInEveryPreset,
	"stalemate-show-void":     TestStalemateGosterme,
	"one-side-left-ends":      TestLeaveAtZeroPartnershipsEnds,
	"german-rounds-or-zero":   testGermanRoundsOrZero,
	// Okey 101 (3.6): the readings okey-classic.txt's "Okey 101" leaves open.
	"joker-swap":               TestSwap101,
	"swap-discard-penalty":     TestNoSwapPenalty101,
	"okey-counts-zero":         TestScoreTable101,
	"doubles-finisher-doubled": TestScoreTable101,
	"three-cancels":            TestCancel101,
}

// TestNamedChoices runs the test of every named choice in protocol.md, and
// fails when the text names a choice no test covers (or the other way).
func TestNamedChoices(t *testing.T) {
	b, err := os.ReadFile("../protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, m := range regexp.MustCompile("\\[choice: `([a-z0-9-]+)`\\]").FindAllSubmatch(b, -1) {
		named = append(named, string(m[1]))
	}
	var have []string
	for k := range choiceTests {
		have = append(have, k)
	}
	sort.Strings(named)
	sort.Strings(have)
	if !slices.Equal(named, have) {
		t.Fatalf("protocol.md names choices %v; tests cover %v", named, have)
	}
	for _, name := range have {
		t.Run(name, choiceTests[name])
	}
}

// okey-classic.txt: "If the selected tile is a false joker, it is returned
// to the selected stack and the second throw of the die is repeated". A
// repeated throw may select the same false joker: it is opened again.
func testRerollReopens(t *testing.T) {
	d := &dealer{}
	d.setFaces(t, map[Slot]Face{13: FalseJoker, 11: NewFace(Black, 13)})
	m, _ := NewMatch(MustRuleset("classic", ""), 3, 1)
	for _, v := range []int{3, 4} {
		if err := m.Apply(Action{Kind: ActRoll, Value: v}); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 2; round++ {
		need := m.Hand().Need()
		if need.Kind != ActReveal || !slices.Equal(need.Slots, []Slot{13}) {
			t.Fatalf("round %d: need %+v, want slot 13 opened", round, need)
		}
		if err := m.Apply(Action{Kind: ActReveal, Faces: d.open(13)}); err != nil {
			t.Fatal(err)
		}
		if m.Hand().Phase() != PhaseRollTile {
			t.Fatalf("after a false joker: phase %v", m.Hand().Phase())
		}
		if round == 0 {
			if err := m.Apply(Action{Kind: ActRoll, Value: 4}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The reopened slot must come out the same.
	if err := m.Apply(Action{Kind: ActRoll, Value: 4}); err != nil {
		t.Fatal(err)
	}
	before := m.Hash()
	if err := m.Apply(Action{Kind: ActReveal, Faces: []SlotFace{{13, NewFace(Red, 1)}}}); !errors.Is(err, ErrFace) || m.Hash() != before {
		t.Fatalf("a reopened false joker as R1: %v", err)
	}
	if err := m.Apply(Action{Kind: ActReveal, Faces: d.open(13)}); err != nil {
		t.Fatal(err)
	}
	settle(t, m, d, 2)
	if got := m.Hand().Dice(); !slices.Equal(got, []int{3, 4, 4, 4, 2}) {
		t.Fatalf("dice %v, want every roll", got)
	}
	if s, f := m.Hand().Indicator(); s != 11 || f != NewFace(Black, 13) {
		t.Fatalf("indicator %d %v", s, f)
	}
}

// okey-german.txt: "Wer zuerst bei 0 Punkten angekommen ist, hat das Spiel
// gewonnen": rounds=N ends the match after N hands or at 0, whichever comes
// first.
func testGermanRoundsOrZero(t *testing.T) {
	m, lg := playGreedy(t, MustRuleset("german", "points=2,rounds=5"), 2, 3, 10)
	if !m.Over() || lg.scoring != 1 || lg.hands >= 5 {
		t.Fatalf("points=2,rounds=5: over=%v after %d hands (%d won); want the first win to end it", m.Over(), lg.hands, lg.scoring)
	}
	m, lg = playGreedy(t, MustRuleset("german", "points=99,rounds=3"), 2, 3, 10)
	if !m.Over() || lg.hands != 3 {
		t.Fatalf("points=99,rounds=3: over=%v after %d hands, want 3", m.Over(), lg.hands)
	}
}

// okey-german.txt's variant: "dass die Gewinner eines Spiels auf ihrem Konto
// ihren Punktestand behalten, dass jedoch umgekehrt die anderen Spieler
// Punkte ... verlieren. Dann ist am Ende Sieger, wer die meisten Punkte übrig
// behielt."
func TestGermanOthersLose(t *testing.T) {
	m, _ := NewMatch(MustRuleset("german", "others-lose"), 3, 0)
	win := HandResult{Winner: 1, Kind: Groups, OneColour: NumColours, Upcard: -1}
	if got := m.Deltas(win); !slices.Equal(got, []int{-2, 0, -2}) {
		t.Errorf("others-lose win: %v", got)
	}
	win.OkeyDiscard = true
	if got := m.Deltas(win); !slices.Equal(got, []int{-4, 0, -4}) {
		t.Errorf("others-lose okey discard: %v", got)
	}
	stale := HandResult{Winner: -1, OneColour: NumColours, Shown: []int{0}, Upcard: -1}
	if got := m.Deltas(stale); !slices.Equal(got, []int{0, -1, -1}) {
		t.Errorf("others-lose gösterme in a stalemate: %v", got)
	}
	g, _ := NewMatch(MustRuleset("german", ""), 3, 0)
	if got := g.Deltas(HandResult{Winner: 1, Kind: Groups, OneColour: NumColours, Upcard: -1}); !slices.Equal(got, []int{0, -2, 0}) {
		t.Errorf("german win: %v", got)
	}
	copy(m.scores, []int{5, 9, 7})
	if r := m.Ranking(); r[0].Seat != 1 || r[1].Seat != 2 || r[2].Seat != 0 {
		t.Errorf("others-lose ranks most points first: %v", r)
	}
	// "Das Spiel ist dann aber ebenfalls beendet, wenn ein Spieler 0 Punkte erreicht."
	pm, lg := playGreedy(t, MustRuleset("german", "others-lose,points=2"), 3, 8, 20)
	low := slices.Min(pm.Scores())
	if !pm.Over() || low > 0 || lg.scoring != 1 {
		t.Errorf("others-lose,points=2: over=%v, scores %v after %d wins", pm.Over(), pm.Scores(), lg.scoring)
	}
}

// okey-german.txt: "Irgendwann vermindert jemand seine Punkte auf 0. Er ist
// der Sieger. Die übrigen Spieler können um die nachgeordneten Plätze
// weiterspielen." With leave-at-zero the finisher leaves, ranked first.
func TestGermanPlayOnForPlaces(t *testing.T) {
	m, _ := playGreedy(t, MustRuleset("german", "leave-at-zero,points=2"), 3, 21, 50)
	if !m.Over() || len(m.left) != 2 {
		t.Fatalf("over=%v, left %v", m.Over(), m.left)
	}
	r := m.Ranking()
	if r[0].Seat != m.left[0] || r[0].Place != 1 || r[1].Seat != m.left[1] || r[1].Place != 2 || r[2].Place != 3 {
		t.Fatalf("ranking %v, finishers %v", r, m.left)
	}
}

// okey-rules.txt's tournament scoring has no gösterme: with no-gosterme the
// holder of the indicator's twin cannot show it.
func TestNoGosterme(t *testing.T) {
	m, d, _ := scripted(t, "classic:deal=simple,no-gosterme", []string{winner15, "R5 R6 Y8 Y9 B1 B2 B4 B5 K1 K2 K4 K5 R9 K9"}, "K9")
	s := m.Hand().Rack(0)[0]
	if err := m.Apply(Action{Kind: ActDiscard, Seat: 0, Slot: s, Faces: []SlotFace{{s, d.face(s)}}}); err != nil {
		t.Fatal(err)
	}
	twin := slotOf(t, m, d, 1, "K9")
	if m.Hand().CanShow(1) {
		t.Fatal("CanShow with no-gosterme")
	}
	if err := m.Apply(Action{Kind: ActShow, Seat: 1, Slot: twin, Faces: []SlotFace{{twin, d.face(twin)}}}); !errors.Is(err, ErrShow) {
		t.Fatalf("show with no-gosterme: %v", err)
	}
}

// turkish-rummy.txt: "The remaining 25% are divided between the remaining
// players, as long as they have less than 40 penalty points (1 round quick
// game) or 80 points (3 rounds quick game)."
func TestTurkishPrize(t *testing.T) {
	for _, c := range []struct {
		spec   string
		limit  int
		scores []int
		prize  []bool // by place
	}{
		{"turkish-rummy:rounds=1", 40, []int{60, 20, 39, 40}, []bool{true, true, false, false}},
		{"turkish-rummy", 80, []int{79, 80, 100, 20}, []bool{true, true, false, false}},
		{"turkish-rummy", 80, []int{90, 90, 100}, []bool{true, true, false}},
	} {
		r := MustRuleset("turkish-rummy", c.spec[min(len(c.spec), len("turkish-rummy:")):])
		if r.PrizeLimit() != c.limit {
			t.Fatalf("%s: limit %d", c.spec, r.PrizeLimit())
		}
		m, _ := NewMatch(r, len(c.scores), 0)
		copy(m.scores, c.scores)
		var got []bool
		for _, st := range m.Ranking() {
			got = append(got, st.Prize)
		}
		if !slices.Equal(got, c.prize) {
			t.Errorf("%s %v: prize %v, want %v (%v)", c.spec, c.scores, got, c.prize, m.Ranking())
		}
	}
	if MustRuleset("classic", "").PrizeLimit() != 0 {
		t.Error("classic has a prize")
	}
}
