package group

import (
	"encoding/binary"

	"filippo.io/edwards25519/field"
	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/internal/par"
)

// Variable-time multi-scalar multiplication over fixed points prepared
// once (VarTable: their odd multiples up to 127, for width-8 signed digits,
// about 28 additions a 253-bit scalar) together with other points (odd
// multiples up to 15 made per call, width 5, about 42 additions and a table
// of 8), by Straus's method on the coordinates (ctmult.go's formulas), the
// terms split over two cores. For public scalars and points only.

const (
	vtFixedW = 8 // digit width of a VarTable's terms
	vtVarW   = 5 // digit width of the other terms
)

// VarTable is a fixed point prepared for VarTimeMSMTables: its odd
// multiples 1, 3, ..., 127 in affine form (about 7.7 KB; making it costs
// about 0.5 of a ScalarMult). It is read-only once made and safe for
// concurrent use.
type VarTable struct {
	p   ristretto255.Element
	tab *[1 << (vtFixedW - 2)]ctNiels // nil when the coordinates cannot be read
}

// NewVarTable prepares p for VarTimeMSMTables.
func NewVarTable(p *ristretto255.Element) *VarTable {
	t := &VarTable{}
	t.p.Set(p)
	if !ctLayoutOK {
		return t
	}
	const n = 1 << (vtFixedW - 2)
	var ext [n]ctExt
	ext[0].set(p)
	var p2 ctCached
	var c ctCompleted
	c.double(&ext[0])
	var two ctExt
	two.fromCompleted(&c)
	p2.fromExt(&two)
	for i := 1; i < n; i++ {
		c.add(&ext[i-1], &p2)
		ext[i].fromCompleted(&c)
	}
	// To affine with one inversion (Montgomery's trick; Z is never zero).
	var prefix [n]field.Element
	acc := new(field.Element).One()
	for k := range ext {
		prefix[k] = *acc
		acc.Multiply(acc, &ext[k].Z)
	}
	var inv, zi, x, y field.Element
	inv.Invert(acc)
	t.tab = new([n]ctNiels)
	for k := n - 1; k >= 0; k-- {
		zi.Multiply(&inv, &prefix[k])
		inv.Multiply(&inv, &ext[k].Z)
		x.Multiply(&ext[k].X, &zi)
		y.Multiply(&ext[k].Y, &zi)
		e := &t.tab[k]
		e.ypx.Add(&y, &x)
		e.ymx.Subtract(&y, &x)
		e.t2d.Multiply(&x, &y)
		e.t2d.Multiply(&e.t2d, edD2)
	}
	return t
}

// subNiels sets c = p - q.
func (c *ctCompleted) subNiels(p *ctExt, q *ctNiels) {
	var ypx, ymx, pp, mm, tt, zz2 field.Element
	ypx.Add(&p.Y, &p.X)
	ymx.Subtract(&p.Y, &p.X)
	pp.Multiply(&ypx, &q.ymx)
	mm.Multiply(&ymx, &q.ypx)
	tt.Multiply(&p.T, &q.t2d)
	zz2.Add(&p.Z, &p.Z)
	c.X.Subtract(&pp, &mm)
	c.Y.Add(&pp, &mm)
	c.Z.Subtract(&zz2, &tt)
	c.T.Add(&zz2, &tt)
}

// sub sets c = p - q.
func (c *ctCompleted) sub(p *ctExt, q *ctCached) {
	var ypx, ymx, pp, mm, tt, zz2 field.Element
	ypx.Add(&p.Y, &p.X)
	ymx.Subtract(&p.Y, &p.X)
	pp.Multiply(&ypx, &q.ymx)
	mm.Multiply(&ymx, &q.ypx)
	tt.Multiply(&p.T, &q.t2d)
	zz2.Multiply(&p.Z, &q.z)
	zz2.Add(&zz2, &zz2)
	c.X.Subtract(&pp, &mm)
	c.Y.Add(&pp, &mm)
	c.Z.Subtract(&zz2, &tt)
	c.T.Add(&zz2, &tt)
}

