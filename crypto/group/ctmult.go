package group

import (
	"crypto/subtle"

	"filippo.io/edwards25519/field"
	"github.com/gtank/ristretto255"
)

// Constant-time multiplications by secret scalars that share work between
// several multiplications of one point, or of a fixed list of points.
//
// A scalar s (below 2^253) is written in 64 signed radix-16 digits
// s = sum_i d_i*16^i, d_i in [-8, 8), exactly as edwards25519's own
// ScalarMult writes it. Grouping the digits by quarter,
//
//	s*P = sum_{q<4} sum_{i<16} d_{16q+i} * 16^i * (2^(64q)*P),
//
// so with the four points P_q = 2^(64q)*P and their multiples 1..8 made
// once (a SplitTable: 192 doublings and 28 additions), each multiplication
// needs only 60 doublings and 64 additions, against 252 and 63 (and a table
// of 7 additions) for a ScalarMult. A FixedTable is the same table in
// affine form for a point fixed for the whole process (a generator), so
// that a multi-scalar multiplication over such points (FixedMSM) makes no
// table at all: about 0.3 of a ScalarMult a term against 0.42 for
// ristretto255's MultiScalarMult. Every table entry is read for every
// digit (a masked selection) and the sequence of field operations depends
// on nothing secret: the time does not depend on the scalars.
//
// The arithmetic is edwards25519's extended coordinates with the complete
// formulas of Hisil, Wong, Carter and Dawson (2008) for a = -1, read and
// written through ristretto255.Element's single edwards25519.Point field
// (gtank/ristretto255 v0.2.0, pinned in go.mod; ctLayoutOK checks it at
// start-up, and the functions here fall back to ScalarMult if it does not
// hold). A ristretto255 element is a class of curve points: any
// representative serves, and the sum of representatives represents the sum.

// ctExt is a point in extended coordinates: x = X/Z, y = Y/Z, x*y = T/Z.
type ctExt struct{ X, Y, Z, T field.Element }

// ctCompleted is the output of an addition or doubling: x = X/Z, y = Y/T.
type ctCompleted struct{ X, Y, Z, T field.Element }

// ctCached is a point prepared for additions: (Y+X, Y-X, Z, 2d*T).
type ctCached struct{ ypx, ymx, z, t2d field.Element }

// ctLayoutOK reports whether ristretto255.Element is laid out as one
// edwards25519.Point and the formulas here agree with ristretto255's.
var ctLayoutOK = func() bool {
	if !fastOK { // the layout (fastmsm.go)
		return false
	}
	g := ristretto255.NewGeneratorElement()
	// 3*G through the coordinates (a doubling and an addition) must be
	// ristretto255's 3*G.
	var p, q ctExt
	p.set(g)
	q = p
	var c ctCompleted
	c.double(&q)
	q.fromCompleted(&c)
	var pc ctCached
	pc.fromExt(&p)
	c.add(&q, &pc)
	q.fromCompleted(&c)
	var three ristretto255.Element
	if !q.element(&three) {
		return false
	}
	want := ristretto255.NewIdentityElement().Add(g, g)
	return three.Equal(want.Add(want, g)) == 1
}()

// set reads e's coordinates (as extPoint's set: same layout).
func (p *ctExt) set(e *ristretto255.Element) { (*extPoint)(p).set(e) }

// element sets e to p; false if p is not on the curve (only a bug can
// cause it).
func (p *ctExt) element(e *ristretto255.Element) bool { return (*extPoint)(p).element(e) }

func (p *ctExt) identity() {
	p.X.Zero()
	p.Y.One()
	p.Z.One()
	p.T.Zero()
}

// fromCompleted sets p to c (4 multiplications).
func (p *ctExt) fromCompleted(c *ctCompleted) {
	p.X.Multiply(&c.X, &c.T)
	p.Y.Multiply(&c.Y, &c.Z)
	p.Z.Multiply(&c.Z, &c.T)
	p.T.Multiply(&c.X, &c.Y)
}

