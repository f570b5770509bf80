package shuffle

import (
	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// Proof is a decoded proof: the seven commitments and the responses.
type Proof struct {
	CPi, CM, CD, CLow, CMid, K, K3 group.Point
	A                              []*ristretto255.Scalar // a~_0..a~_{n-1}
	B                              []*ristretto255.Scalar // b~_1..b~_{n-2}
	R, S, Z                        *ristretto255.Scalar   // r~, s~, z_alpha
	raw                            []byte
}

// DecodeProof decodes a proof for lists of n elements: the seven points
// canonical and not the identity, every scalar canonical, the length exactly
// Size(n). Anything else is ErrProofEncoding (ErrParams for a bad n).
func DecodeProof(b []byte, n int) (*Proof, error) {
	if n < MinSize || n > MaxSize {
		return nil, ErrParams
	}
	if len(b) != Size(n) {
		return nil, ErrProofEncoding
	}
	p := &Proof{raw: append([]byte(nil), b...)}
	for i, dst := range []*group.Point{&p.CPi, &p.CM, &p.CD, &p.CLow, &p.CMid, &p.K, &p.K3} {
		q, err := group.DecodePoint(b[i*group.PointSize : (i+1)*group.PointSize])
		if err != nil {
			return nil, ErrProofEncoding
		}
		*dst = *q
	}
	sc := make([]*ristretto255.Scalar, 2*n+1)
	off := proofPoints * group.PointSize
	for i := range sc {
		s, err := group.DecodeScalar(b[off+i*group.ScalarSize : off+(i+1)*group.ScalarSize])
		if err != nil {
			return nil, ErrProofEncoding
		}
		sc[i] = s
	}
	p.A, p.B = sc[:n:n], sc[n:2*n-2:2*n-2]
	p.R, p.S, p.Z = sc[2*n-2], sc[2*n-1], sc[2*n]
	return p, nil
}

// Verify checks proof against st. It returns nil, ErrProofEncoding for a
// malformed proof, ErrInvalidProof for a well-formed one that does not
// verify, or ErrParams for a malformed statement.
func Verify(st *Statement, proof []byte) error {
	if err := st.check(); err != nil {
		return err
	}
	p, err := DecodeProof(proof, len(st.In))
	if err != nil {
		return err
	}
	return p.Check(st)
}

// Decode checks the shape of st and decodes proof for it: the first half of
// Verify, for a caller that checks the equation later (AddToBatch). It
// returns ErrParams or ErrProofEncoding as Verify does.
func Decode(st *Statement, proof []byte) (*Proof, error) {
	if err := st.check(); err != nil {
		return nil, err
	}
	return DecodeProof(proof, len(st.In))
}

// Check is the second half of Verify: it checks p (from Decode) against st
// and returns nil or ErrInvalidProof.
func (p *Proof) Check(st *Statement) error {
	sc, pts := p.terms(st)
	// The terms of the generators G_k, H and B (fixed points: terms'
	// first n+1 and third from the end) use their prepared tables.
	n := len(st.In)
	gv, hv, bv := varTables(n)
	fsc := make([]*ristretto255.Scalar, 0, n+2)
	fsc = append(append(fsc, sc[:n+1]...), sc[len(sc)-3])
	fixed := make([]*group.VarTable, 0, n+2)
	fixed = append(append(fixed, gv...), hv, bv)
	rest := make([]*ristretto255.Scalar, 0, len(sc)-n-2)
	rest = append(append(rest, sc[n+1:len(sc)-3]...), sc[len(sc)-2:]...)
	restPts := make([]*ristretto255.Element, 0, len(sc)-n-2)
	restPts = append(append(restPts, pts[n+1:len(pts)-3]...), pts[len(pts)-2:]...)
	if group.VarTimeMSMTables(fsc, fixed, rest, restPts).Equal(ristretto255.NewIdentityElement()) != 1 {
		return ErrInvalidProof
	}
	return nil
}

// AddToBatch adds to b (a group.Batch, or a group.Terms list) the terms of p's verification equation (the sum
// Check computes) multiplied by the weight w, so that many proofs, and
// other equations, can be checked with one multi-scalar multiplication
// (protocol.md 4, "Batch verification"). Points are taken by reference:
// st's and p's points must not change while b is in use.
func (p *Proof) AddToBatch(b group.Adder, st *Statement, w *ristretto255.Scalar) {
	sc, pts := p.terms(st)
	group.AddScaled(b, w, sc, pts)
}

// varTimeMSM returns sum sc[i]*pts[i] in variable time (public scalars
// only), as two halves computed on two cores.
func varTimeMSM(sc []*ristretto255.Scalar, pts []*ristretto255.Element) *ristretto255.Element {
	half := len(sc) / 2
	parts := [2]*ristretto255.Element{}
	par.For(2, 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a, b := i*half, half+i*(len(sc)-half)
			parts[i] = group.VarTimeMSM(sc[a:b], pts[a:b])
		}
	})
	return parts[0].Add(parts[0], parts[1])
}

