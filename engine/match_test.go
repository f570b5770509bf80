package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// play drives a match with a mix of random and greedy seats, as a property
// test: every action either applies or is refused without a change, and the
// invariants hold after every step.
type player struct{}

func checkInvariants(t *testing.T, m *Match) {
	t.Helper()
	h := m.Hand()
	if h.Phase() < PhasePlay {
		return
	}
	var seen [DeckSize]int
	mark := func(s Slot) {
		if int(s) >= DeckSize {
			t.Fatalf("slot %d out of range", s)
		}
		seen[s]++
	}
	for _, s := range h.stock {
		mark(s)
	}
	for seat := 0; seat < m.n; seat++ {
		for _, s := range h.racks[seat] {
			mark(s)
		}
		for _, s := range h.piles[seat] {
			mark(s)
		}
	}
	if !h.rules.IndicatorLast {
		mark(h.indicator) // with indicator-last it is in the stock or a rack
	}
	if h.middle != NoSlot {
		mark(h.middle)
	}
	for s, c := range seen {
		if c != 1 {
			t.Fatalf("slot %d is in %d places (hand %d, turn %d)", s, c, m.hands, h.turns)
		}
	}
	cur, drawn := h.Turn()
	for _, seat := range h.seats {
		want := h.rules.HandSize
		if seat == cur && drawn {
			want++
		}
		if h.phase == PhaseOver && seat == h.result.Winner && h.middle != NoSlot {
			want = h.rules.HandSize
		}
		if h.phase != PhaseOver && len(h.racks[seat]) != want {
			t.Fatalf("seat %d holds %d tiles, want %d", seat, len(h.racks[seat]), want)
		}
	}
}

func playMatch(t *testing.T, rules Ruleset, n int, seed uint64, maxHands int) *Match {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	m, err := NewMatch(rules, n, rng.IntN(n))
	if err != nil {
		t.Fatal(err)
	}
	// Seats play randomly; the bot package plays these rules greedily.
	players := make([]player, n)
	for hands := 0; hands < maxHands && !m.Over(); hands++ {
		if hands > 0 {
			if err := m.NextHand(); err != nil {
				t.Fatal(err)
			}
		}
		d := newDealer(rng)
		views := make([]*View, n)
		for i := range views {
			views[i] = NewView(i)
		}
		for steps := 0; m.Hand().Phase() != PhaseOver; steps++ {
			if steps > 2000 {
				t.Fatal("hand does not end")
			}
			h := m.Hand()
			a := chooseAction(h, d, views, players, rng)
			before := m.Hash()
			// A random illegal action first: it must change nothing.
			bad := Action{Kind: ActDiscard, Seat: (a.Seat + 1) % n, Slot: Slot(rng.IntN(DeckSize))}
			if err := m.Apply(bad); err == nil {
				t.Fatalf("illegal %+v accepted", bad)
			} else if m.Hash() != before {
				t.Fatalf("refused action changed the state")
			}
			if err := m.Apply(a); err != nil {
				t.Fatalf("hand %d: legal action %v refused: %v", hands, a.Kind, err)
			}
			if m.Hash() == before && a.Kind != ActReveal {
				t.Fatalf("action %v did not change the state hash", a.Kind)
			}
			// Every seat learns its own tiles as the table would open them.
			if h.Phase() >= PhasePlay {
				for _, v := range views {
					for _, s := range h.Rack(v.Seat) {
						v.Learn(s, d.face(s))
					}
				}
			}
			checkInvariants(t, m)
		}
	}
	return m
}

