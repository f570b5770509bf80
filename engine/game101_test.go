package engine

import (
	"slices"
	"testing"
)

// Racks used by several tests (indicator Y1, so the okey is Y2).
const (
	open128  = "R10 R11 R12 R13 B10 B11 B12 B13 K11 K12 K13" // 46 + 46 + 36
	rest10   = "K1 K2 K3 B1 B2 B3 R5 Y5 B5 K5"               // three more melds
	pairs5a  = "R1 R1 R3 R3 Y4 Y4 B6 B6 K8 K8"
	pairs5b  = "R7 R7 Y9 Y9 B11 B11 K12 K12 K6 K6"
	layRest  = "K1 K2 K3 | B1 B2 B3 | R5 Y5 B5 K5"
	layOpen  = "R10 R11 R12 R13 | B10 B11 B12 B13 | K11 K12 K13"
	layPairA = "R1 R1 | R3 R3 | Y4 Y4 | B6 B6 | K8 K8"
	layPairB = "R7 R7 | Y9 Y9 | B11 B11 | K12 K12 | K6 K6"
)

// setsRound: seat 1 opens with 128 at its first turn and finishes at its
// second; the dealer (seat 0) never opens. bank: seat 1's first draw, the
// dealer's draw, seat 1's second draw.
func setsRound(t *testing.T, rules, bank string) *rig101 {
	rg := newRig101(t, rules, 2, 0, deal101{racks: []string{"Y8", open128 + " " + rest10}, indicator: "Y1", bank: bank})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layOpen))
	rg.ok(rg.discard(1, "Y9"))
	rg.ok(rg.draw(0))
	rg.ok(rg.discard(0, "Y7"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layRest))
	return rg
}

func checkPoints(t *testing.T, res Result101, want []int) {
	t.Helper()
	if !slices.Equal(res.Points, want) {
		t.Fatalf("points %v, want %v (hand %v, penalties %v)", res.Points, want, res.HandPoints, res.Penalties)
	}
}

// TestScore101Finish: "When a player finishes their hand they receive 101
// minus points ... If they have not opened yet they automatically receive
// 202 penalty points". The finishing discard fits a meld (K10 on K11-K13):
// no penalty for the last tile.
func TestScore101Finish(t *testing.T) {
	rg := setsRound(t, "101", "Y9 Y7 K10")
	rg.ok(rg.discard(1, "K10"))
	res := rg.result()
	if res.End != EndFinish || res.Finisher != 1 || res.JokerFinish || res.OneTurn {
		t.Fatalf("result %+v", res)
	}
	checkPoints(t, res, []int{202, -101})
	if rg.m.Played() != 1 || !slices.Equal(rg.m.Scores(), []int{202, -101}) {
		t.Fatalf("match scores %v played %d", rg.m.Scores(), rg.m.Played())
	}
}

// TestScore101JokerFinish: "If a player finishes their hand by discarding
// the joker all points get doubled ... 202 minus points and players that
// have not opened receive 404"; the finishing okey is no discard penalty.
func TestScore101JokerFinish(t *testing.T) {
	rg := setsRound(t, "101", "Y9 Y7 Y2")
	rg.ok(rg.discard(1, "Y2"))
	res := rg.result()
	if !res.JokerFinish || len(res.Penalties) != 0 {
		t.Fatalf("result %+v", res)
	}
	checkPoints(t, res, []int{404, -202})

	// finish-joker-penalty: the finishing okey costs 101 too.
	rg = setsRound(t, "101:finish-joker-penalty", "Y9 Y7 Y2")
	rg.ok(rg.discard(1, "Y2"))
	checkPoints(t, rg.result(), []int{404, -202 + 101})
}

