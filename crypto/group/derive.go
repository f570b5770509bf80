package group

import (
	"math/big"
	"unsafe"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
	"github.com/gtank/ristretto255"
)

// Element derivation (RFC 9496 4.3.4, the one-way map of 64 uniform bytes)
// and encoding, several points side by side: each costs square roots (two
// maps and the encoding), which run as decoding's do (pow22523Many). Each
// step is ristretto255's own (SetUniformBytes, Bytes): only the order of
// the field operations of different points changes.

// feFromDecimal is the field element of a decimal constant of RFC 9496.
func feFromDecimal(s string) *field.Element {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("group: internal error: bad constant")
	}
	var b [32]byte
	v.FillBytes(b[:])
	for i := 0; i < 16; i++ {
		b[i], b[31-i] = b[31-i], b[i]
	}
	e, err := new(field.Element).SetBytes(b[:])
	if err != nil {
		panic("group: internal error: " + err.Error())
	}
	return e
}

// RFC 9496's constants (4.1).
var (
	feSqrtADMinusOne = feFromDecimal("25063068953384623474111414158702152701244531502492656460079210482610430750235")
	feInvSqrtAMinusD = feFromDecimal("54469307008909316920995813868745141605393597292927456921205312896311721017578")
	feOneMinusDSq    = feFromDecimal("1159843021668779879193775521855586647937357759715417654439879720876111806838")
	feDMinusOneSq    = feFromDecimal("40440834346308536858101042469323190826248399146238708352240133220865137265952")
)

// sqrtRatioMany sets r[i] and was[i] to SQRT_RATIO_M1(u[i], v[i]) (RFC 9496
// 4.2, field.Element's SqrtRatio) for every i, at most decodeLanes.
func sqrtRatioMany(r, u, v []field.Element, was []int) {
	n := len(u)
	var uv3, x [decodeLanes]field.Element
	for i := 0; i < n; i++ {
		var v2, t field.Element
		v2.Square(&v[i])
		uv3[i].Multiply(&u[i], t.Multiply(&v2, &v[i]))
		x[i].Multiply(&uv3[i], t.Square(&v2))
	}
	pow22523Many(x[:n])
	for i := 0; i < n; i++ {
		var rr, check, uNeg, t, rPrime field.Element
		rr.Multiply(&uv3[i], &x[i])
		check.Multiply(&v[i], t.Square(&rr))
		uNeg.Negate(&u[i])
		correct := check.Equal(&u[i])
		flipped := check.Equal(&uNeg)
		flippedI := check.Equal(t.Multiply(&uNeg, feSqrtM1))
		rPrime.Multiply(&rr, feSqrtM1)
		rr.Select(&rPrime, &rr, flipped|flippedI)
		r[i].Absolute(&rr)
		was[i] = correct | flipped
	}
}

// mapMany sets out[i] to RFC 9496's MAP of t[i] (ristretto255's
// mapToPoint), at most decodeLanes.
func mapMany(out []edwards25519.Point, t []field.Element) {
	n := len(t)
	var r, u, v, s [decodeLanes]field.Element
	var was [decodeLanes]int
	for i := 0; i < n; i++ {
		var rPlusD field.Element
		r[i].Multiply(feSqrtM1, r[i].Square(&t[i]))          // r = SQRT_M1*t^2
		u[i].Multiply(u[i].Add(&r[i], feOne), feOneMinusDSq) // u = (r+1)*ONE_MINUS_D_SQ
		rPlusD.Add(&r[i], feD)                               // v = (-1 - r*D)*(r + D)
		v[i].Multiply(v[i].Subtract(feMinusOne, v[i].Multiply(&r[i], feD)), &rPlusD)
	}
	sqrtRatioMany(s[:n], u[:n], v[:n], was[:n])
	for i := 0; i < n; i++ {
		var c, sPrime, nn, s2, w0, w1, w2, w3 field.Element
		sPrime.Negate(sPrime.Absolute(sPrime.Multiply(&s[i], &t[i])))
		s[i].Select(&s[i], &sPrime, was[i])
		c.Select(feMinusOne, &r[i], was[i])
		nn.Multiply(&c, nn.Subtract(&r[i], feOne)) // N = c*(r-1)*D_MINUS_ONE_SQ - v
		nn.Subtract(nn.Multiply(&nn, feDMinusOneSq), &v[i])
		s2.Square(&s[i])
		w0.Add(&w0, w0.Multiply(&s[i], &v[i])) // w0 = 2*s*v
		w1.Multiply(&nn, feSqrtADMinusOne)
		w2.Subtract(feOne, &s2)
		w3.Add(feOne, &s2)
		var X, Y, Z, T field.Element
		X.Multiply(&w0, &w3)
		Y.Multiply(&w2, &w1)
		Z.Multiply(&w1, &w3)
		T.Multiply(&w0, &w2)
		if _, err := out[i].SetExtendedCoordinates(&X, &Y, &Z, &T); err != nil {
			panic("group: internal error: MAP left the curve")
		}
	}
}

