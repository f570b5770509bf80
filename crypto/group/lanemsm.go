package group

import (
	"filippo.io/edwards25519/field"
	"github.com/gtank/ristretto255"
)

// The bucket method with the buckets' sums made on fe8's lanes. In each
// window the terms are sorted by bucket (counting sort, the bucket of a
// term being its digit's magnitude), and the sorted list is cut into eight
// equal runs, one a lane: each lane adds its run's points one after
// another into an accumulator that it hands to the bucket (an ordinary
// addition) whenever its run moves to the next bucket, then starts again
// from the identity. A lane whose run has ended adds the identity. The
// buckets then hold the same sums as pippengerFast's, in another order of
// additions: the result is the same group element.

// laneMSMMin is the number of terms from which msmPart.bucket sums on
// fe8's lanes (where useFe8): below it the runs are too short to pay for
// the handing over.
const laneMSMMin = 256

// windowLanes is window for pippengerLanes, whose terms cost less than
// its buckets: a term added on a lane about 2 field multiplications (its
// seven on eight lanes at once, and moving it in), a bucket about 28
// (handed over once and summed twice), 2^(c-1) of them a window
// (BenchmarkMSM: at 16,384 terms c = 11 instead of 13).
func windowLanes(n, bits int) int { return cheapestWindow(n, bits, 2, 14) }

// pippengerLanes is pippengerFast with the buckets' sums on fe8's lanes
// (useFe8 and fastOK must hold).
func (p *msmPart) pippengerLanes() *ristretto255.Element {
	n := len(p.sc)
	c, windows, dig := p.digitTableC(windowLanes(n, p.bits))
	q := toNiels(p.pts)
	negT := make([]field.Element, n) // -2d*x*y of each point, for -P
	for i := range q {
		negT[i].Negate(&q[i].t2d)
	}
	nb := 1 << (c - 1)
	buckets := make([]extPoint, nb)
	used := make([]bool, nb)
	start := make([]int32, nb+1)
	order := make([]int32, n) // term index, negative (-i-1) for -P
	bucketOf := make([]int32, n)
	var acc extPoint
	acc.identity()
	var lanes ext8
	var q8 niels8
	var cur [8]int32
	var e extPoint
	flush := func(l int) {
		b := cur[l]
		if b < 0 {
			return
		}
		lanes.getLane(l, &e)
		if used[b] {
			buckets[b].add(&e)
		} else {
			buckets[b] = e
			used[b] = true
		}
	}
	for w := windows - 1; w >= 0; w-- {
		if w != windows-1 {
			for k := 0; k < c; k++ {
				acc.double()
			}
		}
		clear(used)
		// Counting sort of the window's nonzero digits by magnitude.
		d := dig[w*n : (w+1)*n]
		clear(start)
		for _, v := range d {
			if v != 0 {
				start[abs32d(v)]++
			}
		}
		m := int32(0)
		for b := 1; b <= nb; b++ {
			cnt := start[b]
			start[b] = m
			m += cnt
		}
		for i, v := range d {
			if v == 0 {
				continue
			}
			b := abs32d(v)
			pos := start[b]
			start[b]++
			bucketOf[pos] = b - 1
			if v < 0 {
				order[pos] = int32(-i - 1)
			} else {
				order[pos] = int32(i)
			}
		}
		// Eight runs of the sorted list, side by side.
		var lo, hi [8]int32
		steps := int32(0)
		for l := 0; l < 8; l++ {
			lo[l], hi[l] = m*int32(l)/8, m*int32(l+1)/8
			steps = max(steps, hi[l]-lo[l])
			cur[l] = -1
			lanes.setIdentityLane(l)
		}
		for k := int32(0); k < steps; k++ {
			for l := 0; l < 8; l++ {
				j := lo[l] + k
				if j >= hi[l] {
					q8.setLane(l, &nielsIdentity, false)
					continue
				}
				if b := bucketOf[j]; b != cur[l] {
					flush(l)
					lanes.setIdentityLane(l)
					cur[l] = b
				}
				if t := order[j]; t >= 0 {
					q8.setLane(l, &q[t], false)
				} else {
					// -P: y+x and y-x swapped, 2d*x*y negated.
					i := -t - 1
					q8.ypx.set(l, &q[i].ymx)
					q8.ymx.set(l, &q[i].ypx)
					q8.t2d.set(l, &negT[i])
				}
			}
			lanes.addNiels8(&q8)
		}
		for l := 0; l < 8; l++ {
			flush(l)
		}
		addBuckets(&acc, buckets, used)
	}
	out := ristretto255.NewIdentityElement()
	if !acc.element(out) {
		panic("group: internal error: bucket method left the curve")
	}
	return out
}

func abs32d(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// getLane sets e to lane l of p.
func (p *ext8) getLane(l int, e *extPoint) {
	p.X.get(l, &e.X)
	p.Y.get(l, &e.Y)
	p.Z.get(l, &e.Z)
	p.T.get(l, &e.T)
}

// setIdentityLane sets lane l of p to the identity (0, 1, 1, 0).
func (p *ext8) setIdentityLane(l int) {
	for k := 0; k < 5; k++ {
		p.X[k][l], p.Y[k][l], p.Z[k][l], p.T[k][l] = 0, 0, 0, 0
	}
	p.Y[0][l], p.Z[0][l] = 1, 1
}
