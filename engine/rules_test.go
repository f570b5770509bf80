package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// scripted deals a hand of a linear deal (classic deal=simple, or
// turkish-rummy after an order draw that seats play in seat order) with the
// given racks, in order of play (the first rack has 15 tiles), and the
// indicator. Seat 0 plays first.
func scripted(t *testing.T, spec string, racks []string, indicator string) (*Match, *dealer, []*View) {
	t.Helper()
	r, err := ParseRuleset(spec)
	if err != nil {
		t.Fatal(err)
	}
	n := len(racks)
	want := map[Slot]Face{}
	next := Slot(0)
	for i, rk := range racks {
		fs := MustParseFaces(rk)
		if len(fs) != r.HandSize+boolInt(i == 0) {
			t.Fatalf("rack %d has %d tiles", i, len(fs))
		}
		for _, f := range fs {
			want[next] = f
			next++
		}
	}
	want[next] = MustParseFaces(indicator)[0]
	if r.Deal == DealDrawOrder {
		for i := 0; i < n; i++ { // seat i draws slot 105-i: Y13, Y12, ...
			want[Slot(DeckSize-1-i)] = NewFace(Yellow, 13-i)
		}
	}
	d := &dealer{}
	d.setFaces(t, want)
	m, err := NewMatch(r, n, n-1) // the dealer's right is seat 0
	if err != nil {
		t.Fatal(err)
	}
	settle(t, m, d)
	if got := m.Hand().Order(); got[0] != 0 {
		t.Fatalf("order of play %v", got)
	}
	views := make([]*View, n)
	for i := range views {
		views[i] = NewView(i)
		for _, s := range m.Hand().Rack(i) {
			views[i].Learn(s, d.face(s))
		}
	}
	return m, d, views
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// slotOf returns the slot of a face in seat's rack.
func slotOf(t *testing.T, m *Match, d *dealer, seat int, face string) Slot {
	t.Helper()
	f := MustParseFaces(face)[0]
	for _, s := range m.Hand().Rack(seat) {
		if d.face(s) == f {
			return s
		}
	}
	t.Fatalf("seat %d holds no %s", seat, face)
	return NoSlot
}

func win(t *testing.T, m *Match, v *View, discard Slot) error {
	t.Helper()
	a, _ := v.WinAction(m.Hand(), discard)
	if a.Kind == 0 {
		seat, _ := m.Hand().Turn()
		a = Action{Kind: ActWin, Seat: seat, Slot: discard}
		slots, faces := v.Rack(m.Hand())
		for i, s := range slots {
			a.Faces = append(a.Faces, SlotFace{s, faces[i]})
		}
	}
	return m.Apply(a)
}

const (
	// 14 tiles in groups (indicator K9: okey K10), plus a spare to discard.
	winner15 = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 R11 Y11 B11 K11 Y2"
	other14  = "R5 R6 Y8 Y9 B1 B2 B4 B5 K1 K2 K4 K5 R9 K7"
)

// The first player may win with its dealt 15 tiles before drawing (protocol
// 3.3: "having drawn" counts the deal's extra tile as the draw).
func TestFirstPlayerWinsWithDealtTiles(t *testing.T) {
	for _, spec := range []string{"classic:deal=simple", "turkish-rummy"} {
		m, d, v := scripted(t, spec, []string{winner15, other14}, "K9")
		discard := slotOf(t, m, d, 0, "Y2")
		if err := win(t, m, v[0], discard); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		res, _ := m.Hand().Result()
		if res.Winner != 0 || res.Kind != Groups {
			t.Fatalf("%s: result %+v", spec, res)
		}
		// turkish-rummy.txt gives the last tile to the player's own
		// pile; here, as in classic, it goes to the middle (no effect
		// on scores).
		if len(m.Hand().Pile(0)) != 0 || m.Hand().middle != discard {
			t.Fatalf("%s: final discard: pile %v, middle %d, want the middle", spec, m.Hand().Pile(0), m.Hand().middle)
		}
	}
}

// turkish-rummy.txt: "A set consists of 3 or more tiles of the same rank";
// the engine keeps classic's sets of 3-4 distinct colours, the 12-13-1 wrap
// and okeys in pairs for every preset.
func TestClassicGroupsInEveryPreset(t *testing.T) {
	cases := []struct {
		name, rack string
		ok         bool
	}{
		{"sets of distinct colours", winner15, true},
		{"a set with a repeated colour", "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 R11 R11 Y11 B11 K5", false},
		{"12-13-1 wraps", "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 K11 K12 K13 K1 Y2", true},
		{"13-1-2 does not", "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 K12 K13 K1 K2 Y2", false},
	}
	for _, spec := range []string{"classic:deal=simple", "turkish-rummy"} {
		for _, c := range cases {
			m, _, v := scripted(t, spec, []string{c.rack, other14}, "K9")
			ok := false
			for _, s := range m.Hand().Rack(0) {
				if _, w := v[0].WinAction(m.Hand(), s); w {
					ok = true
					if err := win(t, m, v[0], s); err != nil {
						t.Fatalf("%s %s: %v", spec, c.name, err)
					}
					break
				}
			}
			if ok != c.ok {
				t.Errorf("%s %s: wins = %v, want %v", spec, c.name, ok, c.ok)
			}
			if !ok {
				if err := win(t, m, v[0], m.Hand().Rack(0)[0]); !errors.Is(err, ErrNotWinning) {
					t.Errorf("%s %s: a false win: %v", spec, c.name, err)
				}
			}
		}
	}
}

// okey-classic.txt: gösterme "can only be claimed before the holder of the
// matching tile first draws a tile"; a holder whose first turn never comes
// (the first player wins at once) cannot claim it.
func TestGostermeNeedsTheHoldersTurn(t *testing.T) {
	m, d, v := scripted(t, "classic:deal=simple", []string{winner15, "R5 R6 Y8 Y9 B1 B2 B4 B5 K1 K2 K4 K5 R9 K9"}, "K9")
	twin := slotOf(t, m, d, 1, "K9")
	show := Action{Kind: ActShow, Seat: 1, Slot: twin, Faces: []SlotFace{{twin, d.face(twin)}}}
	if err := m.Apply(show); !errors.Is(err, ErrTurn) {
		t.Fatalf("show out of turn: %v", err)
	}
	if err := win(t, m, v[0], slotOf(t, m, d, 0, "Y2")); err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(show); err == nil {
		t.Fatal("show after the hand accepted")
	}
	if res, _ := m.Hand().Result(); len(res.Shown) != 0 {
		t.Fatalf("shown %v", res.Shown)
	}
	if got := m.Scores(); !slices.Equal(got, []int{20, 18}) {
		t.Fatalf("scores %v, want [20 18]", got)
	}
}

// drawToStalemate plays the hand out with every seat drawing and discarding
// the tile it drew (showing first when it may and shows is set), so the
// stock runs out with no winner.
func drawToStalemate(t *testing.T, m *Match, d *dealer, shows bool) {
	t.Helper()
	for m.Hand().Phase() != PhaseOver {
		h := m.Hand()
		seat, drawn := h.Turn()
		var a Action
		switch {
		case drawn:
			// discard the highest slot that is not the okey (the drawn
			// tile is usually it; any will do)
			rack := h.Rack(seat)
			s := rack[len(rack)-1]
			a = Action{Kind: ActDiscard, Seat: seat, Slot: s, Faces: []SlotFace{{s, d.face(s)}}}
		case shows && h.CanShow(seat):
			_, ind := h.Indicator()
			a = Action{Kind: ActDraw, Seat: seat}
			for _, s := range h.Rack(seat) {
				if d.face(s) == ind {
					a = Action{Kind: ActShow, Seat: seat, Slot: s, Faces: []SlotFace{{s, ind}}}
				}
			}
		case h.StockLen() == 0:
			a = Action{Kind: ActExhaust, Seat: seat}
		default:
			a = Action{Kind: ActDraw, Seat: seat}
		}
		if err := m.Apply(a); err != nil {
			t.Fatalf("%v: %v", a.Kind, err)
		}
	}
}

// okey-classic.txt: "If the game ends without any player exposing a winning
// hand ..., then there is no score": a gösterme in a stalemate scores
// nothing; the option stalemate-show keeps it. german deducts the show at
// once ("dann zeigt er ihn ... und ihm wird 1 Punkt ... abgezogen").
func TestStalemateGosterme(t *testing.T) {
	cases := []struct {
		spec  string
		delta int // what the show moves, for the seat that scores it
	}{
		{"classic", 0},
		{"classic:stalemate-show", -1},
		{"german", -1},
		{"german:others-lose", -1},
	}
	for _, c := range cases {
		r, err := ParseRuleset(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for seed := uint64(0); seed < 60 && !found; seed++ {
			rng := rand.New(rand.NewPCG(seed, 3))
			m, _ := NewMatch(r, 2, 0)
			d := newDealer(rng)
			settle(t, m, d, 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6), 1+rng.IntN(6))
			drawToStalemate(t, m, d, true)
			res, _ := m.Hand().Result()
			if res.Winner >= 0 || len(res.Shown) != 1 {
				continue
			}
			found = true
			sh := res.Shown[0]
			want := []int{r.StartScore, r.StartScore}
			if r.Scoring == WinnerCountDown {
				want[sh] += c.delta
			} else {
				want[1-sh] += c.delta
			}
			if got := m.Scores(); !slices.Equal(got, want) {
				t.Errorf("%s: stalemate with a gösterme by seat %d: scores %v, want %v", c.spec, sh, got, want)
			}
		}
		if !found {
			t.Fatalf("%s: no stalemate with one gösterme in 60 seeds", c.spec)
		}
	}
}

// dealtFaces returns every seat's dealt rack faces, as the audit reveals them.
func dealtFaces(m *Match, d *dealer) [][]Face {
	out := make([][]Face, m.n)
	for s := range out {
		for _, sl := range m.Hand().Dealt(s) {
			out[s] = append(out[s], d.face(sl))
		}
	}
	return out
}

// turkish-rummy.txt: "If one of the players has the exact tile in their hand
// during the draw, their opponents will all receive additional 10 penalty
// points at the end of that round regardless of who wins." The holder shows
// nothing: the audit reveals every dealt rack, and Settle applies the bonus.
func TestTurkishUpcardBonus(t *testing.T) {
	const (
		w     = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 R11 Y11 B11 K11 Y2"
		wTwin = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 B10 R11 Y11 B11 K11 K9" // wins by discarding the twin
		s1    = "R5 R6 Y8 Y9 B1 B2 B4 B5 K1 K2 K4 K5 R9 K7"
		s2    = "R7 R8 Y1 Y3 B3 B6 K3 K6 R12 R13 K8 B12 B13 K9" // holds the twin of K9
		s2not = "R7 R8 Y1 Y3 B3 B6 K3 K6 R12 R13 K8 B12 B13 Y2"
		s3    = "R4 R10 Y7 B1 B2 K1 K2 R5 R6 Y8 Y9 K4 K5 K7"
	)
	cases := []struct {
		name      string
		racks     []string
		stalemate bool
		before    []int // at the hand's end
		after     []int // after the audit
		holder    int
	}{
		{"a loser holds it", []string{w, s1, s2, s3}, false, []int{0, 20, 20, 20}, []int{10, 30, 20, 30}, 2},
		{"the winner holds it", []string{wTwin, s1, s2not, s3}, false, []int{0, 20, 20, 20}, []int{0, 30, 30, 30}, 0},
		{"nobody holds it", []string{w, s1, s2not, s3}, false, []int{0, 20, 20, 20}, []int{0, 20, 20, 20}, -1},
		{"a stalemate", []string{w, s1, s2, s3}, true, []int{10, 10, 10, 10}, []int{20, 20, 10, 20}, 2},
	}
	for _, c := range cases {
		m, d, v := scripted(t, "turkish-rummy", c.racks, "K9")
		if c.stalemate {
			// no gösterme by showing in turkish-rummy
			seat, _ := m.Hand().Turn()
			if err := m.Apply(Action{Kind: ActDiscard, Seat: seat, Slot: m.Hand().Rack(seat)[0],
				Faces: []SlotFace{{m.Hand().Rack(seat)[0], d.face(m.Hand().Rack(seat)[0])}}}); err != nil {
				t.Fatal(err)
			}
			if m.Hand().CanShow(1) {
				t.Fatalf("%s: turkish-rummy offers a gösterme", c.name)
			}
			drawToStalemate(t, m, d, false)
		} else {
			discard := slotOf(t, m, d, 0, MustParseFaces(c.racks[0])[14].String())
			if err := win(t, m, v[0], discard); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if got := m.Scores(); !slices.Equal(got, c.before) {
			t.Errorf("%s: scores at the hand's end %v, want %v", c.name, got, c.before)
		}
		if m.Settled() {
			t.Fatalf("%s: settled before the audit", c.name)
		}
		// Bad audit facts change nothing.
		before := m.Hash()
		bad := dealtFaces(m, d)
		bad[1] = bad[1][1:]
		if err := m.Settle(bad); !errors.Is(err, ErrBadAction) || m.Hash() != before {
			t.Fatalf("%s: short rack: %v", c.name, err)
		}
		if !c.stalemate {
			bad = dealtFaces(m, d)
			// seat 0's rack is open: a different face for one of its slots
			bad[0][0] = NewFace(Black, 12)
			if err := m.Settle(bad); !errors.Is(err, ErrFace) || m.Hash() != before {
				t.Fatalf("%s: face against the open rack: %v", c.name, err)
			}
		}
		if err := m.Settle(dealtFaces(m, d)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := m.Scores(); !slices.Equal(got, c.after) {
			t.Errorf("%s: scores after the audit %v, want %v", c.name, got, c.after)
		}
		res := m.Results()[0]
		if res.Upcard != c.holder {
			t.Errorf("%s: upcard holder %d, want %d", c.name, res.Upcard, c.holder)
		}
		if got := m.Deltas(res); !slices.Equal(got, c.after) {
			t.Errorf("%s: Deltas of the settled result %v, want %v", c.name, got, c.after)
		}
		if err := m.Settle(dealtFaces(m, d)); !errors.Is(err, ErrPhase) {
			t.Errorf("%s: settled twice: %v", c.name, err)
		}
	}
}

// A hand settles only once it is over.
func TestSettleNeedsAFinishedHand(t *testing.T) {
	m, d, _ := scripted(t, "turkish-rummy", []string{winner15, other14}, "K9")
	before := m.Hash()
	if err := m.Settle(dealtFaces(m, d)); !errors.Is(err, ErrPhase) || m.Hash() != before {
		t.Fatalf("settle in play: %v", err)
	}
}