// fromCompletedXYZ sets X, Y, Z of p to c and leaves T stale: enough for
// a doubling, which does not read T (3 multiplications).
func (p *ctExt) fromCompletedXYZ(c *ctCompleted) {
	p.X.Multiply(&c.X, &c.T)
	p.Y.Multiply(&c.Y, &c.Z)
	p.Z.Multiply(&c.Z, &c.T)
}

// double sets c = 2p (p's T is not read).
func (c *ctCompleted) double(p *ctExt) {
	var xx, yy, zz2, s field.Element
	xx.Square(&p.X)
	yy.Square(&p.Y)
	zz2.Square(&p.Z)
	zz2.Add(&zz2, &zz2)
	s.Add(&p.X, &p.Y)
	s.Square(&s)
	c.Y.Add(&yy, &xx)
	c.Z.Subtract(&yy, &xx)
	c.X.Subtract(&s, &c.Y)
	c.T.Subtract(&zz2, &c.Z)
}

// add sets c = p + q.
func (c *ctCompleted) add(p *ctExt, q *ctCached) {
	var ypx, ymx, pp, mm, tt, zz2 field.Element
	ypx.Add(&p.Y, &p.X)
	ymx.Subtract(&p.Y, &p.X)
	pp.Multiply(&ypx, &q.ypx)
	mm.Multiply(&ymx, &q.ymx)
	tt.Multiply(&p.T, &q.t2d)
	zz2.Multiply(&p.Z, &q.z)
	zz2.Add(&zz2, &zz2)
	c.X.Subtract(&pp, &mm)
	c.Y.Add(&pp, &mm)
	c.Z.Add(&zz2, &tt)
	c.T.Subtract(&zz2, &tt)
}

func (q *ctCached) fromExt(p *ctExt) {
	q.ypx.Add(&p.Y, &p.X)
	q.ymx.Subtract(&p.Y, &p.X)
	q.z = p.Z
	q.t2d.Multiply(&p.T, edD2)
}

// lookup sets q to d*P from tab (tab[j] = (j+1)*P), d in [-8, 8], reading
// every entry whatever d.
func (q *ctCached) lookup(tab *[8]ctCached, d int8) {
	neg := d >> 7 // -1 when d < 0
	abs := uint8((d + neg) ^ neg)
	q.ypx.One()
	q.ymx.One()
	q.z.One()
	q.t2d.Zero()
	for j := range tab {
		cond := subtle.ConstantTimeByteEq(abs, uint8(j+1))
		q.ypx.Select(&tab[j].ypx, &q.ypx, cond)
		q.ymx.Select(&tab[j].ymx, &q.ymx, cond)
		q.z.Select(&tab[j].z, &q.z, cond)
		q.t2d.Select(&tab[j].t2d, &q.t2d, cond)
	}
	// -P = (Y-X, Y+X, Z, -2d*T) in this form.
	isNeg := int(neg & 1)
	q.ypx.Swap(&q.ymx, isNeg)
	var nt field.Element
	nt.Negate(&q.t2d)
	q.t2d.Select(&nt, &q.t2d, isNeg)
}

// radix16 returns the signed radix-16 digits of s (below 2^253): 64
// digits in [-8, 8), least significant first, computed without branches.
func radix16(s *ristretto255.Scalar) [64]int8 {
	var b [32]byte
	copy(b[:], s.Bytes())
	var d [64]int8
	for i := range b {
		d[2*i] = int8(b[i] & 15)
		d[2*i+1] = int8(b[i] >> 4)
	}
	for i := 0; i < 63; i++ {
		carry := (d[i] + 8) >> 4
		d[i] -= carry << 4
		d[i+1] += carry
	}
	return d
}

// splitTable holds, for a point P and q = 0..3, the multiples 1..8 of
// 2^(64q)*P.
type splitTable [4][8]ctCached

