package bot

import (
	"fmt"
	"math"

	"github.com/okey-game/okey/engine"
)

// The arena's intervals treat a deal, not a hand, as the unit of
// sampling: the hands of one deal (the same tiles in every rotation) are not
// independent draws, so the per-hand Wilson interval of Format's first
// lines is too narrow or too wide depending on how the rotations correlate.
// A deal's hands form a cluster; the ratio estimator's variance is taken
// over clusters (the "cluster-robust" or linearised variance):
//
//	p = Σy_d / Σm_d,  var(p) = G/(G-1) · Σ(y_d - p·m_d)² / (Σm_d)²
//
// over G deals, y_d the deal's total (wins, or placements) and m_d its
// count (hands, or seat-hands). The 95% interval is p ± 1.96·√var(p).

// Interval is an estimate with its 95% interval.
type Interval struct {
	Est, Lo, Hi float64
	// Deals is the number of deals (clusters) behind it; with fewer than
	// two the interval is empty (Lo = Hi = Est) and Valid is false.
	Deals int
}

// Valid reports whether the interval has at least two deals behind it.
func (iv Interval) Valid() bool { return iv.Deals >= 2 }

// Half returns the interval's half-width.
func (iv Interval) Half() float64 { return (iv.Hi - iv.Lo) / 2 }

// DealsFor returns about how many deals give an interval of half-width h,
// at the spread measured here (the half-width shrinks as 1/√deals).
func (iv Interval) DealsFor(h float64) int {
	if !iv.Valid() || h <= 0 {
		return 0
	}
	r := iv.Half() / h
	return int(math.Ceil(float64(iv.Deals) * r * r))
}

const z95 = 1.959964

// clustered returns Σy/Σm and its 95% interval over the clusters.
func clustered(y, m []float64) Interval {
	var sy, sm float64
	for d := range y {
		sy += y[d]
		sm += m[d]
	}
	g := len(y)
	if sm == 0 {
		return Interval{Deals: g}
	}
	p := sy / sm
	iv := Interval{Est: p, Lo: p, Hi: p, Deals: g}
	if g < 2 {
		return iv
	}
	var ss float64
	for d := range y {
		e := y[d] - p*m[d]
		ss += e * e
	}
	se := math.Sqrt(float64(g)/float64(g-1)*ss) / sm
	iv.Lo, iv.Hi = p-z95*se, p+z95*se
	return iv
}

// gainSign returns +1 where a higher score change is better for the seat
// (count-down and strokes) and -1 where a lower one is (penalties, the
// winner's own count-down, Okey 101's points).
func gainSign(r engine.Ruleset) int {
	if r.Preset == engine.Preset101 {
		return -1
	}
	switch r.Scoring {
	case engine.Penalty, engine.WinnerCountDown:
		return -1
	}
	return 1
}

// place2 returns twice seat's placement in a hand by gain (the score
// change, signed by gainSign): 2 for
// the best, ties sharing the mean of their places (two seats tied for
// first place 1.5 each, so 3).
func place2(deltas []int, seat int) int {
	p := 2
	for o, d := range deltas {
		switch {
		case o == seat:
		case d > deltas[seat]:
			p += 2
		case d == deltas[seat]:
			p++
		}
	}
	return p
}

// Deals returns the number of deals the arena played (the last one may
// have fewer hands than seats).
func (r ArenaResult) Deals() int {
	if r.seats == 0 {
		return 0
	}
	return (r.Hands + r.seats - 1) / r.seats
}

// perDeal sums f over the hands of each deal, with the count g.
func (r ArenaResult) perDeal(f, g func(h *handRec) float64) (y, m []float64) {
	y, m = make([]float64, r.Deals()), make([]float64, r.Deals())
	for i := range r.hands {
		d := i / r.seats
		y[d] += f(&r.hands[i])
		m[d] += g(&r.hands[i])
	}
	return y, m
}

func (r ArenaResult) index(s ArenaStats) int {
	for j, t := range r.Stats {
		if t.Name == s.Name {
			return j
		}
	}
	return -1
}

// ShareByDeal returns s's win share (as Share) with its 95% interval
// clustered by deal.
func (r ArenaResult) ShareByDeal(s ArenaStats) Interval {
	j := r.index(s)
	if j < 0 {
		return Interval{}
	}
	iv := clustered(r.perDeal(func(h *handRec) float64 { return float64(h.win[j]) },
		func(*handRec) float64 { return 1 }))
	iv.Lo, iv.Hi = max(0, iv.Lo), min(1, iv.Hi)
	return iv
}

