// Package rating is the Weng-Lin Bayesian rating for games of two or more
// teams (R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for
// Online Ranking", JMLR 12 (2011) 267-300), with the Plackett-Luce model of
// the paper's Algorithm 4: the model OpenSkill implements as PlackettLuce.
//
// A player's skill is a normal belief, Mu and Sigma. After a game, each
// team's Mu moves by how much better or worse it placed than its rating
// predicted, and its Sigma shrinks by how much the result told about it.
// A team's rating is the sum of its players' means and variances, and a
// player's share of the team's update is its share of the team's variance:
// partners who placed together are both rated by their team's result.
//
// Ratings are floats, shown to people; okey never decides anything from
// them (no verdict, no standing). The package does no I/O and keeps no
// state: Rate is a pure function of its inputs.
package rating

import (
	"errors"
	"fmt"
	"math"
)

// Rating is a player's skill belief: a normal distribution with mean Mu
// and standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is a conservative single figure for sorting, Mu - 3 Sigma: the
// skill the player is almost surely (99.7%) above.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Model holds the parameters of the Plackett-Luce update. Default gives
// OpenSkill's defaults, the ones the tests check against its reference
// values.
type Model struct {
	Mu    float64 // a new player's mean
	Sigma float64 // a new player's standard deviation
	Beta  float64 // the spread of one game's performance around the skill
	Kappa float64 // the floor of a variance's shrink factor (keeps Sigma > 0)
	// Tau is added to every Sigma (in quadrature) before each game, so that
	// a long record keeps some room to move.
	Tau float64
}

// Default returns OpenSkill's default Plackett-Luce parameters: Mu 25,
// Sigma 25/3, Beta 25/6, Kappa 0.0001, Tau 25/300.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// New returns a new player's rating.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Errors of Rate.
var (
	ErrTeams = errors.New("rating: a game needs two or more teams, each with a player")
	ErrRanks = errors.New("rating: one rank per team")
	ErrValue = errors.New("rating: a rating or parameter is not a finite number, or a sigma is not positive")
)

// Rate returns the players' ratings after one game. teams[i] are the
// ratings of team i's players before the game; ranks[i] is team i's place,
// lower is better, equal ranks a tie (the paper's A_q counts tied teams).
// The result has the shape of teams; the inputs are not changed. On error
// it returns nil and the error.
//
// The update is Algorithm 4 of Weng and Lin (2011) with the paper's
// gamma_q = sigma_q / c, after Tau is added to each Sigma as OpenSkill
// does. Unlike OpenSkill's PlackettLuce, tied teams are not given the
// average of their updates afterwards: the paper's rule as it stands.
func (m Model) Rate(teams [][]Rating, ranks []int) ([][]Rating, error) {
	k := len(teams)
	if k < 2 {
		return nil, ErrTeams
	}
	if len(ranks) != k {
		return nil, ErrRanks
	}
	if !finite(m.Beta) || !finite(m.Kappa) || !finite(m.Tau) || m.Beta < 0 || m.Kappa < 0 || m.Tau < 0 {
		return nil, fmt.Errorf("%w: model %+v", ErrValue, m)
	}
	// The players after Tau, and each team's mean and variance.
	players := make([][]Rating, k)
	mu := make([]float64, k)
	v := make([]float64, k)
	for i, team := range teams {
		if len(team) == 0 {
			return nil, ErrTeams
		}
		players[i] = make([]Rating, len(team))
		for j, p := range team {
			if !finite(p.Mu) || !finite(p.Sigma) || p.Sigma <= 0 {
				return nil, fmt.Errorf("%w: team %d player %d: %+v", ErrValue, i, j, p)
			}
			s := math.Sqrt(p.Sigma*p.Sigma + m.Tau*m.Tau)
			players[i][j] = Rating{Mu: p.Mu, Sigma: s}
			mu[i] += p.Mu
			v[i] += s * s
		}
	}
	// c = sqrt(sum over teams of (sigma_q^2 + beta^2)).
	c2 := 0.0
	for i := range v {
		c2 += v[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)
	// e[i] = exp(mu_i / c), shifted by the largest mean so that no exp
	// overflows: every quantity below is a ratio of these, so the shift
	// cancels.
	top := math.Inf(-1)
	for _, x := range mu {
		top = math.Max(top, x)
	}
	e := make([]float64, k)
	for i := range e {
		e[i] = math.Exp((mu[i] - top) / c)
	}
	// sumQ[q] = sum of e[s] over teams s placed at or below q (r(s) >= r(q));
	// a[q] = the number of teams tied with q.
	sumQ := make([]float64, k)
	a := make([]float64, k)
	for q := range teams {
		for s := range teams {
			if ranks[s] >= ranks[q] {
				sumQ[q] += e[s]
			}
			if ranks[s] == ranks[q] {
				a[q]++
			}
		}
	}
	out := make([][]Rating, k)
	for i := range teams {
		omega, delta := 0.0, 0.0
		for q := range teams {
			if ranks[q] > ranks[i] {
				continue
			}
			p := e[i] / sumQ[q]
			delta += p * (1 - p) / a[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
		}
		gamma := math.Sqrt(v[i]) / c
		omega *= v[i] / c
		delta *= gamma * v[i] / (c * c)
		out[i] = make([]Rating, len(players[i]))
		for j, p := range players[i] {
			share := p.Sigma * p.Sigma / v[i]
			out[i][j] = Rating{
				Mu:    p.Mu + share*omega,
				Sigma: p.Sigma * math.Sqrt(math.Max(1-share*delta, m.Kappa)),
			}
		}
	}
	return out, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