// TestScore101OneTurn: "If a player finishes their entire hand in one turn
// when none of the other players have opened yet all points get doubled as
// well. Points get doubled again if the player is also able to finish with
// a joker ... 404 minus points and all other players receive 808".
func TestScore101OneTurn(t *testing.T) {
	for _, c := range []struct {
		bank string
		want []int
	}{{"Y9", []int{404, -202}}, {"Y2", []int{808, -404}}} {
		rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8", open128 + " " + rest10}, indicator: "Y1", bank: c.bank})
		rg.ok(rg.discard(0, "Y8"))
		rg.ok(rg.draw(1))
		rg.ok(rg.lay(1, layOpen+" | "+layRest))
		rg.ok(rg.discard(1, c.bank))
		res := rg.result()
		if !res.OneTurn {
			t.Fatalf("%s: not a one-turn finish: %+v", c.bank, res)
		}
		checkPoints(t, res, c.want)
	}
}

// TestScore101Doubles: a doubles opener finishes: "If he finishes his hand
// other players receive double penalty points" (the finisher -202); the
// doubles opener adds a tile to another player's run ("allowed to add tiles
// to existing sets from other players").
func TestScore101Doubles(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{
		racks:     []string{"Y8 Y13 R10 R11 R12 R13 B7 B8 B9 B10 K9 K10 K11", pairs5a + " " + pairs5b + " R9"},
		indicator: "Y1", bank: "Y5 K2 Y3"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layPairA))
	rg.ok(rg.discard(1, "Y5"))
	rg.ok(rg.draw(0))
	rg.ok(rg.lay(0, "R10 R11 R12 R13 | B7 B8 B9 B10 | K9 K10 K11"))
	rg.ok(rg.discard(0, "Y13"))
	rg.ok(rg.draw(1))
	rg.refused(rg.add(1, 0, "R7"), ErrMeld) // nothing is added to a double
	rg.ok(rg.lay(1, layPairB))
	rg.ok(rg.add(1, 5, "R9"))
	sum0 := rg.sum(0)
	rg.ok(rg.discard(1, "Y3"))
	res := rg.result()
	checkPoints(t, res, []int{2 * sum0, -202})
	if m := rg.g().Melds()[5]; m.Owner != 0 || FormatFaces(m.As) != "R9 R10 R11 R12 R13" {
		t.Fatalf("meld 5 %+v", m)
	}
}

// TestScore101DoublesLoser: "If another player finishes the round, the
// player that opened with doubles receive double the value of their
// remaining tiles".
func TestScore101DoublesLoser(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{
		racks:     []string{"Y8 Y13 " + pairs5a, open128 + " " + rest10},
		indicator: "Y1", bank: "Y9 Y7 Y3"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layOpen))
	rg.ok(rg.discard(1, "Y9"))
	rg.ok(rg.draw(0))
	rg.ok(rg.lay(0, layPairA))
	rg.ok(rg.discard(0, "Y13"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layRest))
	sum0 := rg.sum(0)
	rg.ok(rg.discard(1, "Y3"))
	checkPoints(t, rg.result(), []int{2 * sum0, -101})
}

// TestScore101Exhausted: four players, the bank runs out; the opened player
// scores its rack, the others 202 (their okeys add nothing: "When they have
// not opened yet they receive the standard total penalty of 202"), and with
// unopened-joker-penalty 101 more per okey.
func TestScore101Exhausted(t *testing.T) {
	bank := "Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y3 Y4 Y6 Y7 Y9 Y10 Y11 Y12 Y13"
	for _, rules := range []string{"101", "101:unopened-joker-penalty"} {
		rg := newRig101(t, rules, 4, 0, deal101{racks: []string{"Y8", open128 + " " + rest10}, indicator: "Y1", bank: bank})
		rg.ok(rg.discard(0, "Y8"))
		for turn := 1; turn <= 20; turn++ {
			seat := turn % 4
			drawn := rg.deck[rg.g().Stock()[0]]
			rg.ok(rg.draw(seat))
			if turn == 1 {
				rg.ok(rg.lay(1, layOpen))
			}
			rg.ok(rg.discard(seat, drawn.String()))
		}
		rg.refused(rg.draw(1), ErrEmptyStock)
		jokers := make([]int, 4)
		for s := range jokers {
			for _, f := range rg.rackFaces(s) {
				if f == rg.g().Okey() {
					jokers[s]++
				}
			}
		}
		rg.ok(rg.exhaust(1))
		res := rg.result()
		want := []int{202, 32, 202, 202}
		if rules != "101" {
			for s := range want {
				if s != 1 {
					want[s] += 101 * jokers[s]
				}
			}
		}
		if res.End != EndExhausted || res.Finisher != -1 {
			t.Fatalf("result %+v", res)
		}
		checkPoints(t, res, want)
		if jokers[0]+jokers[2]+jokers[3] != 2 {
			t.Fatalf("the rig should put both okeys in unopened racks: %v", jokers)
		}
	}
}

