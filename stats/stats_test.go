package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/rating"
)

// TestWilson checks the interval against the worked examples of R. G.
// Newcombe, "Two-sided confidence intervals for the single proportion:
// comparison of seven methods", Statistics in Medicine 17 (1998) 857-872,
// Table I, method 3 (the score method without continuity correction), to
// the four decimals printed there.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0.0000, 0.1611},
		{1, 29, 0.0061, 0.1718},
	} {
		lo, hi := Wilson(c.k, c.n, Z95)
		if math.Abs(lo-c.lo) > 0.00005 || math.Abs(hi-c.hi) > 0.00005 {
			t.Errorf("Wilson(%d, %d) = %.4f, %.4f; Newcombe %.4f, %.4f", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	// The edges: all and none stay inside [0, 1] and touch it; no trials
	// say nothing.
	if lo, hi := Wilson(5, 5, Z95); hi != 1 || lo <= 0 || lo >= 1 {
		t.Errorf("Wilson(5, 5) = %v, %v", lo, hi)
	}
	if lo, hi := Wilson(0, 0, Z95); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = %v, %v", lo, hi)
	}
}

func TestSparkline(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		vals  []float64
		width int
		want  string
	}{
		{nil, 10, ""},
		{[]float64{1, 2}, 0, ""},
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7}, 10, "▁▂▃▄▅▆▇█"},
		{[]float64{7, 0}, 10, "█▁"},
		{[]float64{3, 3, 3}, 10, "▄▄▄"},
		{[]float64{0, nan, 7}, 10, "▁ █"},
		// Eight values in four columns: the means of pairs, 0.5 2.5 4.5 6.5.
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7}, 4, "▁▃▆█"},
		{[]float64{-10, 10}, 10, "▁█"},
	} {
		if got := Sparkline(c.vals, c.width); got != c.want {
			t.Errorf("Sparkline(%v, %d) = %q, want %q", c.vals, c.width, got, c.want)
		}
	}
	long := make([]float64, 1000)
	for i := range long {
		long[i] = float64(i)
	}
	if got := Sparkline(long, 60); len([]rune(got)) != 60 || !strings.HasPrefix(got, "▁") || !strings.HasSuffix(got, "█") {
		t.Errorf("1000 values in 60 columns: %q", got)
	}
}

func TestResample(t *testing.T) {
	got := Resample([]float64{1, 2, 3, 4, 5}, 2)
	if fmt.Sprint(got) != "[1.5 4]" {
		t.Errorf("Resample 5 into 2: %v", got)
	}
}

// key makes a 64-hex-digit key from a letter.
func key(c byte) string { return strings.Repeat(string(c), 64) }

// cfg makes a config hash from a number.
func cfg(i int) string { return fmt.Sprintf("%064x", i) }

func at(i int) time.Time { return time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC) }