// Placement returns s's average placement per seat and hand by score
// change (1 the best; ties share the mean place; parity is (seats+1)/2)
// with its 95% interval clustered by deal.
func (r ArenaResult) Placement(s ArenaStats) Interval {
	j := r.index(s)
	if j < 0 {
		return Interval{}
	}
	seats := float64(r.Stats[j].Seats)
	return clustered(r.perDeal(func(h *handRec) float64 { return float64(h.place2[j]) / 2 },
		func(*handRec) float64 { return seats }))
}

// Parity returns the average placement of a strategy no better than the
// others: (seats+1)/2.
func (r ArenaResult) Parity() float64 { return float64(r.seats+1) / 2 }

// Paired compares the first strategies of two line-ups played on the same
// deals (the same rules, seed, hands and seat count): the differences A-B of
// their win shares per seat (wins over hands and seats held) and of their
// average placements, with 95% intervals
// clustered by deal. Each deal's difference is taken within the deal, so
// the luck of the tiles cancels.
type Paired struct {
	A, B      string   // the first strategies of the two line-ups
	Share     Interval // share a seat of A minus share a seat of B (fractions)
	Placement Interval // placement of A minus placement of B (negative: A places better)
}

// Compare pairs the first strategies of a and b deal by deal.
func Compare(a, b ArenaResult) (Paired, error) {
	if a.Rules != b.Rules || a.Hands != b.Hands || a.seats != b.seats || a.seed != b.seed || len(a.hands) != a.Hands || len(b.hands) != b.Hands {
		return Paired{}, fmt.Errorf("%w: the line-ups did not play the same deals (%s, %d hands, %d seats, seed %d against %s, %d hands, %d seats, seed %d)",
			ErrArena, a.Rules, a.Hands, a.seats, a.seed, b.Rules, b.Hands, b.seats, b.seed)
	}
	if len(a.Stats) == 0 || len(b.Stats) == 0 {
		return Paired{}, fmt.Errorf("%w: no strategies", ErrArena)
	}
	sa, sb := float64(a.Stats[0].Seats), float64(b.Stats[0].Seats)
	g := a.Deals()
	ys, yp, m := make([]float64, g), make([]float64, g), make([]float64, g)
	for i := range a.hands {
		d := i / a.seats
		ys[d] += float64(a.hands[i].win[0])/sa - float64(b.hands[i].win[0])/sb
		yp[d] += float64(a.hands[i].place2[0])/2/sa - float64(b.hands[i].place2[0])/2/sb
		m[d]++
	}
	return Paired{A: a.Stats[0].Name, B: b.Stats[0].Name, Share: clustered(ys, m), Placement: clustered(yp, m)}, nil
}

// FormatDeals returns the lines of the clustered figures: for each strategy
// its win share and average placement with 95% intervals clustered by
// deal, and how many deals would give a ±1 point interval on the share at
// the spread measured.
func (r ArenaResult) FormatDeals() string {
	var b []byte
	w := 0
	for _, s := range r.Stats {
		w = max(w, len(s.Name))
	}
	b = fmt.Appendf(b, "by deal (%d deals, %d rotations each; 95%% intervals clustered by deal; placement parity %.2f):\n",
		r.Deals(), r.seats, r.Parity())
	for _, s := range r.Stats {
		sh, pl := r.ShareByDeal(s), r.Placement(s)
		if !sh.Valid() {
			b = fmt.Appendf(b, "%-*s share %.1f%%  placement %.2f  (one deal: no interval)\n", w, s.Name, 100*sh.Est, pl.Est)
			continue
		}
		b = fmt.Appendf(b, "%-*s share %.1f%% [%.1f-%.1f]  placement %.2f [%.2f-%.2f]  ±1 point needs ~%d deals\n",
			w, s.Name, 100*sh.Est, 100*sh.Lo, 100*sh.Hi, pl.Est, pl.Lo, pl.Hi, sh.DealsFor(0.01))
	}
	return string(b)
}

// Format returns the paired comparison's line.
func (p Paired) Format() string {
	if !p.Share.Valid() {
		return fmt.Sprintf("paired %s - %s on the same deal: share %+.1f points  placement %+.2f  (one deal: no interval)\n",
			p.A, p.B, 100*p.Share.Est, p.Placement.Est)
	}
	return fmt.Sprintf("paired %s - %s on the same %d deals: share %+.1f points [%+.1f, %+.1f]  placement %+.2f [%+.2f, %+.2f]  ±1 point needs ~%d deals\n",
		p.A, p.B, p.Share.Deals, 100*p.Share.Est, 100*p.Share.Lo, 100*p.Share.Hi,
		p.Placement.Est, p.Placement.Lo, p.Placement.Hi, p.Share.DealsFor(0.01))
}