// TestScore101JokerInHand: "If a player has a joker left in their hand when
// another player finishes ... they receive a 101 penalty"; the okey adds
// nothing else to the sum.
func TestScore101JokerInHand(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{
		racks:     []string{"Y8 Y13 Y2 " + pairs5a, open128 + " " + rest10},
		indicator: "Y1", bank: "Y9 Y7 Y3"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layOpen))
	rg.ok(rg.discard(1, "Y9"))
	rg.ok(rg.draw(0))
	rg.ok(rg.lay(0, layPairA))
	rg.ok(rg.discard(0, "Y13"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layRest))
	sum0 := rg.sum(0)
	rg.ok(rg.discard(1, "Y3"))
	res := rg.result()
	checkPoints(t, res, []int{2*sum0 + 101, -101})
	if len(res.Penalties) != 1 || res.Penalties[0].Kind != PenaltyJokerInHand {
		t.Fatalf("penalties %v", res.Penalties)
	}
}

// TestCancel101: "If all four players open with doubles within one round,
// that round gets canceled and replayed. No players receive any
// penalties." The replay has a new hand number and does not count; after
// MaxReplays101 cancellations in a row the round is played on.
func TestCancel101(t *testing.T) {
	d := deal101{racks: []string{"Y8 R2 R2 Y10 Y10 B4 B4 K7 K7 R6 R6 Y2", pairs5a + " " + pairs5b + " R9"},
		indicator: "Y1", bank: "Y5 K2 Y3"}
	rg := newRig101(t, "101", 2, 0, d)
	for k := 0; k <= MaxReplays101; k++ {
		rg.ok(rg.discard(0, "Y2")) // an okey discard: 101, forgiven when the round is cancelled
		rg.ok(rg.draw(1))
		rg.ok(rg.lay(1, layPairA))
		rg.ok(rg.discard(1, "Y5"))
		rg.ok(rg.draw(0))
		rg.ok(rg.lay(0, "R2 R2 | Y10 Y10 | B4 B4 | K7 K7 | R6 R6"))
		if k == MaxReplays101 {
			break
		}
		res := rg.result()
		if res.End != EndCancelled {
			t.Fatalf("replay %d: %+v", k, res)
		}
		checkPoints(t, res, []int{0, 0})
		if err := rg.m.NextHand(); err != nil {
			t.Fatal(err)
		}
		if rg.m.HandNumber() != k+1 || rg.m.Played() != 0 || rg.g().Dealer() != 0 {
			t.Fatalf("after a cancel: hand %d played %d dealer %d", rg.m.HandNumber(), rg.m.Played(), rg.g().Dealer())
		}
		rg.setDeck(d)
	}
	if rg.g().Phase() != Phase101Play {
		t.Fatalf("after %d cancellations the round must go on: phase %v", MaxReplays101, rg.g().Phase())
	}
	// no-cancel: never cancelled.
	rg = newRig101(t, "101:no-cancel", 2, 0, d)
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layPairA))
	rg.ok(rg.discard(1, "Y5"))
	rg.ok(rg.draw(0))
	rg.ok(rg.lay(0, "R2 R2 | Y10 Y10 | B4 B4 | K7 K7 | R6 R6"))
	if rg.g().Phase() != Phase101Play {
		t.Fatal("no-cancel: cancelled")
	}
}

