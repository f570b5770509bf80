package group

import (
	"unsafe"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
	"github.com/gtank/ristretto255"
)

// The bucket method on the coordinates of the points: every input point is
// brought to affine Niels form once ((y+x, y-x, 2d*x*y), one field
// inversion shared by all of them), so that adding it to a bucket costs 7
// field multiplications instead of the 9 and a conversion of a general
// addition. The formulas are those of Hisil, Wong, Carter and Dawson (2008)
// for twisted Edwards curves with a = -1 in extended coordinates.
//
// ristretto255.Element keeps its edwards25519.Point as its only field
// (gtank/ristretto255 v0.2.0, pinned in go.mod) but does not export it:
// coordinatesOf reads it through a pointer conversion, and fastOK checks at
// start-up that the layout is the one expected; if it is not, VarTimeMSM
// uses pippenger on ristretto255's own arithmetic instead. A ristretto255
// element is a class of curve points: any representative serves, and the
// sum of representatives represents the sum.

// edD2 is 2*d, d = -121665/121666 the curve constant.
var edD2 = func() *field.Element {
	var num, den field.Element
	num.Mult32(new(field.Element).One(), 121665)
	num.Negate(&num)
	den.Mult32(new(field.Element).One(), 121666)
	den.Invert(&den)
	d := new(field.Element).Multiply(&num, &den)
	return d.Add(d, d)
}()

// fastOK reports whether ristretto255.Element is laid out as one
// edwards25519.Point, so that coordinatesOf and setCoordinates are sound.
var fastOK = func() bool {
	if unsafe.Sizeof(ristretto255.Element{}) != unsafe.Sizeof(edwards25519.Point{}) {
		return false
	}
	g := ristretto255.NewGeneratorElement()
	if (*edwards25519.Point)(unsafe.Pointer(g)).Equal(edwards25519.NewGeneratorPoint()) != 1 {
		return false
	}
	// 2*G through the coordinates must be ristretto255's 2*G.
	var p extPoint
	p.set(g)
	p.double()
	var two ristretto255.Element
	if !p.element(&two) {
		return false
	}
	return two.Equal(ristretto255.NewIdentityElement().Add(g, g)) == 1
}()

// extPoint is a point in extended coordinates: x = X/Z, y = Y/Z, x*y = T/Z.
type extPoint struct{ X, Y, Z, T field.Element }

// completed is a point as (X:Z, Y:T), the output of an addition.
type completed struct{ X, Y, Z, T field.Element }

// niels is an affine point as (y+x, y-x, 2d*x*y).
type niels struct{ ypx, ymx, t2d field.Element }

func (p *extPoint) identity() {
	p.X.Zero()
	p.Y.One()
	p.Z.One()
	p.T.Zero()
}

// set reads e's coordinates (fastOK must hold).
func (p *extPoint) set(e *ristretto255.Element) {
	x, y, z, t := (*edwards25519.Point)(unsafe.Pointer(e)).ExtendedCoordinates()
	p.X, p.Y, p.Z, p.T = *x, *y, *z, *t
}

// element sets e to p (fastOK must hold); false if p is not on the curve,
// which only a bug can cause.
func (p *extPoint) element(e *ristretto255.Element) bool {
	_, err := (*edwards25519.Point)(unsafe.Pointer(e)).SetExtendedCoordinates(&p.X, &p.Y, &p.Z, &p.T)
	return err == nil
}

func (p *extPoint) fromCompleted(c *completed) {
	p.X.Multiply(&c.X, &c.T)
	p.Y.Multiply(&c.Y, &c.Z)
	p.Z.Multiply(&c.Z, &c.T)
	p.T.Multiply(&c.X, &c.Y)
}

// double sets p = 2p, by ctCompleted.double's formula (the same
// coordinates; a doubling has no branch to leak, so the variable-time code
// may share it).
func (p *extPoint) double() {
	var c ctCompleted
	c.double((*ctExt)(p))
	p.fromCompleted((*completed)(&c))
}

// addNiels sets p = p + q, or p - q when neg.
func (p *extPoint) addNiels(q *niels, neg bool) {
	var ypx, ymx, pp, mm, tt, zz2 field.Element
	ypx.Add(&p.Y, &p.X)
	ymx.Subtract(&p.Y, &p.X)
	if neg {
		pp.Multiply(&ypx, &q.ymx)
		mm.Multiply(&ymx, &q.ypx)
	} else {
		pp.Multiply(&ypx, &q.ypx)
		mm.Multiply(&ymx, &q.ymx)
	}
	tt.Multiply(&p.T, &q.t2d)
	zz2.Add(&p.Z, &p.Z)
	var c completed
	c.X.Subtract(&pp, &mm)
	c.Y.Add(&pp, &mm)
	if neg {
		c.Z.Subtract(&zz2, &tt)
		c.T.Add(&zz2, &tt)
	} else {
		c.Z.Add(&zz2, &tt)
		c.T.Subtract(&zz2, &tt)
	}
	p.fromCompleted(&c)
}

