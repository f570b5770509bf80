package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// greedyAction is a simple greedy player over the engine's own analysis (the
// bot package's players cannot be imported here): it shows when it may, takes
// a discard that joins a group, wins whenever it can, and otherwise discards
// the loose tile with the fewest neighbours.
func greedyAction(h *Hand, d *dealer, v *View, rng *rand.Rand) Action {
	need := h.Need()
	switch need.Kind {
	case ActRoll:
		return Action{Kind: ActRoll, Value: 1 + rng.IntN(6)}
	case ActReveal:
		return Action{Kind: ActReveal, Faces: d.open(need.Slots...)}
	}
	seat, drawn := h.Turn()
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
		if from := h.LastDiscard(); from >= 0 {
			p := h.Pile(from)
			top := h.PublicFace(p[len(p)-1])
			_, restBefore := Arrange(h.okey, faces, false)
			_, restAfter := Arrange(h.okey, append(append([]Face(nil), faces...), top), false)
			if top == h.okey || len(restAfter) <= len(restBefore) || h.StockLen() == 0 {
				return Action{Kind: ActTake, Seat: seat}
			}
		}
		if h.StockLen() == 0 {
			return Action{Kind: ActExhaust, Seat: seat}
		}
		return Action{Kind: ActDraw, Seat: seat}
	}
	if a, ok := anyWin(h, v, slots); ok {
		return a
	}
	_, rest := Arrange(h.okey, faces, false)
	pick, best := -1, 1<<30
	for i, f := range faces {
		if f == h.okey {
			continue
		}
		loose := false
		for _, r := range rest {
			loose = loose || r == f
		}
		cost := neighbours(h.okey, faces, f)
		if !loose {
			cost += 100
		}
		if cost < best || cost == best && rng.IntN(2) == 0 {
			pick, best = i, cost
		}
	}
	if pick < 0 {
		pick = 0
	}
	return Action{Kind: ActDiscard, Seat: seat, Slot: slots[pick], Faces: []SlotFace{{slots[pick], faces[pick]}}}
}

// neighbours counts the tiles of hand that could share a group with f.
func neighbours(okey Face, hand []Face, f Face) int {
	plain := func(x Face) Face {
		if x == FalseJoker {
			return okey
		}
		return x
	}
	pf, c := plain(f), 0
	for _, x := range hand {
		px := plain(x)
		if x == okey {
			c += 2
			continue
		}
		if px == pf {
			continue
		}
		if px.Number() == pf.Number() || px.Colour() == pf.Colour() && (px.Number()-pf.Number())*(px.Number()-pf.Number()) <= 4 {
			c++
		}
	}
	return c
}

// matchLog counts what a played match did.
type matchLog struct {
	hands, scoring, stalemates int
}

// playGreedy plays a match with greedy seats until it ends or maxHands hands
// are played. After every hand it checks that a match with a single side
// left is over.
func playGreedy(t *testing.T, r Ruleset, n int, seed uint64, maxHands int) (*Match, matchLog) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	m, err := NewMatch(r, n, rng.IntN(n))
	if err != nil {
		t.Fatalf("%s n=%d: %v", r, n, err)
	}
	var lg matchLog
	for lg.hands < maxHands && !m.Over() {
		if lg.hands > 0 {
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
			if steps > 3000 {
				t.Fatalf("%s: hand does not end", r)
			}
			h := m.Hand()
			seat, _ := h.Turn()
			var v *View
			if seat >= 0 {
				v = views[seat]
			}
			a := greedyAction(h, d, v, rng)
			if err := m.Apply(a); err != nil {
				t.Fatalf("%s: %v refused: %v", r, a.Kind, err)
			}
			if h.Phase() >= PhasePlay {
				for _, v := range views {
					for _, s := range h.Rack(v.Seat) {
						v.Learn(s, d.face(s))
					}
				}
			}
		}
		settleHand(t, m, d)
		lg.hands++
		res := m.results[len(m.results)-1]
		if res.Winner >= 0 {
			lg.scoring++
		} else {
			lg.stalemates++
		}
		if m.sides() < 2 && !m.Over() {
			t.Fatalf("%s n=%d: one side left (%v) and the match goes on", r, n, m.active)
		}
	}
	return m, lg
}

// settleHand settles the finished hand with the dealer's faces, as the
// table does after the audit.
func settleHand(t *testing.T, m *Match, d *dealer) {
	t.Helper()
	dealt := make([][]Face, m.n)
	for s := range dealt {
		for _, sl := range m.Hand().Dealt(s) {
			dealt[s] = append(dealt[s], d.face(sl))
		}
	}
	if err := m.Settle(dealt); err != nil {
		t.Fatalf("settle: %v", err)
	}
}