// TestDeal101: 21 tiles each, 22 to the dealer, who starts by discarding;
// the indicator is turned up (a false joker stays in the bank and the next
// tile is turned up); okey = indicator + 1, 13 -> 1.
func TestDeal101(t *testing.T) {
	r := MustRuleset("101", "")
	for n := 2; n <= 4; n++ {
		g, err := NewGame101(r, n, n-1, true)
		if err != nil {
			t.Fatal(err)
		}
		for s := 0; s < n; s++ {
			want := 21
			if s == n-1 {
				want = 22
			}
			if len(g.Rack(s)) != want {
				t.Fatalf("%d players: seat %d holds %d", n, s, len(g.Rack(s)))
			}
		}
		if g.Order()[0] != n-1 || len(g.Stock()) != DeckSize-21*n-1 {
			t.Fatalf("%d players: order %v stock %d", n, g.Order(), len(g.Stock()))
		}
		p := g.Pending()
		if err := g.Apply(Action101{Kind: Act101Reveal, Faces: []SlotFace{{p[0], FalseJoker}}}); err != nil {
			t.Fatal(err)
		}
		if g.Phase() != Phase101Indicator || g.Pending()[0] != p[0]+1 {
			t.Fatalf("a false joker is no indicator: phase %v pending %v", g.Phase(), g.Pending())
		}
		if err := g.Apply(Action101{Kind: Act101Reveal, Faces: []SlotFace{{p[0] + 1, MustParseFaces("K13")[0]}}}); err != nil {
			t.Fatal(err)
		}
		if g.Okey() != MustParseFaces("K1")[0] || len(g.Stock()) != DeckSize-21*n-2 || slices.Contains(g.Stock(), p[0]+1) {
			t.Fatalf("okey %v stock %d", g.Okey(), len(g.Stock()))
		}
		if seat, drawn, _ := g.Turn(); seat != n-1 || !drawn {
			t.Fatalf("turn %d drawn %v", seat, drawn)
		}
	}
	if _, err := NewMatch(r, 4, 0); err == nil {
		t.Fatal("the classic Match plays 101")
	}
	if _, err := NewMatch101(MustRuleset("classic", ""), 4, 0); err == nil {
		t.Fatal("Match101 plays classic")
	}
}