// terms returns the scalars and points of the single multi-scalar
// multiplication that is the identity exactly when the four verification
// equations, weighted by w_1..w_4, sum to the identity (protocol.md 4,
// "Shuffle argument"):
//
//	E1 = x*(y*C_pi + C_m - z*sum G_k) + C_d - <a~, G> - r~*H
//	E2 = x*C_mid + C_low - <v, G'> - s~*H, v_i = x*b~_{i+1} - b~_i*a~_{i+1}
//	E3 = <a~, Out> - z_alpha*<f, In> - K
//	E4 = z_alpha*B - K3 - x*Key
func (p *Proof) terms(st *Statement) ([]*ristretto255.Scalar, []*ristretto255.Element) {
	n := len(st.In)
	G, H := generators(n)
	h0 := statementDigest(st)
	pt := func(i int) []byte { return p.raw[i*group.PointSize : (i+1)*group.PointSize] }
	h1 := roundDigest(h0, 1, pt(0))
	e := vectorChallenge(h1, n)
	h2 := roundDigest(h1, 2, pt(1))
	y := group.NewTranscript(LabelY).Bytes(h2[:]).Scalar()
	z := group.NewTranscript(LabelZ).Bytes(h2[:]).Scalar()
	f, b := fvalues(e, y, z)
	h3 := roundDigest(h2, 3, pt(2), pt(3), pt(4), pt(5), pt(6))
	x := group.NewTranscript(LabelX).Bytes(h3[:]).Scalar()
	wd := group.NewTranscript(LabelWeights).Bytes(h3[:]).Bytes(p.raw).Sum()
	w := make([]*ristretto255.Scalar, 4)
	for i := range w {
		w[i] = group.NewTranscript(LabelWeights).Bytes(wd[:]).Int(i + 1).Scalar()
	}

	// b~ with its two implied ends: b~_0 = a~_0, b~_{n-1} = x*b.
	bt := make([]*ristretto255.Scalar, n)
	bt[0] = p.A[0]
	copy(bt[1:n-1], p.B)
	bt[n-1] = ristretto255.NewScalar().Multiply(x, b)

	sc := make([]*ristretto255.Scalar, 0, 3*n+10)
	pts := make([]*ristretto255.Element, 0, 3*n+10)
	add := func(s *ristretto255.Scalar, e *ristretto255.Element) {
		sc = append(sc, s)
		pts = append(pts, e)
	}
	mul := func(a, b *ristretto255.Scalar) *ristretto255.Scalar { return ristretto255.NewScalar().Multiply(a, b) }
	neg := func(a *ristretto255.Scalar) *ristretto255.Scalar { return ristretto255.NewScalar().Negate(a) }

	// G_k: -w1*(a~_k + x*z) - w2*v_k (v_k only for k < n-1); then H (Check
	// relies on these n+1 terms coming first).
	xz := mul(x, z)
	w2x := mul(w[1], x)
	// The per-index scalars of G_k, Out[k] and In[k] are computed on every
	// core (each from its index alone), then listed in order.
	gsc, outSc, inSc := make([]*ristretto255.Scalar, n), make([]*ristretto255.Scalar, n), make([]*ristretto255.Scalar, n)
	w3z := neg(mul(w[2], p.Z))
	par.For(n, 16, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			s := ristretto255.NewScalar().Add(p.A[k], xz)
			s.Multiply(s, w[0])
			if k < n-1 {
				// w2*v_k = w2*x*b~_{k+1} - w2*b~_k*a~_{k+1}
				v := mul(w2x, bt[k+1])
				v.Subtract(v, mul(mul(w[1], bt[k]), p.A[k+1]))
				s.Add(s, v)
			}
			gsc[k] = s.Negate(s)
			outSc[k] = mul(w[2], p.A[k])
			inSc[k] = mul(w3z, f[k])
		}
	})
	for k := 0; k < n; k++ {
		add(gsc[k], G[k])
	}
	add(neg(ristretto255.NewScalar().Add(mul(w[0], p.R), mul(w[1], p.S))), H)
	w1x := mul(w[0], x)
	add(mul(w1x, y), p.CPi.Element())
	add(w1x, p.CM.Element())
	add(w[0], p.CD.Element())
	add(w2x, p.CMid.Element())
	add(w[1], p.CLow.Element())
	// E3.
	for k := 0; k < n; k++ {
		add(outSc[k], st.Out[k].Element())
	}
	for j := 0; j < n; j++ {
		add(inSc[j], st.In[j].Element())
	}
	add(neg(w[2]), p.K.Element())
	// E4 (Check relies on B being third from the end).
	add(mul(w[3], p.Z), ristretto255.NewGeneratorElement())
	add(neg(w[3]), p.K3.Element())
	add(neg(mul(w[3], x)), st.Key.Element())
	return sc, pts
}