// everyRuleset lists rulesets the parser accepts, covering the cross product
// of every option that bears on how a match ends (partnerships,
// leave-at-zero, stalemate-show, no-gosterme, others-lose, strokes, rounds),
// each with a small and the default number of points, and rotating the
// options that do not (one-colour, indicator-last, deal, timer) through
// their values. Every entry must parse.
func everyRuleset(t *testing.T) []Ruleset {
	t.Helper()
	type choice []string // "" for absent
	cross := func(lists ...choice) [][]string {
		out := [][]string{nil}
		for _, l := range lists {
			var next [][]string
			for _, o := range out {
				for _, c := range l {
					e := append(append([]string(nil), o...), c)
					next = append(next, e)
				}
			}
			out = next
		}
		return out
	}
	others := []string{"one-colour=any", "indicator-last", "deal=simple", "one-colour=red-black,timer=30", ""}
	var specs []string
	k := 0
	add := func(preset string, opts []string) {
		var keep []string
		for _, o := range opts {
			if o != "" {
				keep = append(keep, o)
			}
		}
		specs = append(specs, preset+":"+strings.Join(keep, ","))
	}
	for _, o := range cross(choice{"", "partnerships"}, choice{"", "leave-at-zero"}, choice{"", "stalemate-show"},
		choice{"", "no-gosterme"}, choice{"points=2", "points=5", ""}) {
		add("classic", append(o, others[k%len(others)]))
		k++
	}
	for _, o := range cross(choice{"", "no-partnerships"}, choice{"", "leave-at-zero"}, choice{"", "others-lose"},
		choice{"", "rounds=3"}, choice{"points=2", ""}) {
		add("german", o)
	}
	for _, o := range cross(choice{"", "no-partnerships"}, choice{"strokes", "strokes,rounds=2"}) {
		add("german", o)
	}
	for _, o := range cross(choice{"rounds=1", ""}, choice{"", "timer=5"}) {
		add("turkish-rummy", o)
	}
	var out []Ruleset
	for _, s := range specs {
		p, o, _ := strings.Cut(s, ":")
		if p == "classic" && strings.Contains(o, "no-gosterme") && strings.Contains(o, "stalemate-show") {
			continue // a contradictory pair (protocol.md 3.1): refused
		}
		r, err := NewRuleset(p, o)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		out = append(out, r)
	}
	return out
}

// scoringBound is the most hands with a winner a match of r with n seats can
// take: a fixed number of rounds, or (count-down) every such hand takes at
// least one point from an account still above 0.
func scoringBound(r Ruleset, n int) int {
	b := 1 << 30
	if r.Rounds > 0 {
		b = r.Rounds
	}
	if (r.Scoring == CountDown || r.Scoring == WinnerCountDown) && n*r.StartScore < b {
		b = n * r.StartScore
	}
	return b
}

// TestEveryRulesetEnds is the termination property: for every ruleset the
// parser accepts (see everyRuleset) and every allowed number of seats, a
// match of greedy seats ends within scoringBound hands with a winner, with
// stalemates (which score nothing) bounded separately by a generous cap, and
// a match with a single side left is over at once.
func TestEveryRulesetEnds(t *testing.T) {
	lane.NoRace(t) // the engine is pure: no goroutine
	const stalemateCap = 40
	seed := uint64(1)
	big := 0
	for _, r := range everyRuleset(t) {
		for n := r.MinPlayers; n <= r.MaxPlayers; n++ {
			if r.CheckPlayers(n) != nil {
				continue
			}
			seed++
			// Default (20-point) count-down matches are the longest: under
			// the race detector, play a sample of them.
			if r.StartScore >= 20 && r.Rounds == 0 {
				if big++; big%(raceScale*raceScale) != 0 {
					continue
				}
			}
			bound := scoringBound(r, n)
			if bound > 1000 {
				t.Fatalf("%s n=%d: no bound on the match's length", r, n)
			}
			m, lg := playGreedy(t, r, n, seed, bound+stalemateCap+1)
			if !m.Over() {
				t.Fatalf("%s n=%d: not over after %d hands (%d with a winner, bound %d; %d stalemates); scores %v",
					r, n, lg.hands, lg.scoring, bound, lg.stalemates, m.Scores())
			}
			if lg.scoring > bound || lg.stalemates > stalemateCap {
				t.Fatalf("%s n=%d: %d hands with a winner (bound %d), %d stalemates", r, n, lg.scoring, bound, lg.stalemates)
			}
			checkScores(t, m)
		}
	}
}

// TestLeaveAtZeroPartnershipsEnds: issue 12 defect 1. When one team reaches
// 0 and leaves, the partners left play on only against each other: the
// match must end, since one side is left.
func TestLeaveAtZeroPartnershipsEnds(t *testing.T) {
	for _, spec := range []string{"classic:leave-at-zero,partnerships,points=1", "classic:leave-at-zero,partnerships",
		"german:leave-at-zero,points=1", "german:leave-at-zero,others-lose,points=1"} {
		r, err := ParseRuleset(spec)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 3; seed++ {
			m, lg := playGreedy(t, r, 4, 100+seed, 60)
			if !m.Over() {
				t.Fatalf("%s: not over after %d hands; scores %v, active %v", spec, lg.hands, m.Scores(), m.active)
			}
			if m.sides() != 1 {
				t.Fatalf("%s: over with %d sides left", spec, m.sides())
			}
		}
	}
}

func ExampleMatch_Ranking() {
	r := MustRuleset("turkish-rummy", "rounds=1")
	m, _ := NewMatch(r, 3, 0)
	copy(m.scores, []int{20, 40, 30})
	for _, st := range m.Ranking() {
		fmt.Println(st.Place, st.Seat, st.Score, st.Prize)
	}
	// Output:
	// 1 0 20 true
	// 2 2 30 true
	// 3 1 40 false
}