// TestRules101 walks the rules of a turn, each refused move naming its rule
// and changing nothing.
func TestRules101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{
		racks: []string{"Y8 Y13 Y9 R9 R9 K10 K9 K11 " + pairs5a,
			"R10 R11 R12 R13 B10 B11 B12 B13 K11 K12 K13 K1 K2 K3 B1 B2 R5 Y5 K5 Y2 FJ"},
		indicator: "Y1", bank: "B9 Y7 B8 K7 Y6"})
	// The dealer starts by discarding: no draw, no lay.
	rg.refused(rg.draw(0), ErrDrawn)
	rg.refused(rg.lay(0, layPairA), ErrPhase)
	rg.refused(rg.discard(1, "K1"), ErrTurn)
	if !rg.g().DealerFirst() {
		t.Fatal("the dealer's first turn is not DealerFirst")
	}
	rg.ok(rg.discard(0, "Y8"))
	if rg.g().DealerFirst() {
		t.Fatal("DealerFirst after the dealer's discard")
	}
	// Seat 1 takes Y8 and cannot keep it: the discard and an opening
	// without it are refused; it gives it back and draws.
	rg.ok(rg.take(1))
	rg.refused(rg.discard(1, "K1"), ErrMustUse)
	rg.refused(rg.discard(1, "Y8"), ErrMustUse)
	rg.refused(rg.lay(1, layOpen), ErrMustUse)
	rg.ok(rg.giveBack(1))
	rg.refused(rg.take(1), ErrNoDiscard)
	rg.refused(rg.discard(1, "K1"), ErrMustDraw)
	rg.ok(rg.draw(1)) // B9
	// Opening: 100 points are not enough; sets and doubles do not mix;
	// 13-1 does not continue; a set repeats no colour.
	rg.refused(rg.lay(1, "B10 B11 B12 B13 | K11 K12 K13 | R5 Y5 K5"), ErrOpening)
	rg.refused(rg.lay(1, layOpen+" | Y2=K1 K1"), ErrOpening)
	rg.refused(rg.lay(1, "K12 K13 K1"), ErrMeld)
	rg.refused(rg.lay(1, "K13 K1 K2"), ErrMeld)
	rg.refused(rg.lay(1, "R12 R13 Y2=R1 | R10 R11 B10 | B11 B12 B13 | K11 K12 K13"), ErrMeld)
	rg.refused(rg.lay(1, "B10 R10 B9"), ErrMeld)
	// Adding before opening.
	rg.refused(rg.add(1, 0, "K1"), ErrNotOpened)
	// A false joker plays only as the okey's face (Y2): not as B3.
	rg.refused(rg.lay(1, "B1 B2 FJ=B3 | "+layOpen), ErrMeld)
	// Open with an okey standing for B3 (value 128 + 6), then add in the same
	// turn: B9 to the blue run.
	rg.ok(rg.lay(1, layOpen+" | B1 B2 Y2=B3"))
	rg.ok(rg.add(1, 1, "B9"))
	if m := rg.g().Melds()[1]; FormatFaces(m.As) != "B9 B10 B11 B12 B13" {
		t.Fatalf("blue run %v", FormatFaces(m.As))
	}
	// Laying everything leaves nothing to discard.
	rg.refused(rg.lay(1, "K1 K2 K3 | R5 Y5 K5 FJ"), ErrKeepTile)
	rg.refused(rg.lay(1, "R5 Y5 K5 FJ"), ErrMeld)
	rg.refused(rg.lay(1, "R5 Y5 K5 FJ=K5"), ErrMeld)
	rg.ok(rg.discard(1, "K1"))
	if p := rg.g().Penalties(); len(p) != 0 {
		t.Fatalf("penalties %v", p)
	}
	// Seat 0 has not opened: it may not swap (default), and discarding R9
	// (which fits the red run) costs 101 even so.
	rg.ok(rg.draw(0)) // Y7
	rg.refused(rg.swap(0, 3, 2, "Y7"), ErrNotOpened)
	rg.refused(rg.add(0, 0, "R9"), ErrNotOpened)
	rg.ok(rg.discard(0, "R9"))
	p := rg.g().Penalties()
	if len(p) != 1 || p[0].Seat != 0 || p[0].Kind != PenaltyAddable {
		t.Fatalf("penalties %v", p)
	}
	// Seat 1 takes R9 and uses it (adds it to the red run).
	rg.ok(rg.take(1))
	rg.ok(rg.add(1, 0, "R9"))
	rg.ok(rg.discard(1, "K2"))
	// Seat 0 opens with doubles and may then add to others' melds; it
	// discards a tile that fits nothing.
	rg.ok(rg.draw(0)) // B8
	rg.refused(rg.lay(0, "R1 R1 | R3 R3 | Y4 Y4 | B6 B6"), ErrOpening)
	rg.ok(rg.lay(0, layPairA))
	rg.ok(rg.add(0, 1, "B8"))
	rg.refused(rg.lay(0, "K9 K10 K11"), ErrMeld) // a doubles opener lays no runs
	rg.ok(rg.discard(0, "Y13"))
	// Seat 1 discards its okey: 101.
	rg.ok(rg.draw(1)) // K7
	rg.ok(rg.discard(1, "K7"))
	p = rg.g().Penalties()
	if len(p) != 1 {
		t.Fatalf("K7 fits nothing: penalties %v", p)
	}
	rg.ok(rg.draw(0)) // Y6
	rg.ok(rg.discard(0, "Y6"))
	rg.ok(rg.draw(1))
	if m := rg.g().Melds()[3]; !rg.g().IsOkeySlot(m.Tiles[2]) {
		t.Fatalf("meld 3 %+v", m)
	}
}