func chooseAction(h *Hand, d *dealer, views []*View, players []player, rng *rand.Rand) Action {
	need := h.Need()
	switch need.Kind {
	case ActRoll:
		return Action{Kind: ActRoll, Value: 1 + rng.IntN(6)}
	case ActReveal:
		return Action{Kind: ActReveal, Faces: d.open(need.Slots...)}
	}
	seat, drawn := h.Turn()
	v := views[seat]
	slots, faces := v.Rack(h)
	if !drawn {
		if h.CanShow(seat) {
			_, ind := h.Indicator()
			for i, f := range faces {
				if f == ind {
					return Action{Kind: ActShow, Seat: seat, Slot: slots[i], Faces: []SlotFace{{slots[i], f}}}
				}
			}
		}
		if h.LastDiscard() >= 0 && rng.IntN(4) == 0 {
			return Action{Kind: ActTake, Seat: seat}
		}
		if h.StockLen() == 0 {
			return Action{Kind: ActExhaust, Seat: seat}
		}
		return Action{Kind: ActDraw, Seat: seat}
	}
	if a, ok := anyWin(h, v, slots); ok {
		return a
	}
	pick := slots[rng.IntN(len(slots))]
	return Action{Kind: ActDiscard, Seat: seat, Slot: pick, Faces: []SlotFace{{pick, v.Face(h, pick)}}}
}

func TestRandomMatchesKeepInvariants(t *testing.T) {
	lane.NoRace(t) // the engine is pure: no goroutine
	presets := []string{"classic", "classic:partnerships,one-colour=any", "classic:deal=simple,indicator-last",
		"classic:leave-at-zero", "turkish-rummy", "turkish-rummy:rounds=1", "german", "german:strokes,rounds=3"}
	games := 3
	if testing.Short() {
		games = 1
	}
	for _, p := range presets {
		r, err := ParseRuleset(p)
		if err != nil {
			t.Fatal(err)
		}
		for n := r.MinPlayers; n <= r.MaxPlayers; n++ {
			if r.CheckPlayers(n) != nil {
				continue
			}
			for g := 0; g < games; g++ {
				m := playMatch(t, r, n, uint64(1000*n+g), 12)
				checkScores(t, m)
			}
		}
	}
}

// checkScores recomputes every seat's score from the hand results with the
// rule texts' arithmetic, independently of Match.Deltas.
func checkScores(t *testing.T, m *Match) {
	t.Helper()
	r := m.rules
	n := m.n
	want := make([]int, n)
	for i := range want {
		want[i] = r.StartScore
	}
	team := func(a, b int) bool { return a == b || r.Teams(n) && (a+2)%4 == b }
	active := make([]bool, n)
	for i := range active {
		active[i] = true
	}
	for _, res := range m.results {
		pts := 0
		if res.Winner >= 0 {
			switch {
			case r.Preset == "classic":
				pts = 2
				if res.Kind == Pairs {
					pts = 4
				}
				if res.OkeyDiscard {
					pts *= 2
				}
				if res.OneColour != NumColours && r.OneColour == OneColourAny {
					pts *= 2
				}
			case r.Preset == "turkish-rummy":
				pts = 20
				if res.Kind == Pairs || res.OkeyDiscard {
					pts = 40
				}
			case r.Scoring == Strokes:
				pts = 1
				if res.Kind == Pairs || res.OkeyDiscard {
					pts = 2
				}
			default:
				pts = 2
				if res.Kind == Pairs || res.OkeyDiscard {
					pts = 4
				}
			}
		}
		for s := 0; s < n; s++ {
			if !active[s] {
				continue
			}
			switch r.Scoring {
			case CountDown:
				if res.Winner >= 0 && !team(s, res.Winner) {
					want[s] -= pts
				}
				// classic: a hand with no winner gives no score, its
				// gösterme included (unless stalemate-show); german's
				// others-lose keeps the show it made at the start.
				if res.Winner >= 0 || r.StalemateShow {
					for _, sh := range res.Shown {
						if !team(s, sh) {
							want[s]--
						}
					}
				}
			case Penalty:
				if res.Winner < 0 {
					want[s] += 10
				} else if s != res.Winner {
					want[s] += pts
				}
				if len(res.Shown) != 0 {
					t.Fatalf("turkish-rummy: a gösterme by showing %v", res.Shown)
				}
				if res.Upcard >= 0 && s != res.Upcard {
					want[s] += 10
				}
			case WinnerCountDown:
				if res.Winner >= 0 && team(s, res.Winner) {
					want[s] -= pts
				}
				for _, sh := range res.Shown {
					if team(s, sh) {
						want[s]--
					}
				}
			case Strokes:
				if res.Winner >= 0 && team(s, res.Winner) {
					want[s] += pts
				}
			}
		}
		if r.LeaveAtZero {
			for s := range active {
				if want[s] <= 0 {
					active[s] = false
				}
			}
		}
	}
	if !slices.Equal(want, m.Scores()) {
		t.Fatalf("%s n=%d: scores %v, recomputed %v", r, n, m.Scores(), want)
	}
	if r.Teams(n) {
		sc := m.Scores()
		if sc[0] != sc[2] || sc[1] != sc[3] {
			t.Fatalf("partners differ: %v", sc)
		}
	}
	rank := m.Ranking()
	if len(rank) != n {
		t.Fatalf("ranking has %d seats", len(rank))
	}
}