// add sets p = p + q.
func (p *extPoint) add(q *extPoint) {
	var ypx, ymx, qypx, qymx, pp, mm, tt, zz2 field.Element
	ypx.Add(&p.Y, &p.X)
	ymx.Subtract(&p.Y, &p.X)
	qypx.Add(&q.Y, &q.X)
	qymx.Subtract(&q.Y, &q.X)
	pp.Multiply(&ypx, &qypx)
	mm.Multiply(&ymx, &qymx)
	tt.Multiply(&p.T, &q.T)
	tt.Multiply(&tt, edD2)
	zz2.Multiply(&p.Z, &q.Z)
	zz2.Add(&zz2, &zz2)
	var c completed
	c.X.Subtract(&pp, &mm)
	c.Y.Add(&pp, &mm)
	c.Z.Add(&zz2, &tt)
	c.T.Subtract(&zz2, &tt)
	p.fromCompleted(&c)
}

// toNiels converts the points to affine Niels form with one inversion
// (Montgomery's trick over their Z coordinates, never zero on the curve).
func toNiels(pts []*ristretto255.Element) []niels {
	ext := make([]extPoint, len(pts))
	for i, e := range pts {
		ext[i].set(e)
	}
	return extToNiels(ext)
}

// pippengerFast is the bucket method on coordinates over every term as a
// full scalar (fastOK must hold).
func pippengerFast(sc []*ristretto255.Scalar, pts []*ristretto255.Element) *ristretto255.Element {
	return newPart(sc, pts).pippengerFast()
}

// pippengerFast is pippenger on coordinates (fastOK must hold). A bucket's
// first point is set, not added (setNiels).
func (p *msmPart) pippengerFast() *ristretto255.Element {
	n := len(p.sc)
	c, windows, dig := p.digitTable()
	q := toNiels(p.pts)
	nb := 1 << (c - 1)
	buckets := make([]extPoint, nb)
	used := make([]bool, nb)
	var acc extPoint
	acc.identity()
	for w := windows - 1; w >= 0; w-- {
		if w != windows-1 {
			for k := 0; k < c; k++ {
				acc.double()
			}
		}
		clear(used)
		for i := 0; i < n; i++ {
			d := dig[w*n+i]
			if d == 0 {
				continue
			}
			neg := d < 0
			if neg {
				d = -d
			}
			if used[d-1] {
				buckets[d-1].addNiels(&q[i], neg)
			} else {
				buckets[d-1].setNiels(&q[i], neg)
				used[d-1] = true
			}
		}
		addBuckets(&acc, buckets, used)
	}
	out := ristretto255.NewIdentityElement()
	if !acc.element(out) {
		panic("group: internal error: bucket method left the curve")
	}
	return out
}

// feTwo is 2; edDInv is 1/d = 2/(2d).
var (
	feTwo  = new(field.Element).Mult32(new(field.Element).One(), 2)
	edDInv = new(field.Element).Multiply(feTwo, new(field.Element).Invert(edD2))
)

// setNiels sets p to q, or to -q when neg: (y+x, y-x, 2d*x*y) gives X =
// 2x, Y = 2y, Z = 2 and T = 2x*y = (2d*x*y)/d.
func (p *extPoint) setNiels(q *niels, neg bool) {
	if neg {
		p.X.Subtract(&q.ymx, &q.ypx)
	} else {
		p.X.Subtract(&q.ypx, &q.ymx)
	}
	p.Y.Add(&q.ypx, &q.ymx)
	p.Z.Set(feTwo)
	p.T.Multiply(&q.t2d, edDInv)
	if neg {
		p.T.Negate(&p.T)
	}
}

// addBuckets adds to acc the sum over k of (k+1) times bucket k, the
// buckets not used counting as the identity: the running sum from the top
// bucket down, added up once per bucket.
func addBuckets(acc *extPoint, buckets []extPoint, used []bool) {
	var sum, tot extPoint
	started := false
	for k := len(buckets) - 1; k >= 0; k-- {
		switch {
		case used[k] && started:
			sum.add(&buckets[k])
		case used[k]:
			sum = buckets[k]
			tot = sum
			started = true
			continue
		}
		if started {
			tot.add(&sum)
		}
	}
	if started {
		acc.add(&tot)
	}
}
