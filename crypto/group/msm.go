package group

import (
	"slices"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/internal/par"
)

// scalarBits bounds the canonical scalars: every one is below 2^253.
const scalarBits = 253

// shortBits: a term whose scalar, or its negation, is below 2^shortBits
// (a batch's 128-bit weight, as a point checked against its value known
// from revealed secrets) is short. VarTimeMSM sums the short terms apart,
// with windows over their 128 bits only and a digit width chosen for them.
const shortBits = 128

// pippengerMin is the number of terms from which VarTimeMSM uses the bucket
// method instead of ristretto255's Straus (measured: BenchmarkMSM; on
// coordinates too, pippengerFast is no faster than Straus at 165 terms).
const pippengerMin = 256

// parallelMin is the number of terms from which VarTimeMSM splits the sum
// over two cores.
const parallelMin = 768

// VarTimeMSM returns sum sc[i]*pts[i] (the identity for no terms). It takes
// variable time: for public scalars and points only. Small sums use
// ristretto255's VarTimeMultiScalarMult; large ones the bucket method of
// Pippenger with signed digits (on the points' coordinates, pippengerFast,
// where ristretto255's layout allows), the short terms (shortBits) and the
// others summed apart, each split over the cores. The result is the same
// group element whatever the method or the scheduling.
func VarTimeMSM(sc []*ristretto255.Scalar, pts []*ristretto255.Element) *ristretto255.Element {
	if len(sc) != len(pts) {
		panic("group: internal error: VarTimeMSM lengths differ")
	}
	n := len(sc)
	if n < pippengerMin {
		return ristretto255.NewIdentityElement().VarTimeMultiScalarMult(sc, pts)
	}
	all := msmPart{bits: scalarBits, sc: sc, pts: pts, mag: make([][32]byte, n), neg: make([]bool, n)}
	short := 0
	for i := range sc {
		all.neg[i] = magnitude(sc[i], &all.mag[i])
		if isShort(&all.mag[i]) {
			short++
		}
	}
	if short < pippengerMin {
		// Too few short terms to sum apart: one part, full windows.
		return all.sum()
	}
	parts := [2]msmPart{{bits: shortBits}, {bits: scalarBits}}
	parts[0].grow(short)
	parts[1].grow(n - short)
	for i := range sc {
		p := &parts[1]
		if isShort(&all.mag[i]) {
			p = &parts[0]
		}
		p.add(sc[i], &all.mag[i], all.neg[i], pts[i])
	}
	// The two parts on two cores (each also splits itself when large).
	sums := make([]*ristretto255.Element, 2)
	par.For(2, 1, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			sums[k] = ristretto255.NewIdentityElement()
			if len(parts[k].sc) > 0 {
				sums[k] = parts[k].sum()
			}
		}
	})
	return sums[0].Add(sums[0], sums[1])
}

// msmPart is a list of terms for the bucket method: each scalar with its
// magnitude (the smaller of s and l-s, below 2^bits, as 32 little-endian
// bytes) and whether that is l-s.
type msmPart struct {
	bits int
	sc   []*ristretto255.Scalar
	mag  [][32]byte
	neg  []bool
	pts  []*ristretto255.Element
}

// newPart returns every term as one part of full scalars.
func newPart(sc []*ristretto255.Scalar, pts []*ristretto255.Element) *msmPart {
	p := &msmPart{bits: scalarBits, sc: sc, pts: pts, mag: make([][32]byte, len(sc)), neg: make([]bool, len(sc))}
	for i := range sc {
		p.neg[i] = magnitude(sc[i], &p.mag[i])
	}
	return p
}

func (p *msmPart) grow(n int) {
	p.sc = make([]*ristretto255.Scalar, 0, n)
	p.mag = make([][32]byte, 0, n)
	p.neg = make([]bool, 0, n)
	p.pts = make([]*ristretto255.Element, 0, n)
}

