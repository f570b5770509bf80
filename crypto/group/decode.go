package group

import (
	"crypto/subtle"
	"unsafe"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// Decoding several points at once. RFC 9496's Decode costs one square root
// (a chain of about 250 field squarings, each waiting for the one before):
// the chains of a few points, run step by step side by side, overlap on
// the processor, which makes each about a quarter cheaper than alone
// (BenchmarkDecodePoints). Each point is decoded exactly as
// ristretto255's SetCanonicalBytes decodes it (the same steps of RFC 9496,
// the same checks, the same coordinates): only the order of the field
// operations of different points changes.

// decodeLanes is the number of points whose square roots run side by side:
// fe8's eight lanes where the processor has them (useFe8), else side by
// side on field.Element.
const decodeLanes = 8

// feD and feSqrtM1 are the curve constant d and the
// non-negative square root of -1 (RFC 9496's SQRT_M1).
var (
	feD      = new(field.Element).Multiply(edD2, new(field.Element).Invert(feTwo))
	feSqrtM1 = func() *field.Element {
		var m1, r field.Element
		m1.Negate(feOne)
		r.SqrtRatio(&m1, feOne) // the non-negative root: SQRT_M1
		return &r
	}()
	feMinusSqrtM1 = new(field.Element).Negate(feSqrtM1)
	feMinusOne    = new(field.Element).Negate(feOne)
)

// decodeLane is one point's decoding state between the steps.
type decodeLane struct {
	p            *Point
	b            []byte
	err          error
	s, u1, u2, v field.Element
	w, uv3, x    field.Element // w = v*u2^2; x = uv7 then uv7^((p-5)/8)
}

// DecodePair sets p and q to the canonical, non-identity elements a and b
// encode, as p.SetCanonicalBytes(a) and q.SetCanonicalBytes(b) do (the same
// errors), their square roots side by side. On an error the value of that
// point is unspecified.
func DecodePair(p, q *Point, a, b []byte) (errP, errQ error) {
	var lanes [2]decodeLane
	lanes[0].p, lanes[0].b = p, a
	lanes[1].p, lanes[1].b = q, b
	decodeLanesOf(lanes[:])
	return lanes[0].err, lanes[1].err
}

// DecodeInto decodes len(ps) consecutive points from b (exactly
// len(ps)*PointSize bytes) into ps, as SetCanonicalBytes on each (the same
// errors), several side by side. It returns the lowest index whose point
// does not decode, with its error, or (-1, nil); on an error the values of
// the points from that index on are unspecified.
func DecodeInto(ps []Point, b []byte) (int, error) {
	if len(b) != len(ps)*PointSize {
		return 0, ErrPointEncoding
	}
	return decodeAll(len(ps), func(i int) (*Point, []byte) {
		return &ps[i], b[i*PointSize : (i+1)*PointSize]
	})
}

// DecodeEach sets each *ps[i] to the point bs[i] encodes, as
// SetCanonicalBytes (the same errors), several side by side. It returns
// the lowest index whose point does not decode, with its error, or (-1,
// nil); on an error the values of the points from that index on are
// unspecified. ps and bs have the same length.
func DecodeEach(ps []*Point, bs [][]byte) (int, error) {
	if len(ps) != len(bs) {
		panic("group: DecodeEach lengths differ")
	}
	return decodeAll(len(ps), func(i int) (*Point, []byte) { return ps[i], bs[i] })
}

// decodeAll decodes the n points item gives, decodeLanes at a time, and
// returns the lowest failing index with its error, or (-1, nil).
func decodeAll(n int, item func(i int) (*Point, []byte)) (int, error) {
	var lanes [decodeLanes]decodeLane
	for lo := 0; lo < n; lo += decodeLanes {
		k := min(decodeLanes, n-lo)
		for j := 0; j < k; j++ {
			p, b := item(lo + j)
			lanes[j] = decodeLane{p: p, b: b}
		}
		decodeLanesOf(lanes[:k])
		for j := 0; j < k; j++ {
			if lanes[j].err != nil {
				return lo + j, lanes[j].err
			}
		}
	}
	return -1, nil
}

// decodeLanesOf decodes every lane's point, setting its err.
func decodeLanesOf(lanes []decodeLane) {
	if !fastOK {
		for i := range lanes {
			lanes[i].err = lanes[i].p.decode(lanes[i].b)
		}
		return
	}
	live := 0
	for i := range lanes {
		if lanes[i].start() {
			live++
		}
	}
	if live == 0 {
		return
	}
	// x = uv7^((p-5)/8) for every lane, side by side (a lane that failed
	// computes on its zero values: harmless, its result unused).
	var xs [decodeLanes]field.Element
	for i := range lanes {
		xs[i] = lanes[i].x
	}
	pow22523Many(xs[:len(lanes)])
	for i := range lanes {
		lanes[i].x = xs[i]
	}
	for i := range lanes {
		if lanes[i].err == nil {
			lanes[i].finish()
		}
	}
}

// start checks the encoding (length, identity, canonical, non-negative)
// and computes RFC 9496 Decode's values up to the square root's input;
// false (err set) if the encoding is refused.
func (l *decodeLane) start() bool {
	b := l.b
	if len(b) != PointSize {
		l.err = ErrPointEncoding
		return false
	}
	if subtle.ConstantTimeCompare(b, zero32[:]) == 1 {
		l.err = ErrIdentity
		return false
	}
	if _, err := l.s.SetBytes(b); err != nil {
		l.err = ErrPointEncoding
		return false
	}
	// Canonical (below p) and non-negative.
	if subtle.ConstantTimeCompare(l.s.Bytes(), b) != 1 || l.s.IsNegative() == 1 {
		l.err = ErrPointEncoding
		return false
	}
	var ss, u2sq, t field.Element
	ss.Square(&l.s)
	l.u1.Subtract(feOne, &ss)
	l.u2.Add(feOne, &ss)
	u2sq.Square(&l.u2)
	// v = -(d*u1^2) - u2^2
	l.v.Square(&l.u1)
	l.v.Multiply(&l.v, feD)
	l.v.Negate(&l.v)
	l.v.Subtract(&l.v, &u2sq)
	// SQRT_RATIO_M1(1, w), w = v*u2^2: r = w^3 * (w^7)^((p-5)/8).
	l.w.Multiply(&l.v, &u2sq)
	t.Square(&l.w)
	l.uv3.Multiply(&t, &l.w)
	t.Square(&t)
	l.x.Multiply(&l.uv3, &t)
	return true
}

// finish completes the decoding from x = (w^7)^((p-5)/8).
func (l *decodeLane) finish() {
	var r, check, rPrime field.Element
	r.Multiply(&l.uv3, &l.x)
	check.Square(&r)
	check.Multiply(&check, &l.w)
	// SQRT_RATIO_M1's comparisons (field.Element's Equal), on one encoding.
	cb := check.Bytes()
	correct := subtle.ConstantTimeCompare(cb, encOne[:])
	flipped := subtle.ConstantTimeCompare(cb, encMinusOne[:])
	flippedI := subtle.ConstantTimeCompare(cb, encMinusSqrtM1[:])
	rPrime.Multiply(&r, feSqrtM1)
	r.Select(&rPrime, &r, flipped|flippedI)
	r.Absolute(&r)
	wasSquare := correct | flipped
	// den_x = r*u2, den_y = r*den_x*v; x = |2*s*den_x|, y = u1*den_y.
	var denX, denY, X, Y, T field.Element
	denX.Multiply(&r, &l.u2)
	denY.Multiply(&r, &denX)
	denY.Multiply(&denY, &l.v)
	X.Multiply(feTwo, &l.s)
	X.Multiply(&X, &denX)
	X.Absolute(&X)
	Y.Multiply(&l.u1, &denY)
	T.Multiply(&X, &Y)
	if wasSquare == 0 || T.IsNegative() == 1 || subtle.ConstantTimeCompare(Y.Bytes(), zero32[:]) == 1 {
		l.err = ErrPointEncoding
		return
	}
	// (x, y, 1, x*y), on the curve by RFC 9496's construction (what
	// ristretto255's SetCanonicalBytes checks again with
	// SetExtendedCoordinates): set as is where the layout allows.
	if pointLayoutOK {
		pl := (*pointLayout)(unsafe.Pointer(&l.p.el))
		pl.x, pl.y, pl.t = X, Y, T
		pl.z.One()
	} else if _, err := (*edwards25519.Point)(unsafe.Pointer(&l.p.el)).SetExtendedCoordinates(&X, &Y, feOne, &T); err != nil {
		panic("group: internal error: decoding left the curve")
	}
	copy(l.p.enc[:], l.b)
}

// Encodings of 1, -1 and -SQRT_M1.
var encOne, encMinusOne, encMinusSqrtM1 = feEncoding(feOne), feEncoding(feMinusOne), feEncoding(feMinusSqrtM1)

func feEncoding(e *field.Element) (b [32]byte) {
	copy(b[:], e.Bytes())
	return b
}

// pointLayout is edwards25519.Point's layout (filippo.io/edwards25519
// v1.2.0, pinned in go.mod): extended coordinates X, Y, Z, T.
// pointLayoutOK checks it at start-up.
type pointLayout struct{ x, y, z, t field.Element }

// pointLayoutOK reports whether edwards25519.Point is laid out as
// pointLayout (and ristretto255.Element as edwards25519.Point, fastOK).
var pointLayoutOK = func() bool {
	if !fastOK || unsafe.Sizeof(edwards25519.Point{}) != unsafe.Sizeof(pointLayout{}) {
		return false
	}
	// A point with four different coordinates: 3*G, from an addition.
	g := edwards25519.NewGeneratorPoint()
	var p edwards25519.Point
	p.Add(g, g)
	p.Add(&p, g)
	X, Y, Z, T := p.ExtendedCoordinates()
	pl := (*pointLayout)(unsafe.Pointer(&p))
	return pl.x.Equal(X) == 1 && pl.y.Equal(Y) == 1 && pl.z.Equal(Z) == 1 && pl.t.Equal(T) == 1 &&
		Z.Equal(feOne) != 1
}()

// pow22523Many sets each x[i] (at most decodeLanes) to x[i]^((p-5)/8) =
// x[i]^(2^252-3), field.Element's Pow22523, side by side: on fe8's lanes
// where the processor has them, else each step made on every element in
// turn.
func pow22523Many(x []field.Element) {
	if useFe8 && len(x) > 1 {
		pow22523Fe8(x)
		return
	}
	var t0, t1, t2 [decodeLanes]field.Element
	n := len(x)
	sq := func(t *[decodeLanes]field.Element, times int) {
		for k := 0; k < times; k++ {
			for i := 0; i < n; i++ {
				t[i].Square(&t[i])
			}
		}
	}
	for i := 0; i < n; i++ {
		t0[i].Square(&x[i]) // x^2
		t1[i].Square(&t0[i])
		t1[i].Square(&t1[i])           // x^8
		t1[i].Multiply(&x[i], &t1[i])  // x^9
		t0[i].Multiply(&t0[i], &t1[i]) // x^11
		t0[i].Square(&t0[i])           // x^22
		t0[i].Multiply(&t1[i], &t0[i]) // x^31
		t1[i].Set(&t0[i])
	}
	sq(&t1, 5) // x^992
	for i := 0; i < n; i++ {
		t0[i].Multiply(&t1[i], &t0[i]) // 2^10 - 1
		t1[i].Set(&t0[i])
	}
	sq(&t1, 10) // 2^20 - 2^10
	for i := 0; i < n; i++ {
		t1[i].Multiply(&t1[i], &t0[i]) // 2^20 - 1
		t2[i].Set(&t1[i])
	}
	sq(&t2, 20) // 2^40 - 2^20
	for i := 0; i < n; i++ {
		t1[i].Multiply(&t2[i], &t1[i]) // 2^40 - 1
	}
	sq(&t1, 10) // 2^50 - 2^10
	for i := 0; i < n; i++ {
		t0[i].Multiply(&t1[i], &t0[i]) // 2^50 - 1
		t1[i].Set(&t0[i])
	}
	sq(&t1, 50) // 2^100 - 2^50
	for i := 0; i < n; i++ {
		t1[i].Multiply(&t1[i], &t0[i]) // 2^100 - 1
		t2[i].Set(&t1[i])
	}
	sq(&t2, 100) // 2^200 - 2^100
	for i := 0; i < n; i++ {
		t1[i].Multiply(&t2[i], &t1[i]) // 2^200 - 1
	}
	sq(&t1, 50) // 2^250 - 2^50
	for i := 0; i < n; i++ {
		t0[i].Multiply(&t1[i], &t0[i]) // 2^250 - 1
	}
	sq(&t0, 2) // 2^252 - 4
	for i := 0; i < n; i++ {
		x[i].Multiply(&t0[i], &x[i]) // 2^252 - 3
	}
}

// pow22523Fe8 is pow22523Many on fe8's lanes (at most eight elements;
// useFe8 must hold): the same chain, eight lanes an instruction.
func pow22523Fe8(xs []field.Element) {
	var x, t0, t1, t2 fe8
	for i := range xs {
		x.set(i, &xs[i])
	}
	fe8Square(&t0, &x, 1)    // x^2
	fe8Square(&t1, &t0, 2)   // x^8
	fe8Mul(&t1, &x, &t1)     // x^9
	fe8Mul(&t0, &t0, &t1)    // x^11
	fe8Square(&t0, &t0, 1)   // x^22
	fe8Mul(&t0, &t1, &t0)    // x^31
	fe8Square(&t1, &t0, 5)   // x^992
	fe8Mul(&t0, &t1, &t0)    // 2^10 - 1
	fe8Square(&t1, &t0, 10)  // 2^20 - 2^10
	fe8Mul(&t1, &t1, &t0)    // 2^20 - 1
	fe8Square(&t2, &t1, 20)  // 2^40 - 2^20
	fe8Mul(&t1, &t2, &t1)    // 2^40 - 1
	fe8Square(&t1, &t1, 10)  // 2^50 - 2^10
	fe8Mul(&t0, &t1, &t0)    // 2^50 - 1
	fe8Square(&t1, &t0, 50)  // 2^100 - 2^50
	fe8Mul(&t1, &t1, &t0)    // 2^100 - 1
	fe8Square(&t2, &t1, 100) // 2^200 - 2^100
	fe8Mul(&t1, &t2, &t1)    // 2^200 - 1
	fe8Square(&t1, &t1, 50)  // 2^250 - 2^50
	fe8Mul(&t0, &t1, &t0)    // 2^250 - 1
	fe8Square(&t0, &t0, 2)   // 2^252 - 4
	fe8Mul(&t0, &t0, &x)     // 2^252 - 3
	for i := range xs {
		t0.get(i, &xs[i])
	}
}