// wnaf returns the width-w signed digits of s (below 2^253): 256 digits,
// each zero or odd with |d| < 2^(w-1), any two nonzero ones at least w
// apart, sum d_i*2^i = s. Variable time.
func wnaf(s *ristretto255.Scalar, w uint) [256]int8 {
	var b [32]byte
	copy(b[:], s.Bytes())
	// A scalar near l (a negated short weight) is written as -(l-s): as
	// few digits as the short one.
	var ns ristretto255.Scalar
	nb := ns.Negate(s).Bytes()
	neg := false
	for i := 31; i >= 0; i-- {
		if b[i] != nb[i] {
			neg = nb[i] < b[i]
			break
		}
	}
	if neg {
		copy(b[:], nb)
	}
	var x [5]uint64
	for i := 0; i < 4; i++ {
		x[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	var naf [256]int8
	width := int32(1) << w
	mask := uint64(width - 1)
	carry := int32(0)
	for pos := 0; pos < 256; {
		idx, bit := pos/64, uint(pos%64)
		buf := x[idx] >> bit
		if bit+w > 64 {
			buf |= x[idx+1] << (64 - bit)
		}
		win := carry + int32(buf&mask)
		if win&1 == 0 {
			// The bit here (with the carry) is zero; the carry goes on.
			pos++
			continue
		}
		if win < width/2 {
			carry = 0
			naf[pos] = int8(win)
		} else {
			carry = 1
			naf[pos] = int8(win - width)
		}
		pos += int(w)
	}
	if neg {
		for i := range naf {
			naf[i] = -naf[i]
		}
	}
	return naf
}

// vtTerm is one term of VarTimeMSMTables: its digits and its table.
type vtTerm struct {
	naf   [256]int8
	fixed *[1 << (vtFixedW - 2)]ctNiels // a VarTable's, or
	odd   *[1 << (vtVarW - 2)]ctCached  // made for this call
}

// VarTimeMSMTables returns sum_i fsc[i]*F_i + sum_j sc[j]*pts[j], F_i the
// point of fixed[i]: the same element as ristretto255's
// VarTimeMultiScalarMult over all the terms. Variable time: for public
// scalars and points only.
func VarTimeMSMTables(fsc []*ristretto255.Scalar, fixed []*VarTable, sc []*ristretto255.Scalar, pts []*ristretto255.Element) *ristretto255.Element {
	if len(fsc) != len(fixed) || len(sc) != len(pts) {
		panic("group: internal error: VarTimeMSMTables lengths differ")
	}
	fast := ctLayoutOK
	for _, t := range fixed {
		fast = fast && t.tab != nil
	}
	if !fast {
		allSc := append(append(make([]*ristretto255.Scalar, 0, len(fsc)+len(sc)), fsc...), sc...)
		allPts := make([]*ristretto255.Element, 0, len(fsc)+len(sc))
		for _, t := range fixed {
			allPts = append(allPts, &t.p)
		}
		allPts = append(allPts, pts...)
		return ristretto255.NewIdentityElement().VarTimeMultiScalarMult(allSc, allPts)
	}
	terms := make([]vtTerm, len(fsc)+len(sc))
	// Cost in additions: about 256/(w+1) a term, and 8 for a table made
	// here; the two halves of the terms by cost go to two cores.
	const fixedCost, varCost = 256/(vtFixedW+1) + 1, 256/(vtVarW+1) + 9
	total := len(fsc)*fixedCost + len(sc)*varCost
	split, acc := len(terms), 0
	for i := range terms {
		if acc*2 >= total {
			split = i
			break
		}
		if i < len(fsc) {
			acc += fixedCost
		} else {
			acc += varCost
		}
	}
	sums := [2]ctExt{}
	par.For(2, 1, func(lo, hi int) {
		for part := lo; part < hi; part++ {
			a, b := 0, split
			if part == 1 {
				a, b = split, len(terms)
			}
			for i := a; i < b; i++ {
				t := &terms[i]
				if i < len(fsc) {
					t.naf = wnaf(fsc[i], vtFixedW)
					t.fixed = fixed[i].tab
				} else {
					t.naf = wnaf(sc[i-len(fsc)], vtVarW)
					t.odd = oddMultiples(pts[i-len(fsc)])
				}
			}
			// A local sum: the two parts' accumulators must not share a
			// cache line while they are being added to.
			var sum ctExt
			straus(&sum, terms[a:b])
			sums[part] = sum
		}
	})
	var pc ctCached
	pc.fromExt(&sums[1])
	var c ctCompleted
	c.add(&sums[0], &pc)
	var r ctExt
	r.fromCompleted(&c)
	out := ristretto255.NewIdentityElement()
	if !r.element(out) {
		panic("group: internal error: VarTimeMSMTables result off the curve")
	}
	return out
}

// oddMultiples returns P, 3P, ..., 15P.
func oddMultiples(e *ristretto255.Element) *[1 << (vtVarW - 2)]ctCached {
	var tab [1 << (vtVarW - 2)]ctCached
	var p, two ctExt
	p.set(e)
	tab[0].fromExt(&p)
	var c ctCompleted
	c.double(&p)
	two.fromCompleted(&c)
	var p2 ctCached
	p2.fromExt(&two)
	for i := 1; i < len(tab); i++ {
		c.add(&p, &p2)
		p.fromCompleted(&c)
		tab[i].fromExt(&p)
	}
	return &tab
}

// straus sets acc to the sum of terms, sharing the doublings.
func straus(acc *ctExt, terms []vtTerm) {
	acc.identity()
	top := -1
	for i := range terms {
		for j := 255; j > top; j-- {
			if terms[i].naf[j] != 0 {
				top = j
				break
			}
		}
	}
	var c ctCompleted
	for j := top; j >= 0; j-- {
		if j < top {
			c.double(acc)
			acc.fromCompleted(&c)
		}
		for i := range terms {
			t := &terms[i]
			d := t.naf[j]
			switch {
			case d == 0:
				continue
			case t.fixed != nil && d > 0:
				c.addNiels(acc, &t.fixed[d/2])
			case t.fixed != nil:
				c.subNiels(acc, &t.fixed[(-d)/2])
			case d > 0:
				c.add(acc, &t.odd[d/2])
			default:
				c.sub(acc, &t.odd[(-d)/2])
			}
			acc.fromCompleted(&c)
		}
	}
}