// TestSwap101: an okey on the table is replaced by the tile it stands for
// (after opening; swap-before-open allows it before; no-joker-swap never).
func TestSwap101(t *testing.T) {
	for _, c := range []struct {
		rules  string
		before error // seat 0 unopened
		after  error // seat 0 opened
	}{
		{"101", ErrNotOpened, nil},
		{"101:swap-before-open", nil, nil},
		{"101:no-joker-swap", ErrSwap, ErrSwap},
	} {
		rg := newRig101(t, c.rules, 2, 0, deal101{
			racks:     []string{"Y8 B3 Y13 R9 " + pairs5a, open128 + " B1 B2 Y2 K1 K2 K3 R5 Y5 K5 FJ"},
			indicator: "Y1", bank: "Y9 Y7 Y6 Y5"})
		rg.ok(rg.discard(0, "Y8"))
		rg.ok(rg.draw(1))
		rg.ok(rg.lay(1, layOpen+" | B1 B2 Y2=B3"))
		rg.ok(rg.discard(1, "Y9"))
		rg.ok(rg.draw(0))
		sw := rg.swap(0, 3, 2, "B3")
		if c.before != nil {
			rg.refused(sw, c.before)
		} else {
			rg.ok(sw)
			if !slices.ContainsFunc(rg.g().Rack(0), rg.g().IsOkeySlot) {
				t.Fatalf("%s: the okey did not come to the rack", c.rules)
			}
			continue
		}
		rg.ok(rg.lay(0, layPairA))
		if c.after != nil {
			rg.refused(rg.swap(0, 3, 2, "B3"), c.after)
			continue
		}
		rg.refused(rg.swap(0, 3, 2, "Y13"), ErrSwap)
		rg.refused(rg.swap(0, 3, 0, "B3"), ErrSwap)
		rg.ok(rg.swap(0, 3, 2, "B3"))
		if m := rg.g().Melds()[3]; rg.deck[m.Tiles[2]] != MustParseFaces("B3")[0] {
			t.Fatalf("meld 3 %+v", m)
		}
		// The okey is in seat 0's rack; discarding it costs 101.
		rg.ok(rg.discard(0, "Y2"))
		if p := rg.g().Penalties(); len(p) != 1 || p[0].Kind != PenaltyJokerDiscard {
			t.Fatalf("penalties %v", p)
		}
	}
}

// TestFits101: which discards cost 101 for fitting a meld on the table.
func TestFits101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8", open128 + " B1 B2 Y2 K1 K2 K3 R5 Y5 K5 FJ"},
		indicator: "Y1", bank: "Y9"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layOpen+" | B1 B2 Y2=B3 | R5 Y5 K5"))
	g := rg.g()
	for _, c := range []struct {
		tile string
		fits bool
	}{
		{"R9", true}, {"B9", true}, {"K10", true}, {"B4", true}, {"B3", true}, // B3 replaces the okey
		{"B5", true}, {"R8", false}, {"K13", false}, {"R1", false}, {"Y5", false}, {"FJ", false}, {"Y2", false},
		{"Y12", false}, {"R6", false},
	} {
		f := MustParseFaces(c.tile)[0]
		if got := g.Fits(f); got != c.fits {
			t.Errorf("Fits(%s) = %v, want %v", c.tile, got, c.fits)
		}
		if add, swap := g.AddTargets(f); (len(add)+len(swap) > 0) != c.fits {
			t.Errorf("AddTargets(%s) = %v %v", c.tile, add, swap)
		}
	}
	if add, swap := g.AddTargets(MustParseFaces("B3")[0]); len(add) != 0 || !slices.Equal(swap, []int{3}) {
		t.Errorf("AddTargets(B3) = %v %v, want a swap in meld 3", add, swap)
	}
	if add, _ := g.AddTargets(MustParseFaces("B9")[0]); !slices.Equal(add, []int{1}) {
		t.Errorf("AddTargets(B9) = %v, want meld 1", add)
	}
}