func (p *msmPart) add(s *ristretto255.Scalar, m *[32]byte, neg bool, e *ristretto255.Element) {
	p.sc = append(p.sc, s)
	p.mag = append(p.mag, *m)
	p.neg = append(p.neg, neg)
	p.pts = append(p.pts, e)
}

func (p *msmPart) slice(a, b int) *msmPart {
	return &msmPart{bits: p.bits, sc: p.sc[a:b], mag: p.mag[a:b], neg: p.neg[a:b], pts: p.pts[a:b]}
}

// sum returns the part's sum: Straus when small, else the bucket method,
// on two cores when large.
func (p *msmPart) sum() *ristretto255.Element {
	n := len(p.sc)
	if n < pippengerMin {
		return ristretto255.NewIdentityElement().VarTimeMultiScalarMult(p.sc, p.pts)
	}
	if n < parallelMin {
		return p.bucket()
	}
	halves := make([]*ristretto255.Element, 2)
	par.For(2, 1, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			halves[w] = p.slice(n*w/2, n*(w+1)/2).bucket()
		}
	})
	return halves[0].Add(halves[0], halves[1])
}

func (p *msmPart) bucket() *ristretto255.Element {
	if fastOK && useFe8 && len(p.sc) >= laneMSMMin {
		return p.pippengerLanes()
	}
	if fastOK {
		return p.pippengerFast()
	}
	return p.pippenger()
}

// isShort reports whether the magnitude m is below 2^shortBits.
func isShort(m *[32]byte) bool {
	for _, b := range m[shortBits/8:] {
		if b != 0 {
			return false
		}
	}
	return true
}

// window returns the digit width c that minimises the bucket method's
// cost for n terms of bits-bit scalars: (bits/c + 2) windows, each adding
// every term to a bucket (7 field multiplications) and summing 2^(c-1)
// buckets twice (9 each).
func window(n, bits int) int { return cheapestWindow(n, bits, 7, 9) }