// encodeMany sets out[i] to RFC 9496's Encode of e[i] (ristretto255's
// Bytes), at most decodeLanes.
func encodeMany(out [][PointSize]byte, e []edwards25519.Point) {
	n := len(e)
	var u1, u2, one, ratio, inv [decodeLanes]field.Element
	var was [decodeLanes]int
	for i := 0; i < n; i++ {
		X, Y, Z, _ := e[i].ExtendedCoordinates()
		var t field.Element
		u1[i].Add(Z, Y).Multiply(&u1[i], t.Subtract(Z, Y)) // u1 = (Z+Y)*(Z-Y)
		u2[i].Multiply(X, Y)
		ratio[i].Square(&u2[i]).Multiply(&ratio[i], &u1[i])
		one[i].One()
	}
	sqrtRatioMany(inv[:n], one[:n], ratio[:n], was[:n]) // always square
	for i := 0; i < n; i++ {
		X, Y, Z, T := e[i].ExtendedCoordinates()
		var den1, den2, zInv, ix0, iy0, enchanted, tmp, x, y, denInv field.Element
		den1.Multiply(&inv[i], &u1[i])
		den2.Multiply(&inv[i], &u2[i])
		zInv.Multiply(&den1, &den2).Multiply(&zInv, T)
		ix0.Multiply(X, feSqrtM1)
		iy0.Multiply(Y, feSqrtM1)
		enchanted.Multiply(&den1, feInvSqrtAMinusD)
		rotate := tmp.Multiply(T, &zInv).IsNegative()
		x.Select(&iy0, X, rotate)
		y.Select(&ix0, Y, rotate)
		denInv.Select(&enchanted, &den2, rotate)
		isNegative := tmp.Multiply(&x, &zInv).IsNegative()
		y.Select(tmp.Negate(&y), &y, isNegative)
		s := tmp.Subtract(Z, &y).Multiply(&tmp, &denInv).Absolute(&tmp)
		copy(out[i][:], s.Bytes())
	}
}

// PointsFromUniform sets dst[i] to the element RFC 9496's derivation maps
// uniform[i] to (ristretto255's SetUniformBytes; Transcript.Element of a
// transcript whose Sum is uniform[i]), as NewPoint would, several side by
// side. It returns the lowest index whose element is the identity, with
// ErrIdentity (negligible for hash outputs), or (-1, nil); the points
// from that index on are then unspecified. dst and uniform have the same
// length.
func PointsFromUniform(dst []Point, uniform [][64]byte) (int, error) {
	if len(dst) != len(uniform) {
		panic("group: PointsFromUniform lengths differ")
	}
	if !fastOK {
		for i := range dst {
			e, err := ristretto255.NewIdentityElement().SetUniformBytes(uniform[i][:])
			if err != nil {
				panic("group: internal error: " + err.Error())
			}
			if err := dst[i].Set(e); err != nil {
				return i, err
			}
		}
		return -1, nil
	}
	const k = decodeLanes
	var t1, t2 [k]field.Element
	var p1, p2 [k]edwards25519.Point
	var enc [k][PointSize]byte
	for lo := 0; lo < len(dst); lo += k {
		n := min(k, len(dst)-lo)
		for i := 0; i < n; i++ {
			if _, err := t1[i].SetBytes(uniform[lo+i][:32]); err != nil {
				panic("group: internal error: " + err.Error())
			}
			if _, err := t2[i].SetBytes(uniform[lo+i][32:]); err != nil {
				panic("group: internal error: " + err.Error())
			}
		}
		mapMany(p1[:n], t1[:n])
		mapMany(p2[:n], t2[:n])
		for i := 0; i < n; i++ {
			p1[i].Add(&p1[i], &p2[i])
		}
		encodeMany(enc[:n], p1[:n])
		for i := 0; i < n; i++ {
			if enc[i] == zero32 {
				return lo + i, ErrIdentity
			}
			*(*edwards25519.Point)(unsafe.Pointer(&dst[lo+i].el)) = p1[i]
			dst[lo+i].enc = enc[i]
		}
	}
	return -1, nil
}

// edPoints returns the curve points of ristretto255 elements (fastOK must
// hold).
func edPoints(e []ristretto255.Element) []edwards25519.Point {
	out := make([]edwards25519.Point, len(e))
	for i := range e {
		out[i] = *(*edwards25519.Point)(unsafe.Pointer(&e[i]))
	}
	return out
}