func TestMatchEndsAtZero(t *testing.T) {
	r := MustRuleset("classic", "")
	m, _ := playGreedy(t, r, 2, 7, 200)
	if !m.Over() {
		t.Fatalf("classic 2-player match did not end in 200 hands; scores %v", m.Scores())
	}
	low := false
	for _, s := range m.Scores() {
		low = low || s <= 0
	}
	if !low {
		t.Fatalf("match over without a score at 0: %v", m.Scores())
	}
	if m.Ranking()[0].Score < m.Ranking()[1].Score {
		t.Fatalf("ranking not by score: %v", m.Ranking())
	}
}

func TestRulesetOptionsRoundTrip(t *testing.T) {
	for _, s := range []string{"classic", "classic:indicator-last,leave-at-zero,one-colour=red-black",
		"classic:deal=simple,partnerships", "turkish-rummy:rounds=1", "german:strokes", "german:no-partnerships,rounds=7",
		"classic:points=4", "german:points=6,rounds=3", "classic:timer=30", "turkish-rummy:rounds=1,timer=600",
		"classic:stalemate-show", "classic:no-gosterme,partnerships", "german:leave-at-zero", "german:others-lose",
		"german:leave-at-zero,no-partnerships,others-lose,points=9,rounds=12", "german:rounds=99"} {
		r, err := ParseRuleset(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if r.String() != s {
			t.Errorf("%s: String() = %s", s, r.String())
		}
		r2, _ := ParseRuleset(r.String())
		if r2 != r {
			t.Errorf("%s: round trip differs", s)
		}
	}
	for _, bad := range []string{"poker", "classic:rounds=3", "turkish-rummy:rounds=2", "classic:one-colour=green", "turkish-rummy:leave-at-zero", "classic:bogus",
		// one strict integer parser for rounds, points and timer
		"german:rounds=+5", "german:rounds=05", "german:rounds=0", "german:rounds=100", "german:rounds=", "turkish-rummy:rounds=01",
		"german:stalemate-show", "german:no-gosterme", "classic:others-lose", "german:others-lose,strokes", "german:leave-at-zero,strokes",
		"turkish-rummy:no-gosterme", "classic:stalemate-show=1",
		"classic:points=0", "classic:points=100", "classic:points=04", "german:points=5,strokes", "turkish-rummy:points=5",
		"classic:timer=4", "classic:timer=601", "classic:timer=x", "classic:timer"} {
		if _, err := ParseRuleset(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// anyWin returns a winning action the seat can declare now, if any: seven
// pairs without a discard where the rules allow it, else a win discarding
// one of slots.
func anyWin(h *Hand, v *View, slots []Slot) (Action, bool) {
	if h.rules.PairsNoDiscard {
		if a, ok := v.WinAction(h, NoSlot); ok {
			return a, true
		}
	}
	for _, s := range slots {
		if a, ok := v.WinAction(h, s); ok {
			return a, true
		}
	}
	return Action{}, false
}