// TestNoSwapPenalty101: swapping an okey off the table and the penalty for
// discarding a tile that could do it are not in the text (protocol.md 3.6,
// swap-discard-penalty): by default such a discard is an addable discard,
// as players expect; no-swap-penalty fines only tiles that extend a set or
// run, and the swap itself stays allowed.
func TestNoSwapPenalty101(t *testing.T) {
	for _, c := range []struct {
		rules     string
		b3, b9    bool // B3 replaces the okey in B1 B2 Y2=B3; B9 extends R9/B9's meld
		swapMelds []int
	}{
		{"101", true, true, []int{3}},
		{"101:no-swap-penalty", false, true, []int{3}},
		{"101:no-joker-swap", false, true, nil},
	} {
		rg := newRig101(t, c.rules, 2, 0, deal101{racks: []string{"Y8", open128 + " B1 B2 Y2 K1 K2 K3 R5 Y5 K5 FJ"},
			indicator: "Y1", bank: "Y9"})
		rg.ok(rg.discard(0, "Y8"))
		rg.ok(rg.draw(1))
		rg.ok(rg.lay(1, layOpen+" | B1 B2 Y2=B3 | R5 Y5 K5"))
		g := rg.g()
		b3, b9 := MustParseFaces("B3")[0], MustParseFaces("B9")[0]
		if g.Fits(b3) != c.b3 || g.Fits(b9) != c.b9 {
			t.Errorf("%s: Fits(B3) = %v, Fits(B9) = %v; want %v, %v", c.rules, g.Fits(b3), g.Fits(b9), c.b3, c.b9)
		}
		if _, swap := g.AddTargets(b3); !slices.Equal(swap, c.swapMelds) {
			t.Errorf("%s: B3 swaps into melds %v, want %v", c.rules, swap, c.swapMelds)
		}
	}
}