// splitMultiples sets m[q][j] = (j+1)*2^(64q)*p.
func splitMultiples(p *ctExt, m *[4][8]ctExt) {
	var c ctCompleted
	var pc ctCached
	base := *p
	for q := range m {
		if q > 0 {
			// base = 2^64 * base: 63 doublings without T, the last with it.
			for k := 0; k < 64; k++ {
				c.double(&base)
				if k < 63 {
					base.fromCompletedXYZ(&c)
				} else {
					base.fromCompleted(&c)
				}
			}
		}
		row := &m[q]
		row[0] = base
		pc.fromExt(&base)
		c.double(&base)
		row[1].fromCompleted(&c)
		for j := 2; j < 8; j++ {
			c.add(&row[j-1], &pc)
			row[j].fromCompleted(&c)
		}
	}
}

// fill makes p's table.
func (t *splitTable) fill(p *ctExt) {
	var m [4][8]ctExt
	splitMultiples(p, &m)
	for q := range t {
		for j := range t[q] {
			t[q][j].fromExt(&m[q][j])
		}
	}
}

// SplitTable is a point prepared for several constant-time multiplications
// (NewSplitTable): each costs about 0.48 of a ScalarMult after the table,
// which costs about 0.6 (BenchmarkSplitTable): two multiplications of one
// point cost about 1.56 instead of 2. It is read-only once made
// and safe for concurrent use.
type SplitTable struct {
	p   ristretto255.Element
	tab *splitTable // nil when the coordinates cannot be read (ctLayoutOK)
}

// NewSplitTable prepares p for ScalarMult. Its time does not depend on p
// beyond what p is.
func NewSplitTable(p *ristretto255.Element) *SplitTable {
	t := &SplitTable{}
	t.p.Set(p)
	if ctLayoutOK {
		var e ctExt
		e.set(p)
		t.tab = new(splitTable)
		t.tab.fill(&e)
	}
	return t
}

// ScalarMult sets dst = s*P and returns dst, in time that does not depend
// on s: the same result as dst.ScalarMult(s, P).
func (t *SplitTable) ScalarMult(dst *ristretto255.Element, s *ristretto255.Scalar) *ristretto255.Element {
	if t.tab == nil {
		return dst.ScalarMult(s, &t.p)
	}
	d := radix16(s)
	var acc ctExt
	acc.identity()
	var c ctCompleted
	var sel ctCached
	for i := 15; i >= 0; i-- {
		if i < 15 {
			for k := 0; k < 3; k++ {
				c.double(&acc)
				acc.fromCompletedXYZ(&c)
			}
			c.double(&acc)
			acc.fromCompleted(&c)
		}
		for q := range t.tab {
			sel.lookup(&t.tab[q], d[16*q+i])
			c.add(&acc, &sel)
			acc.fromCompleted(&c)
		}
	}
	if !acc.element(dst) {
		panic("group: internal error: SplitTable result off the curve")
	}
	return dst
}

// ctNiels is an affine point prepared for additions: (y+x, y-x, 2d*x*y).
type ctNiels struct{ ypx, ymx, t2d field.Element }

// addNiels sets c = p + q.
func (c *ctCompleted) addNiels(p *ctExt, q *ctNiels) {
	var ypx, ymx, pp, mm, tt, zz2 field.Element
	ypx.Add(&p.Y, &p.X)
	ymx.Subtract(&p.Y, &p.X)
	pp.Multiply(&ypx, &q.ypx)
	mm.Multiply(&ymx, &q.ymx)
	tt.Multiply(&p.T, &q.t2d)
	zz2.Add(&p.Z, &p.Z)
	c.X.Subtract(&pp, &mm)
	c.Y.Add(&pp, &mm)
	c.Z.Add(&zz2, &tt)
	c.T.Subtract(&zz2, &tt)
}

