package group

import (
	"bytes"
	"crypto/sha512"
	"encoding/binary"
	"sync"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// Ed25519 signature verification with precomputed tables: R' = [S]B - [k]A
// is computed from a table of multiples of the base point B (made once) and
// one of the public key A (made once per key), each window's signed digit
// adding one table point, with no doubling at all; the rest is RFC 8032's
// verification exactly as crypto/ed25519.Verify does it (Go 1.26,
// cofactorless): a public key that edwards25519's SetBytes refuses never
// verifies, sig[63]&224 must be zero, S must be canonical, k is SHA-512(R ||
// A || M) reduced, and the encoding of R' must equal the signature's R
// bytes. The arithmetic is exact on the whole curve (the formulas are
// complete; a key or R with a small-order component gives the same point
// as crypto/ed25519's), so both accept exactly the same signatures
// (TestEd25519KeyMatchesStdlib, FuzzEd25519Key). Variable time: for public
// keys, messages and signatures only.

// Table windows: the base point's table has 2^(edBaseC-1) multiples a
// window (ceil(253/edBaseC)+1 windows, 2,368 points, about 280 KB, made on
// first use), a key's 2^(edKeyC-1) (1,408 points, about 170 KB a key). A
// verification adds 37 + 44 table points (callgrind: 204 thousand
// instructions, 236 thousand with 6 and 5).
const (
	edBaseC = 7
	edKeyC  = 6
)

// fixedTable holds, for window i and digit d in [1, 2^(c-1)], the point
// d*2^(c*i)*P in affine Niels form at tab[i*2^(c-1)+d-1].
type fixedTable struct {
	c, windows int
	tab        []niels
}

// newFixedTable makes P's table (P as extended coordinates).
func newFixedTable(p *extPoint, c int) *fixedTable {
	windows := (scalarBits+c-1)/c + 1
	half := 1 << (c - 1)
	ext := make([]extPoint, windows*half)
	base := *p
	for i := 0; i < windows; i++ {
		row := ext[i*half : (i+1)*half]
		row[0] = base
		for d := 1; d < half; d++ {
			row[d] = row[d-1]
			row[d].add(&base)
		}
		// The next window's base is 2^c * base = 2 * (2^(c-1) * base).
		base = row[half-1]
		base.double()
	}
	return &fixedTable{c: c, windows: windows, tab: extToNiels(ext)}
}

// extToNiels converts points to affine Niels form with one inversion
// (Montgomery's trick over their Z coordinates, never zero on the curve).
// A point with Z = 1 (a decoded one) is affine already: it takes no part
// in the inversion, and T = x*y.
func extToNiels(ext []extPoint) []niels {
	n := len(ext)
	out := make([]niels, n)
	// prefix[m] is the product of the Z of the first m+1 points of idx.
	idx := make([]int, 0, n)
	prefix := make([]field.Element, 0, n)
	for i := range ext {
		if ext[i].Z.Equal(feOne) == 1 {
			out[i].ypx.Add(&ext[i].Y, &ext[i].X)
			out[i].ymx.Subtract(&ext[i].Y, &ext[i].X)
			out[i].t2d.Multiply(&ext[i].T, edD2)
			continue
		}
		var p field.Element
		if len(prefix) == 0 {
			p = ext[i].Z
		} else {
			p.Multiply(&prefix[len(prefix)-1], &ext[i].Z)
		}
		idx = append(idx, i)
		prefix = append(prefix, p)
	}
	if len(idx) == 0 {
		return out
	}
	var inv, zi, x, y field.Element
	inv.Invert(&prefix[len(prefix)-1])
	for m := len(idx) - 1; m >= 0; m-- {
		i := idx[m]
		if m > 0 {
			zi.Multiply(&inv, &prefix[m-1])
			inv.Multiply(&inv, &ext[i].Z)
		} else {
			zi = inv
		}
		x.Multiply(&ext[i].X, &zi)
		y.Multiply(&ext[i].Y, &zi)
		out[i].ypx.Add(&y, &x)
		out[i].ymx.Subtract(&y, &x)
		out[i].t2d.Multiply(&x, &y)
		out[i].t2d.Multiply(&out[i].t2d, edD2)
	}
	return out
}

// feOne is 1.
var feOne = new(field.Element).One()

// addMul adds s*P to acc (or subtracts it when neg), s given as its 32-byte
// little-endian encoding, below 2^253.
func (t *fixedTable) addMul(acc *extPoint, s []byte, neg bool, dig []int32) {
	dig = dig[:t.windows]
	signedDigits(s, t.c, dig)
	half := 1 << (t.c - 1)
	for i, d := range dig {
		switch {
		case d > 0:
			acc.addNiels(&t.tab[i*half+int(d)-1], neg)
		case d < 0:
			acc.addNiels(&t.tab[i*half+int(-d)-1], !neg)
		}
	}
}

// setPoint reads an edwards25519 point's coordinates.
func (p *extPoint) setPoint(q *edwards25519.Point) {
	x, y, z, t := q.ExtendedCoordinates()
	p.X, p.Y, p.Z, p.T = *x, *y, *z, *t
}

var edBaseTable = sync.OnceValue(func() *fixedTable {
	var b extPoint
	b.setPoint(edwards25519.NewGeneratorPoint())
	return newFixedTable(&b, edBaseC)
})

// Ed25519Key is an Ed25519 public key ready to verify signatures fast (its
// table made once). It is safe for concurrent use.
type Ed25519Key struct {
	raw [32]byte
	tab *fixedTable // nil when the key does not decode
}

// NewEd25519Key prepares pub, which must be 32 bytes (crypto/ed25519.Verify
// panics on another length; NewEd25519Key returns nil). A key that does not
// decode is kept: it verifies nothing, as with crypto/ed25519.
func NewEd25519Key(pub []byte) *Ed25519Key {
	if len(pub) != 32 {
		return nil
	}
	k := &Ed25519Key{}
	copy(k.raw[:], pub)
	a, err := new(edwards25519.Point).SetBytes(pub)
	if err != nil {
		return k
	}
	var p extPoint
	p.setPoint(a)
	k.tab = newFixedTable(&p, edKeyC)
	return k
}

// Verify reports whether sig is k's valid signature of msg: exactly
// crypto/ed25519.Verify(pub, msg, sig).
func (k *Ed25519Key) Verify(msg, sig []byte) bool {
	var acc extPoint
	if !k.rPrime(&acc, msg, sig) {
		return false
	}
	var r edwards25519.Point
	if _, err := r.SetExtendedCoordinates(&acc.X, &acc.Y, &acc.Z, &acc.T); err != nil {
		return false // only a bug can leave the curve
	}
	return bytes.Equal(sig[:32], r.Bytes())
}

// rPrime sets acc to R' = [S]B - [k]A for sig and msg; false, for a
// signature that fails before R' is compared (no key, a bad length, S not
// canonical, the three top bits set).
func (k *Ed25519Key) rPrime(acc *extPoint, msg, sig []byte) bool {
	var s, hs [32]byte
	if !k.scalars(&s, &hs, msg, sig) {
		return false
	}
	acc.identity()
	var dig [64]int32
	edBaseTable().addMul(acc, s[:], false, dig[:])
	k.tab.addMul(acc, hs[:], true, dig[:])
	return true
}

// scalars sets s to S and hs to k = SHA-512(R || A || M) reduced, both
// as 32 little-endian bytes; false as rPrime.
func (k *Ed25519Key) scalars(s, hs *[32]byte, msg, sig []byte) bool {
	if k == nil || k.tab == nil || len(sig) != 64 || sig[63]&224 != 0 {
		return false
	}
	h := sha512.New()
	h.Write(sig[:32])
	h.Write(k.raw[:])
	h.Write(msg)
	var digest [64]byte
	hsc, err := new(edwards25519.Scalar).SetUniformBytes(h.Sum(digest[:0]))
	if err != nil {
		return false
	}
	sc, err := new(edwards25519.Scalar).SetCanonicalBytes(sig[32:])
	if err != nil {
		return false
	}
	copy(s[:], sc.Bytes())
	copy(hs[:], hsc.Bytes())
	return true
}

// ext8 is eight points in extended coordinates, one a lane (fe8).
type ext8 struct{ X, Y, Z, T fe8 }

// niels8 is eight points in affine Niels form, one a lane.
type niels8 struct{ ypx, ymx, t2d fe8 }

// nielsIdentity is the identity in affine Niels form: y+x = y-x = 1, 2d*x*y = 0.
var nielsIdentity = niels{ypx: *feOne, ymx: *feOne}

// setLane puts q (or -q when neg: y+x and y-x swapped, 2d*x*y negated)
// in lane i.
func (q8 *niels8) setLane(i int, q *niels, neg bool) {
	if !neg {
		q8.ypx.set(i, &q.ypx)
		q8.ymx.set(i, &q.ymx)
		q8.t2d.set(i, &q.t2d)
		return
	}
	var t field.Element
	t.Negate(&q.t2d)
	q8.ypx.set(i, &q.ymx)
	q8.ymx.set(i, &q.ypx)
	q8.t2d.set(i, &t)
}

// addNiels8 sets p = p + q lane by lane: extPoint.addNiels on fe8.
func (p *ext8) addNiels8(q *niels8) {
	var ypx, ymx, pp, mm, tt, zz2, cx, cy, cz, ct fe8
	fe8Add(&ypx, &p.Y, &p.X)
	fe8Sub(&ymx, &p.Y, &p.X)
	fe8Mul(&pp, &ypx, &q.ypx)
	fe8Mul(&mm, &ymx, &q.ymx)
	fe8Mul(&tt, &p.T, &q.t2d)
	fe8Add(&zz2, &p.Z, &p.Z)
	fe8Sub(&cx, &pp, &mm)
	fe8Add(&cy, &pp, &mm)
	fe8Add(&cz, &zz2, &tt)
	fe8Sub(&ct, &zz2, &tt)
	fe8Mul(&p.X, &cx, &ct)
	fe8Mul(&p.Y, &cy, &cz)
	fe8Mul(&p.Z, &cz, &ct)
	fe8Mul(&p.T, &cx, &cy)
}

// addMulLanes adds to each lane i of p (i < len(tabs)) s[i]*P_i from
// tabs[i] (subtracts it when neg), s[i] as 32 little-endian bytes below
// 2^253: fixedTable.addMul, lane by lane; every table has the same c.
func (p *ext8) addMulLanes(tabs []*fixedTable, s [][32]byte, neg bool) {
	c, windows := tabs[0].c, tabs[0].windows
	half := 1 << (c - 1)
	var dig [8][64]int32
	for i := range tabs {
		signedDigits(s[i][:], c, dig[i][:windows])
	}
	var q niels8
	for i := len(tabs); i < 8; i++ {
		q.setLane(i, &nielsIdentity, false)
	}
	for w := 0; w < windows; w++ {
		for i, t := range tabs {
			switch d := dig[i][w]; {
			case d > 0:
				q.setLane(i, &t.tab[w*half+int(d)-1], neg)
			case d < 0:
				q.setLane(i, &t.tab[w*half+int(-d)-1], !neg)
			default:
				q.setLane(i, &nielsIdentity, false)
			}
		}
		p.addNiels8(&q)
	}
}

// rPrimeLanes sets *acc[i] to R' of the i-th of at most eight signatures
// whose scalars s and hs and keys are given: rPrime on fe8's lanes.
func rPrimeLanes(acc []*extPoint, keys []*Ed25519Key, s, hs [][32]byte) {
	var p ext8
	for i := 0; i < 8; i++ {
		p.Y.set(i, feOne)
		p.Z.set(i, feOne)
	}
	base := edBaseTable()
	var tabs [8]*fixedTable
	for i := range keys {
		tabs[i] = base
	}
	p.addMulLanes(tabs[:len(keys)], s, false)
	for i, k := range keys {
		tabs[i] = k.tab
	}
	p.addMulLanes(tabs[:len(keys)], hs, true)
	for i := range acc {
		p.X.get(i, &acc[i].X)
		p.Y.get(i, &acc[i].Y)
		p.Z.get(i, &acc[i].Z)
		p.T.get(i, &acc[i].T)
	}
}

// VerifyEd25519Batch reports, for each i, whether sigs[i] is keys[i]'s
// valid signature of msgs[i]: exactly keys[i].Verify(msgs[i], sigs[i])
// (a nil key verifies nothing), each signature checked on its own; only
// the field inversions that encode each R' are shared (Montgomery's
// trick). Variable time, as Verify.
func VerifyEd25519Batch(keys []*Ed25519Key, msgs, sigs [][]byte) []bool {
	ok := make([]bool, len(keys))
	acc := make([]extPoint, len(keys))
	idx := make([]int, 0, len(keys))
	if useFe8 {
		// R' of eight signatures at once, each as rPrime makes it.
		s, hs := make([][32]byte, len(keys)), make([][32]byte, len(keys))
		var ks []*Ed25519Key
		for i, k := range keys {
			if k.scalars(&s[len(idx)], &hs[len(idx)], msgs[i], sigs[i]) {
				idx = append(idx, i)
				ks = append(ks, k)
			}
		}
		var ptrs [8]*extPoint
		for lo := 0; lo < len(idx); lo += 8 {
			hi := min(lo+8, len(idx))
			for m := lo; m < hi; m++ {
				ptrs[m-lo] = &acc[idx[m]]
			}
			rPrimeLanes(ptrs[:hi-lo], ks[lo:hi], s[lo:hi], hs[lo:hi])
		}
	} else {
		for i, k := range keys {
			if k.rPrime(&acc[i], msgs[i], sigs[i]) {
				idx = append(idx, i)
			}
		}
	}
	if len(idx) == 0 {
		return ok
	}
	// prefix[m] = Z_idx[0] * ... * Z_idx[m]; Z is never zero on the curve.
	prefix := make([]field.Element, len(idx))
	prefix[0] = acc[idx[0]].Z
	for m := 1; m < len(idx); m++ {
		prefix[m].Multiply(&prefix[m-1], &acc[idx[m]].Z)
	}
	var inv, zi, x, y field.Element
	inv.Invert(&prefix[len(idx)-1])
	for m := len(idx) - 1; m >= 0; m-- {
		p := &acc[idx[m]]
		if m > 0 {
			zi.Multiply(&inv, &prefix[m-1])
			inv.Multiply(&inv, &p.Z)
		} else {
			zi = inv
		}
		x.Multiply(&p.X, &zi)
		y.Multiply(&p.Y, &zi)
		// Ed25519's encoding: y, with x's sign in the top bit.
		var enc [32]byte
		copy(enc[:], y.Bytes())
		enc[31] |= byte(x.IsNegative() << 7)
		ok[idx[m]] = bytes.Equal(sigs[idx[m]][:32], enc[:])
	}
	return ok
}

// signedDigits writes the signed base-2^c digits of the 32-byte
// little-endian integer b, below 2^253 (each digit in [-2^(c-1), 2^(c-1)),
// least significant first), to out, which has room for every window.
func signedDigits(b []byte, c int, out []int32) {
	var limbs [5]uint64 // one zero limb above the top, for windows that cross it
	for i := 0; i < 4; i++ {
		limbs[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	mask := uint64(1)<<c - 1
	var carry int32
	half, full := int32(1)<<(c-1), int32(1)<<c
	for w := range out {
		bit := w * c
		var v int32
		if bit < 256 {
			i, sh := bit/64, uint(bit%64)
			x := limbs[i] >> sh
			if sh+uint(c) > 64 {
				x |= limbs[i+1] << (64 - sh)
			}
			v = int32(x & mask)
		}
		v += carry
		carry = 0
		if v >= half {
			v -= full
			carry = 1
		}
		out[w] = v
	}
}
