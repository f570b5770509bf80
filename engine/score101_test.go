package engine

import (
	"slices"
	"testing"
)

// TestScoreTable101 checks the scoring rules of protocol.md 3.6 case by
// case on a four-player round whose end state is set directly: seat 0
// finishes; seat 1 opened with sets and holds R3 K7 (10) and an okey; seat
// 2 opened with doubles and holds B5 FJ (5 + the okey's number 2 = 7); seat
// 3 has not opened and holds an okey.
func TestScoreTable101(t *testing.T) {
	for _, c := range []struct {
		name         string
		rules        string
		doubles, one bool // the finisher opened with doubles; a one-turn finish
		joker        bool // the finishing discard was an okey
		exhausted    bool
		want         []int
	}{
		// The text: finisher -101, opened the sum, doubles opener double
		// its sum, unopened 202; an okey left: 101 (opened), nothing more
		// (unopened).
		{name: "finish", rules: "101", want: []int{-101, 10 + 101, 2 * 7, 202}},
		{name: "joker finish", rules: "101", joker: true, want: []int{-202, 20 + 101, 4 * 7, 404}},
		{name: "joker finish, single sums", rules: "101:joker-finish-single-sums", joker: true, want: []int{-202, 10 + 101, 2 * 7, 404}},
		{name: "doubles finisher", rules: "101", doubles: true, want: []int{-202, 20 + 101, 4 * 7, 404}},
		{name: "one turn", rules: "101", one: true, want: []int{-202, 20 + 101, 4 * 7, 404}},
		{name: "one turn with an okey", rules: "101", one: true, joker: true, want: []int{-404, 40 + 101, 8 * 7, 808}},
		{name: "exhausted", rules: "101", exhausted: true, want: []int{0, 10 + 101, 2 * 7, 202}},
		{name: "unopened okey", rules: "101:unopened-joker-penalty", want: []int{-101, 10 + 101, 2 * 7, 202 + 101}},
		// okey-face-value: "the total value of all of the tiles left in
		// their hand" with the okey (Y2) at its own number, besides its 101;
		// the unopened seat's okey changes nothing (202).
		{name: "okey at face value", rules: "101:okey-face-value", want: []int{-101, 12 + 101, 2 * 7, 202}},
		{name: "okey at face value, okey finish", rules: "101:okey-face-value", joker: true, want: []int{-202, 24 + 101, 4 * 7, 404}},
		// doubles-finisher-single: "If he finishes his hand other players
		// receive double penalty points": the others only; the finisher's
		// own 101 is not doubled (one turn and an okey still double it).
		{name: "doubles finisher, single", rules: "101:doubles-finisher-single", doubles: true, want: []int{-101, 20 + 101, 4 * 7, 404}},
		{name: "doubles finisher, single, one turn", rules: "101:doubles-finisher-single", doubles: true, one: true, joker: true,
			want: []int{-404, 80 + 101, 16 * 7, 1616}},
		{name: "doubles-finisher-single, sets finisher", rules: "101:doubles-finisher-single", want: []int{-101, 10 + 101, 2 * 7, 202}},
	} {
		rg := newRig101(t, c.rules, 4, 0, deal101{racks: []string{"", "R3 K7 Y2", "B5 FJ", "Y2"}, indicator: "Y1"})
		g := rg.g()
		keep := func(seat int, faces string) {
			var ss []Slot
			for _, sf := range rg.slots(seat, MustParseFaces(faces)) {
				ss = append(ss, sf.Slot)
			}
			sortSlots(ss)
			g.racks[seat] = ss
		}
		g.racks[0] = nil
		keep(1, "R3 K7 Y2")
		keep(2, "B5 FJ")
		keep(3, "Y2")
		g.opened = []Opened{OpenedSets, OpenedSets, OpenedDoubles, NotOpened}
		if c.doubles {
			g.opened[0] = OpenedDoubles
		}
		g.result = &Result101{End: EndFinish, Finisher: 0, JokerFinish: c.joker, OneTurn: c.one}
		if c.exhausted {
			g.result = &Result101{End: EndExhausted, Finisher: -1}
		}
		g.endRound()
		rg.reveal()
		res, _ := g.Result()
		if !slices.Equal(res.Points, c.want) {
			t.Errorf("%s: points %v, want %v (hand %v)", c.name, res.Points, c.want, res.HandPoints)
		}
	}
}

// TestPartnerships101: partners' totals add up and rank together.
func TestPartnerships101(t *testing.T) {
	m, err := NewMatch101(MustRuleset("101", "partnerships"), 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	m.scores = []int{-101, 202, 50, 30}
	if ts := m.TeamScores(); !slices.Equal(ts, []int{-51, 232, -51, 232}) {
		t.Fatalf("team scores %v", ts)
	}
	rk := m.Ranking()
	if rk[0].Seat != 0 || rk[1].Seat != 2 || rk[0].Place != 1 || rk[1].Place != 1 || rk[2].Place != 3 {
		t.Fatalf("ranking %v", rk)
	}
	m2, _ := NewMatch101(MustRuleset("101", ""), 4, 0)
	m2.scores = []int{-101, 202, 50, 30}
	if rk := m2.Ranking(); rk[0].Seat != 0 || rk[1].Seat != 3 || rk[3].Seat != 1 {
		t.Fatalf("ranking %v", rk)
	}
}