// TestRuleset101 parses the preset's options and their canonical form.
func TestRuleset101(t *testing.T) {
	r := MustRuleset("101", "")
	if r.Rounds != Default101Rounds || r.HandSize != 21 || r.MinPlayers != 2 || r.MaxPlayers != 4 {
		t.Fatalf("%+v", r)
	}
	for _, s := range []string{"101", "101:rounds=3", "101:rounds=11", "101:partnerships,rounds=7,timer=30",
		"101:finish-joker-penalty,joker-finish-single-sums,no-cancel,no-joker-doubles,no-joker-swap,unopened-joker-penalty",
		"101:finish-joker-penalty,joker-finish-single-sums,no-cancel,no-joker-doubles,no-swap-penalty,swap-before-open,unopened-joker-penalty",
		"101:cancels=1", "101:cancels=9,okey-face-value", "101:doubles-finisher-single,okey-face-value,rounds=3"} {
		r, err := ParseRuleset(s)
		if err != nil || r.String() != s {
			t.Errorf("%q: %v, canonical %q", s, err, r.String())
		}
	}
	for _, s := range []string{"101:rounds=4", "101:rounds=13", "101:rounds=05", "101:one-colour=any", "101:rounds=3,rounds=3",
		"101:no-cancel=1", "101:strokes", "101:points=5",
		"101:cancels=0", "101:cancels=10", "101:cancels=03", "101:cancels", "101:cancels=2,no-cancel", "101:okey-face-value=1"} {
		if _, err := ParseRuleset(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	// cancels=3 is the default: read, and written as 101.
	if r, err := ParseRuleset("101:cancels=3"); err != nil || r.String() != "101" || r != MustRuleset("101", "") {
		t.Errorf("101:cancels=3: %v, canonical %q", err, r.String())
	}
	if err := MustRuleset("101", "partnerships").CheckPlayers(3); err == nil {
		t.Error("partnerships with 3 players")
	}
}

// TestView101: a seat's view knows its own rack and the public faces.
func TestView101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8"}, indicator: "Y1", bank: "Y9"})
	v := NewView(1)
	for _, s := range rg.g().Rack(1) {
		v.Learn(s, rg.deck[s])
	}
	slots, faces := v.Rack(rg.g())
	if len(slots) != 21 || slices.Contains(faces, NoFace) {
		t.Fatalf("rack %v %v", slots, faces)
	}
	rg.ok(rg.discard(0, "Y8"))
	pile := rg.g().Pile(0)
	if v.Face(rg.g(), pile[0]) != MustParseFaces("Y8")[0] || v.Face(rg.g(), rg.g().Rack(0)[0]) != NoFace {
		t.Fatal("view: public or private faces wrong")
	}
}

// TestCancelsOption101: cancels=N cancels at most N all-doubles rounds in a
// row (the text replays every one; okey's default stops at 3): the hand
// dealt after N cancellations is played on.
func TestCancelsOption101(t *testing.T) {
	d := deal101{racks: []string{"Y8 R2 R2 Y10 Y10 B4 B4 K7 K7 R6 R6 Y2", pairs5a + " " + pairs5b + " R9"},
		indicator: "Y1", bank: "Y5 K2 Y3"}
	for _, c := range []struct {
		rules string
		max   int
	}{{"101", 3}, {"101:cancels=1", 1}, {"101:cancels=5", 5}, {"101:cancels=9", 9}, {"101:no-cancel", 0}} {
		rg := newRig101(t, c.rules, 2, 0, d)
		for k := 0; ; k++ {
			rg.ok(rg.discard(0, "Y2"))
			rg.ok(rg.draw(1))
			rg.ok(rg.lay(1, layPairA))
			rg.ok(rg.discard(1, "Y5"))
			rg.ok(rg.draw(0))
			rg.ok(rg.lay(0, "R2 R2 | Y10 Y10 | B4 B4 | K7 K7 | R6 R6"))
			if k == c.max {
				if rg.g().Phase() != Phase101Play {
					t.Fatalf("%s: after %d cancellations the round must go on: phase %v", c.rules, k, rg.g().Phase())
				}
				break
			}
			if res := rg.result(); res.End != EndCancelled {
				t.Fatalf("%s: hand %d not cancelled: %+v", c.rules, k, res)
			}
			if err := rg.m.NextHand(); err != nil {
				t.Fatal(err)
			}
			rg.setDeck(d)
		}
	}
}

// TestDoublesAndSetsApart101: "If you open with doubles you are not allowed
// to lay normal sets anymore" (a set or a run), and okey's converse: a
// player who opened with sets and runs lays no doubles. Both may add to
// others' sets and runs.
func TestDoublesAndSetsApart101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8 " + open128 + " R5 Y5 K5 B9 B9", pairs5a + " B5 K5 R5 K9 K10 K11 B2 B2"},
		indicator: "Y1", bank: "Y9 Y7 K2"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1)) // Y9
	rg.ok(rg.lay(1, layPairA))
	rg.refused(rg.lay(1, "B5 K5 R5"), ErrMeld)   // a doubles opener lays no sets
	rg.refused(rg.lay(1, "K9 K10 K11"), ErrMeld) // nor runs
	rg.refused(rg.lay(1, "B2 B2 | K9 K10 K11"), ErrMeld)
	rg.ok(rg.lay(1, "B2 B2")) // more doubles are fine
	rg.ok(rg.discard(1, "Y9"))
	rg.ok(rg.draw(0)) // Y7
	rg.ok(rg.lay(0, "R10 R11 R12 R13 | B10 B11 B12 B13 | K11 K12 K13"))
	rg.refused(rg.lay(0, "B9 B9"), ErrMeld) // a sets opener lays no doubles
	rg.ok(rg.lay(0, "R5 Y5 K5"))
	rg.ok(rg.discard(0, "Y7"))
	rg.ok(rg.draw(1))         // K2
	rg.ok(rg.add(1, 9, "B5")) // a doubles opener adds to others' sets
	if m := rg.g().Melds()[9]; len(m.Tiles) != 4 {
		t.Fatalf("meld 9 %+v", m)
	}
}
