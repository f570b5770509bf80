package rating

import (
	"errors"
	"math"
	"testing"
)

// The reference values are OpenSkill's own test data for its PlackettLuce
// model: github.com/vivekjoshy/openskill.py, tests/models/data/plackettluce.json
// (last changed in commit 874ebc515aec99fdf0e06825229803cefe44e0ba, read at
// 65a675d21d9a0d5405731385e83be9aa781537ec), made by tests/models/generate.py
// and checked by test_rate in tests/models/weng_lin/test_plackett_luce.py:
// a model with the mu and sigma below and the default beta 25/6, kappa
// 0.0001 and tau 25/300, every player starting at the model's mu and sigma.
const (
	refMu    = 20.35125162611535
	refSigma = 8.33148112355601
)

func refModel() Model {
	m := Default()
	m.Mu, m.Sigma = refMu, refSigma
	return m
}

// sizes makes teams of new players of these sizes.
func sizes(m Model, n ...int) [][]Rating {
	var out [][]Rating
	for _, k := range n {
		var team []Rating
		for range k {
			team = append(team, m.New())
		}
		out = append(out, team)
	}
	return out
}

func TestRateReference(t *testing.T) {
	for _, c := range []struct {
		name  string
		teams []int
		ranks []int
		want  [][]Rating
	}{
		// "normal": model.rate(teams=[team_1, team_2]): the list order is
		// the ranking.
		{"normal", []int{1, 2}, []int{1, 2}, [][]Rating{
			{{23.855123082692877, 8.22447878583752}},
			{{16.84738016953782, 8.179571171464575}, {16.84738016953782, 8.179571171464575}},
		}},
		// "ranks": ranks=[2, 1, 4, 3].
		{"ranks", []int{1, 2, 1, 2}, []int{2, 1, 4, 3}, [][]Rating{
			{{22.35555943890167, 8.265434830225024}},
			{{22.373451456616035, 8.258479912445537}, {22.373451456616035, 8.258479912445537}},
			{{18.311159777900297, 8.219170401234347}},
			{{18.364835831043397, 8.112716571808326}, {18.364835831043397, 8.112716571808326}},
		}},
		// "ties": ranks=[1, 2, 1], teams of 1, 2 and 3 players.
		{"ties", []int{1, 2, 3}, []int{1, 2, 1}, [][]Rating{
			{{21.63766806988004, 8.310709773172306}},
			{{19.53956360838512, 8.268148437657915}, {19.53956360838512, 8.268148437657915}},
			{{19.87652320008089, 8.237522411103104}, {19.87652320008089, 8.237522411103104}, {19.87652320008089, 8.237522411103104}},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := refModel()
			got, err := m.Rate(sizes(m, c.teams...), c.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				for j, w := range c.want[i] {
					g := got[i][j]
					if !near(g.Mu, w.Mu) || !near(g.Sigma, w.Sigma) {
						t.Errorf("team %d player %d: got %v, OpenSkill %v", i, j, g, w)
					}
				}
			}
		})
	}
}

// near: equal to 1e-12 relative (the reference's printed digits are the
// float64 it computed; only the order of additions can differ).
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestRateProperties: what the model must do whatever the numbers: the
// winner gains and the loser loses, every sigma shrinks when tau is 0,
// tied equal players move alike, partners with equal ratings move alike,
// and the order of the teams in the call does not matter.
func TestRateProperties(t *testing.T) {
	m := Default()
	m.Tau = 0
	four := sizes(m, 1, 1, 1, 1)
	got, err := m.Rate(four, []int{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 4; i++ {
		if !(got[i-1][0].Mu > got[i][0].Mu) {
			t.Errorf("place %d (mu %v) not above place %d (mu %v)", i, got[i-1][0].Mu, i+1, got[i][0].Mu)
		}
	}
	if !(got[0][0].Mu > m.Mu && got[3][0].Mu < m.Mu) {
		t.Errorf("first %v, last %v: want above and below %v", got[0][0].Mu, got[3][0].Mu, m.Mu)
	}
	for i := range got {
		if !(got[i][0].Sigma < m.Sigma) {
			t.Errorf("place %d: sigma %v did not shrink", i+1, got[i][0].Sigma)
		}
	}
	// Two tied winners of equal rating move alike.
	tied, err := m.Rate(sizes(m, 1, 1, 1), []int{1, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if tied[0][0] != tied[1][0] {
		t.Errorf("tied equal players differ: %v %v", tied[0][0], tied[1][0])
	}
	// A partnership: both partners get the team's result.
	teams := [][]Rating{{m.New(), m.New()}, {m.New(), m.New()}}
	pair, err := m.Rate(teams, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if pair[0][0] != pair[0][1] || !(pair[0][0].Mu > m.Mu) || !(pair[1][0].Mu < m.Mu) {
		t.Errorf("partners: %v", pair)
	}
	// The order of the teams in the call does not matter.
	a := [][]Rating{{{30, 3}}, {{25, 8}}, {{20, 5}}}
	b := [][]Rating{a[2], a[0], a[1]}
	ra, _ := m.Rate(a, []int{2, 1, 3})
	rb, _ := m.Rate(b, []int{3, 2, 1})
	if !near(ra[0][0].Mu, rb[1][0].Mu) || !near(ra[1][0].Mu, rb[2][0].Mu) || !near(ra[2][0].Mu, rb[0][0].Mu) {
		t.Errorf("order matters: %v vs %v", ra, rb)
	}
	// The inputs are left alone.
	if four[0][0] != m.New() {
		t.Errorf("input changed: %v", four[0][0])
	}
}

// TestRateExtreme: far-apart ratings neither overflow nor give NaN.
func TestRateExtreme(t *testing.T) {
	m := Default()
	got, err := m.Rate([][]Rating{{{1e6, 1}}, {{-1e6, 1}}}, []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, team := range got {
		for _, p := range team {
			if !finite(p.Mu) || !finite(p.Sigma) || p.Sigma <= 0 {
				t.Errorf("got %v", got)
			}
		}
	}
}

func TestRateErrors(t *testing.T) {
	m := Default()
	for _, c := range []struct {
		name  string
		teams [][]Rating
		ranks []int
		want  error
	}{
		{"one team", [][]Rating{{m.New()}}, []int{1}, ErrTeams},
		{"empty team", [][]Rating{{m.New()}, {}}, []int{1, 2}, ErrTeams},
		{"ranks", [][]Rating{{m.New()}, {m.New()}}, []int{1}, ErrRanks},
		{"nan", [][]Rating{{m.New()}, {{math.NaN(), 1}}}, []int{1, 2}, ErrValue},
		{"zero sigma", [][]Rating{{m.New()}, {{25, 0}}}, []int{1, 2}, ErrValue},
	} {
		got, err := m.Rate(c.teams, c.ranks)
		if !errors.Is(err, c.want) || got != nil {
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	if got := (Rating{Mu: 25, Sigma: 25.0 / 3}).Ordinal(); math.Abs(got) > 1e-12 {
		t.Errorf("a new player's ordinal is %v, want 0", got)
	}
}