// lookup sets q to d*P from tab (tab[j] = (j+1)*P), d in [-8, 8], reading
// every entry whatever d.
func (q *ctNiels) lookup(tab *[8]ctNiels, d int8) {
	neg := d >> 7 // -1 when d < 0
	abs := uint8((d + neg) ^ neg)
	q.ypx.One()
	q.ymx.One()
	q.t2d.Zero()
	for j := range tab {
		cond := subtle.ConstantTimeByteEq(abs, uint8(j+1))
		q.ypx.Select(&tab[j].ypx, &q.ypx, cond)
		q.ymx.Select(&tab[j].ymx, &q.ymx, cond)
		q.t2d.Select(&tab[j].t2d, &q.t2d, cond)
	}
	isNeg := int(neg & 1)
	q.ypx.Swap(&q.ymx, isNeg)
	var nt field.Element
	nt.Negate(&q.t2d)
	q.t2d.Select(&nt, &q.t2d, isNeg)
}

// FixedTable is a fixed point (a generator) prepared once for
// constant-time multi-scalar multiplications (FixedMSM): the multiples
// 1..8 of 2^(64q)*P, q = 0..3, in affine form (about 4 KB; making it costs
// about 0.7 of a ScalarMult). It is read-only once made and safe for
// concurrent use.
type FixedTable struct {
	p   ristretto255.Element
	tab *[4][8]ctNiels // nil when the coordinates cannot be read (ctLayoutOK)
}

// NewFixedTable prepares p for FixedMSM.
func NewFixedTable(p *ristretto255.Element) *FixedTable {
	t := &FixedTable{}
	t.p.Set(p)
	if !ctLayoutOK {
		return t
	}
	var e ctExt
	e.set(p)
	var m [4][8]ctExt
	splitMultiples(&e, &m)
	// To affine with one inversion (Montgomery's trick; Z is never zero).
	var prefix [32]field.Element
	acc := new(field.Element).One()
	for k := 0; k < 32; k++ {
		prefix[k] = *acc
		acc.Multiply(acc, &m[k/8][k%8].Z)
	}
	var inv, zi, x, y field.Element
	inv.Invert(acc)
	t.tab = new([4][8]ctNiels)
	for k := 31; k >= 0; k-- {
		pt := &m[k/8][k%8]
		zi.Multiply(&inv, &prefix[k])
		inv.Multiply(&inv, &pt.Z)
		x.Multiply(&pt.X, &zi)
		y.Multiply(&pt.Y, &zi)
		n := &t.tab[k/8][k%8]
		n.ypx.Add(&y, &x)
		n.ymx.Subtract(&y, &x)
		n.t2d.Multiply(&x, &y)
		n.t2d.Multiply(&n.t2d, edD2)
	}
	return t
}

// FixedMSM returns sum_i sc[i]*P_i, P_i the point of tabs[i], in time that
// does not depend on the scalars: the same element as ristretto255's
// MultiScalarMult, with no doubling beyond 60 and no per-call table.
func FixedMSM(sc []*ristretto255.Scalar, tabs []*FixedTable) *ristretto255.Element {
	if len(sc) != len(tabs) {
		panic("group: internal error: FixedMSM lengths differ")
	}
	out := ristretto255.NewIdentityElement()
	for _, t := range tabs {
		if t.tab == nil {
			pts := make([]*ristretto255.Element, len(tabs))
			for i := range tabs {
				pts[i] = &tabs[i].p
			}
			return out.MultiScalarMult(sc, pts)
		}
	}
	digits := make([][64]int8, len(sc))
	for i, s := range sc {
		digits[i] = radix16(s)
	}
	var acc ctExt
	acc.identity()
	var c ctCompleted
	var sel ctNiels
	for i := 15; i >= 0; i-- {
		if i < 15 {
			for k := 0; k < 3; k++ {
				c.double(&acc)
				acc.fromCompletedXYZ(&c)
			}
			c.double(&acc)
			acc.fromCompleted(&c)
		}
		for k, t := range tabs {
			d := &digits[k]
			for q := range t.tab {
				sel.lookup(&t.tab[q], d[16*q+i])
				c.addNiels(&acc, &sel)
				acc.fromCompleted(&c)
			}
		}
	}
	if !acc.element(out) {
		panic("group: internal error: FixedMSM result off the curve")
	}
	return out
}