// cheapestWindow returns the digit width c in [4, 16] that minimises
// (bits/c + 2) * (term*n + bucket*2^c): the bucket method's windows, each
// costing term per term and bucket per 2^c (two sums of 2^(c-1) buckets).
func cheapestWindow(n, bits, term, bucket int) int {
	best, bestCost := 4, -1
	for c := 4; c <= 16; c++ {
		cost := (bits/c + 2) * (term*n + bucket<<c)
		if bestCost < 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// magnitude sets m to the smaller of s and -s (as integers below l), as 32
// little-endian bytes, and reports whether it is -s: a small negative
// scalar (a batch's -z for a 128-bit weight z) then has as few nonzero
// digits as a small positive one.
func magnitude(s *ristretto255.Scalar, m *[32]byte) (neg bool) {
	b := s.Bytes()
	copy(m[:], b)
	if isShort(m) {
		return false // below 2^128: l - s is above 2^252
	}
	var ns ristretto255.Scalar
	nb := ns.Negate(s).Bytes()
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != nb[i] {
			if nb[i] < b[i] {
				b, neg = nb, true
			}
			break
		}
	}
	copy(m[:], b)
	return neg
}

// digits writes the signed base-2^c digits of the magnitude of s (each in
// [-2^(c-1), 2^(c-1)), least significant first) to out, which has room for
// every window, and reports whether the magnitude is that of -s: the
// digits of s are then the returned ones negated.
func digits(s *ristretto255.Scalar, c int, out []int32) (neg bool) {
	var m [32]byte
	neg = magnitude(s, &m)
	signedDigits(m[:], c, out)
	return neg
}

// digitTable is the part's signed digits for the bucket method: c bits a
// window (window), windows digits a scalar, least significant first, by
// window: scalar i's digit of window w at dig[w*n+i] (a window's pass reads
// its digits in order), the digits of s itself (where the magnitude is
// that of -s, negated back).
func (p *msmPart) digitTable() (c, windows int, dig []int32) {
	return p.digitTableC(window(len(p.sc), p.bits))
}

// digitTableC is digitTable with c bits a window.
func (p *msmPart) digitTableC(c int) (_, windows int, dig []int32) {
	windows = (p.bits+c-1)/c + 1
	n := len(p.sc)
	dig = make([]int32, n*windows)
	d := make([]int32, windows)
	for i := range p.mag {
		signedDigits(p.mag[i][:], c, d)
		if p.neg[i] {
			for w := range d {
				d[w] = -d[w]
			}
		}
		for w, v := range d {
			dig[w*n+i] = v
		}
	}
	return c, windows, dig
}

// pippenger is the bucket method over every term as a full scalar.
func pippenger(sc []*ristretto255.Scalar, pts []*ristretto255.Element) *ristretto255.Element {
	return newPart(sc, pts).pippenger()
}

// pippenger is the bucket method: for each window, from the top, the sum
// is doubled c times, each point is added to (or, for a negative digit,
// subtracted from) the bucket of its digit's magnitude, and the buckets are
// summed with their weights by a running sum.
func (p *msmPart) pippenger() *ristretto255.Element {
	n := len(p.sc)
	pts := p.pts
	c, windows, dig := p.digitTable()
	nb := 1 << (c - 1)
	buckets := make([]ristretto255.Element, nb)
	used := make([]bool, nb)
	acc := ristretto255.NewIdentityElement()
	var sum, tot ristretto255.Element
	for w := windows - 1; w >= 0; w-- {
		for k := 0; k < c && w != windows-1; k++ {
			acc.Add(acc, acc)
		}
		clear(used)
		for i := 0; i < n; i++ {
			d := dig[w*n+i]
			switch {
			case d > 0:
				if used[d-1] {
					buckets[d-1].Add(&buckets[d-1], pts[i])
				} else {
					buckets[d-1].Set(pts[i])
					used[d-1] = true
				}
			case d < 0:
				if used[-d-1] {
					buckets[-d-1].Subtract(&buckets[-d-1], pts[i])
				} else {
					buckets[-d-1].Negate(pts[i])
					used[-d-1] = true
				}
			}
		}
		started := false
		for k := nb - 1; k >= 0; k-- {
			switch {
			case used[k] && started:
				sum.Add(&sum, &buckets[k])
			case used[k]:
				sum.Set(&buckets[k])
				tot.Set(&sum)
				started = true
				continue
			}
			if started {
				tot.Add(&tot, &sum)
			}
		}
		if started {
			acc.Add(acc, &tot)
		}
	}
	return acc
}

// An Adder takes terms s*P of a sum (a Batch, or a Terms list).
type Adder interface {
	Add(s *ristretto255.Scalar, p *ristretto255.Element)
}

// Terms is a plain list of terms s*P, kept to be added to a Batch later
// (AddTerms): a list can be made on any core, a Batch only on one.
type Terms struct {
	sc  []ristretto255.Scalar
	pts []*ristretto255.Element
}

// Grow makes room for n more terms.
func (t *Terms) Grow(n int) {
	t.sc = slices.Grow(t.sc, n)
	t.pts = slices.Grow(t.pts, n)
}

// Add appends the term s*p (s is copied).
func (t *Terms) Add(s *ristretto255.Scalar, p *ristretto255.Element) {
	t.sc = append(t.sc, ristretto255.Scalar{})
	t.sc[len(t.sc)-1].Set(s)
	t.pts = append(t.pts, p)
}

// Len returns the number of terms.
func (t *Terms) Len() int { return len(t.sc) }

// AddTerms adds every term of t to b.
func (b *Batch) AddTerms(t *Terms) {
	for i := range t.sc {
		b.Add(&t.sc[i], t.pts[i])
	}
}

// A Batch accumulates the terms s*P of a sum that must be the identity,
// merging the terms of one point (the same *ristretto255.Element) into one.
// The zero Batch is empty and ready. It is not safe for concurrent use.
type Batch struct {
	idx map[*ristretto255.Element]int
	sc  []*ristretto255.Scalar
	pts []*ristretto255.Element
}

// Grow makes room for n more distinct points.
func (b *Batch) Grow(n int) {
	if b.idx == nil {
		b.idx = make(map[*ristretto255.Element]int, n)
	}
	b.sc = slices.Grow(b.sc, n)
	b.pts = slices.Grow(b.pts, n)
}

// Add adds the term s*p (s is copied; p must not change afterwards).
func (b *Batch) Add(s *ristretto255.Scalar, p *ristretto255.Element) {
	if b.idx == nil {
		b.idx = make(map[*ristretto255.Element]int)
	}
	if i, ok := b.idx[p]; ok {
		b.sc[i].Add(b.sc[i], s)
		return
	}
	b.idx[p] = len(b.pts)
	b.sc = append(b.sc, ristretto255.NewScalar().Set(s))
	b.pts = append(b.pts, p)
}

// Substitute replaces in the sum every point p whose value known gives,
// p = s*base (base a point whose value is not known), by that value, and
// adds the check that p has it: the term c*p becomes c*s*base +
// rho*(p - s*base) = rho*p + (c - rho)*s*base, rho a fresh weight drawn
// by weight (128-bit, nonzero, unknown to whoever chose the points). The
// new sum is the identity if the old one is and every such p is s*base;
// if one of these fails, it is not, except with probability about 2^-128
// per weight. It returns the number of points substituted.
func (b *Batch) Substitute(known func(p *ristretto255.Element) (s *ristretto255.Scalar, base *ristretto255.Element, ok bool), weight func(*ristretto255.Scalar)) int {
	n := len(b.pts)
	var rho, t ristretto255.Scalar
	count := 0
	for i := 0; i < n; i++ {
		s, base, ok := known(b.pts[i])
		if !ok {
			continue
		}
		weight(&rho)
		t.Subtract(b.sc[i], &rho)
		b.sc[i].Set(&rho)
		b.Add(t.Multiply(&t, s), base)
		count++
	}
	return count
}

// AddScaled adds to a the terms w*sc[i]*pts[i].
func AddScaled(a Adder, w *ristretto255.Scalar, sc []*ristretto255.Scalar, pts []*ristretto255.Element) {
	var t ristretto255.Scalar
	for i := range sc {
		a.Add(t.Multiply(w, sc[i]), pts[i])
	}
}

// Len returns the number of distinct points.
func (b *Batch) Len() int { return len(b.pts) }

// IsIdentity reports whether the terms sum to the identity (true for none).
func (b *Batch) IsIdentity() bool {
	return VarTimeMSM(b.sc, b.pts).Equal(ristretto255.NewIdentityElement()) == 1
}

// FirstFailure finds the lowest index in [0, n) whose check fails, by
// bisection over batches: add(b, i) adds item i's terms (weighted by the
// item's own random weights, the same in every batch) and exact(i) checks
// item i alone, exactly. A range whose batch is the identity is taken as
// passing; a failing range is split and its lower half searched first; a
// single item is decided by exact. It returns -1 when the whole batch is
// the identity. Whenever the weights are random and unknown to whoever
// made the items, the index is the lowest failing one except with
// probability about (number of batches)/2^128 (protocol.md 4, "Batch
// verification"); the returned item always fails exact.
func FirstFailure(n int, add func(b *Batch, i int), exact func(i int) bool) int {
	var search func(lo, hi int, known bool) int
	search = func(lo, hi int, known bool) int {
		if hi-lo == 1 {
			if exact(lo) {
				return -1
			}
			return lo
		}
		if !known {
			var b Batch
			for i := lo; i < hi; i++ {
				add(&b, i)
			}
			if b.IsIdentity() {
				return -1
			}
		}
		mid := lo + (hi-lo)/2
		if i := search(lo, mid, false); i >= 0 {
			return i
		}
		// The lower half sums to the identity, so the upper half holds the
		// failure: no need to sum it again.
		return search(mid, hi, true)
	}
	if n <= 0 {
		return -1
	}
	if n == 1 {
		return search(0, 1, false)
	}
	var b Batch
	for i := 0; i < n; i++ {
		add(&b, i)
	}
	if b.IsIdentity() {
		return -1
	}
	return search(0, n, true)
}