// TestBuild: the record of a few matches, by hand.
func TestBuild(t *testing.T) {
	a, b, c, d := key('a'), key('b'), key('c'), key('d')
	seat := func(k, name string, team, score, place int) Seat {
		return Seat{Key: k, Name: name, Team: team, Score: score, Place: place}
	}
	played := []Played{
		// Given out of order: the record sorts by time.
		{File: "m2", When: at(2), Status: Honest, Match: &Match{Config: cfg(2), Ruleset: "classic", Seats: []Seat{
			seat(a, "ada", 0, 10, 1), seat(b, "bo", 1, -1, 2)},
			Hands: []Hand{{Winner: 0, Pairs: true}, {Winner: 0, OkeyDiscard: true}, {Winner: -1}}}},
		{File: "m1", When: at(1), Status: Honest, Match: &Match{Config: cfg(1), Ruleset: "classic:points=10", Seats: []Seat{
			seat(a, "a", 0, 4, 1), seat(b, "bo", 1, 2, 2)},
			Hands: []Hand{{Winner: 1}}}},
		// A second copy of m1: counts once.
		{File: "m1-copy", When: at(3), Status: Honest, Match: &Match{Config: cfg(1), Ruleset: "classic:points=10", Seats: []Seat{
			seat(a, "a", 0, 4, 1), seat(b, "bo", 1, 2, 2)}}},
		// An unfinished match: unfinished for both, a loss for neither.
		{File: "m3", When: at(4), Status: Unfinished, Match: &Match{Config: cfg(3), Ruleset: "classic", Seats: []Seat{
			seat(a, "ada", 0, 0, 0), seat(c, "cem", 1, 0, 0)}}},
		// Left out: nothing of it counts.
		{File: "bad", When: at(5), Status: Invalid},
		{File: "cheat", When: at(5), Status: Cheating},
		// Partnerships: a and c against b and d; a and c win, tied first.
		{File: "m4", When: at(6), Status: Honest, Match: &Match{Config: cfg(4), Ruleset: "101:partnerships", Seats: []Seat{
			seat(a, "ada", 0, -50, 1), seat(b, "bo", 1, 300, 3), seat(c, "cem", 0, 120, 1), seat(d, "dd", 1, 90, 3)},
			Hands: []Hand{{Winner: 2, OkeyDiscard: true, Opened: []Opening{OpenedSets, NotOpened, OpenedDoubles, OpenedSets}}}}},
	}
	rec := Build(played, rating.Default())
	if rec.Matches != 3 {
		t.Fatalf("%d matches, want 3", rec.Matches)
	}
	by := map[string]Player{}
	for _, p := range rec.Players {
		by[p.Name] = p
	}
	ada, bo, cem, dd := by["ada"], by["bo"], by["cem"], by["dd"]
	if ada.Key != a || ada.Short != "aaaaaaaa" {
		t.Errorf("ada: the latest name, key %q short %q", ada.Key, ada.Short)
	}
	for _, c := range []struct {
		name string
		got  any
		want any
	}{
		{"ada matches, wins, unfinished", [3]int{ada.Matches, ada.Wins, ada.Unfinished}, [3]int{3, 3, 1}},
		{"bo matches, wins, unfinished", [3]int{bo.Matches, bo.Wins, bo.Unfinished}, [3]int{3, 0, 0}},
		{"cem matches, wins, unfinished", [3]int{cem.Matches, cem.Wins, cem.Unfinished}, [3]int{1, 1, 1}},
		{"ada hands, won, groups, pairs, okey", [5]int{ada.Hands, ada.HandsWon, ada.Groups, ada.SevenPairs, ada.OkeyDiscard}, [5]int{4, 2, 1, 1, 1}},
		{"bo hands, won, groups", [3]int{bo.Hands, bo.HandsWon, bo.Groups}, [3]int{4, 1, 1}},
		{"cem won, groups, okey: 101 rounds apart", [3]int{cem.HandsWon, cem.Groups, cem.OkeyDiscard}, [3]int{0, 0, 0}},
		{"cem 101 rounds, finished, okey finish", [3]int{cem.Rounds101, cem.Finished101, cem.OkeyFinish}, [3]int{1, 1, 1}},
		{"ada 101 rounds, finished", [2]int{ada.Rounds101, ada.Finished101}, [2]int{1, 0}},
		{"openings ada, cem, dd, bo", [4][2]int{{ada.OpenedSets, ada.OpenedPairs}, {cem.OpenedSets, cem.OpenedPairs}, {dd.OpenedSets, dd.OpenedPairs}, {bo.OpenedSets, bo.OpenedPairs}},
			[4][2]int{{1, 0}, {0, 1}, {1, 0}, {0, 0}}},
		{"ada scores", fmt.Sprint(ada.Scores), "[{101 1 -50} {classic 2 7}]"},
		{"ada series places", fmt.Sprint(places(ada.Series)), "[0:1 1:1 2:1]"},
		{"dd series", fmt.Sprint(places(dd.Series)), "[2:3]"},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if ada.WinShare != 1 || ada.WinHigh != 1 || !(ada.WinLow > 0.4 && ada.WinLow < 0.5) {
		t.Errorf("ada's win share %v [%v, %v]", ada.WinShare, ada.WinLow, ada.WinHigh)
	}
	// Partners share their team's result: ada and cem both gain in m4,
	// bo and dd both lose; new partners on one team move alike.
	if !(cem.Rating.Mu > 25) || !(dd.Rating.Mu < 25) {
		t.Errorf("cem %v, dd %v", cem.Rating, dd.Rating)
	}
	if n := len(ada.Series); ada.Series[n-1].Mu != ada.Rating.Mu {
		t.Errorf("the last point %v is not the rating %v", ada.Series[n-1], ada.Rating)
	}
	// Sorted by matches, then ordinal.
	if rec.Players[0].Name != "ada" || rec.Players[1].Name != "bo" {
		t.Errorf("order: %v", names(rec.Players))
	}
}

// TestBuildUnfinishedCopy: an unfinished copy of a match that also has a
// finished copy counts only as the finished one, whatever their order.
func TestBuildUnfinishedCopy(t *testing.T) {
	m := func(place int) *Match {
		return &Match{Config: cfg(1), Ruleset: "classic", Seats: []Seat{
			{Key: key('a'), Name: "a", Team: 0, Place: place}, {Key: key('b'), Name: "b", Team: 1, Place: 2 * place}}}
	}
	rec := Build([]Played{{File: "x", When: at(1), Status: Unfinished, Match: m(0)}, {File: "y", When: at(2), Status: Honest, Match: m(1)}}, rating.Default())
	if rec.Matches != 1 || rec.Players[0].Unfinished != 0 || rec.Players[0].Matches != 1 {
		t.Errorf("got %+v", rec)
	}
}

func places(s []Point) []string {
	var out []string
	for _, p := range s {
		out = append(out, fmt.Sprintf("%d:%d", p.Match, p.Place))
	}
	return out
}

func names(ps []Player) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}
