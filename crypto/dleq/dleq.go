// Package dleq implements Chaum-Pedersen proofs of discrete-logarithm
// equality on ristretto255, made non-interactive with a Fiat-Shamir
// challenge that binds a caller-supplied context and every statement point.
//
// A proof that log_G1(H1) = log_G2(H2) = x is (R1, R2, s) with R1 = k*G1,
// R2 = k*G2, s = k + e*x and e = H(context, G1, H1, G2, H2, R1, R2). Proofs
// are kept in this commitment form, rather than as (e, s), so that many can
// be verified together with one multi-scalar multiplication (BatchVerify).
//
// The context must name the protocol, session, prover, phase and item the
// proof is about; the okey deck package builds it. Two proofs with different
// contexts are unrelated: a proof cannot be replayed for another tile, seat
// or session.
package dleq

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// Domain labels.
const (
	LabelChallenge = "okey/v1/dleq/challenge"
	LabelNonce     = "okey/v1/dleq/nonce"
	LabelWeights   = "okey/v1/dleq/batch-weights"
)

// ProofSize is the size of an encoded proof: R1 || R2 || s.
const ProofSize = 2*group.PointSize + group.ScalarSize

var (
	// ErrInvalidProof is returned when a proof does not verify.
	ErrInvalidProof = errors.New("dleq: invalid proof")
	// ErrProofEncoding is returned by DecodeProof for a malformed proof.
	ErrProofEncoding = errors.New("dleq: malformed proof encoding")
)

// Statement is the claim log_G1(H1) = log_G2(H2).
type Statement struct {
	G1, H1, G2, H2 *group.Point
}

// Proof is a proof in commitment form.
type Proof struct {
	R1, R2 group.Point
	S      ristretto255.Scalar
}

// Bytes returns R1 || R2 || s (ProofSize bytes).
func (p *Proof) Bytes() []byte {
	return p.AppendBinary(make([]byte, 0, ProofSize))
}

// AppendBinary appends the encoding of p to b.
func (p *Proof) AppendBinary(b []byte) []byte {
	b = append(b, p.R1.Bytes()...)
	b = append(b, p.R2.Bytes()...)
	return append(b, p.S.Bytes()...)
}

// DecodeProof decodes R1 || R2 || s: both points canonical and not the
// identity, s canonical. Anything else is ErrProofEncoding.
func DecodeProof(b []byte) (*Proof, error) {
	p := new(Proof)
	if err := p.decode(b); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Proof) decode(b []byte) error {
	if len(b) != ProofSize {
		return ErrProofEncoding
	}
	r1, err1 := group.DecodePoint(b[:32])
	r2, err2 := group.DecodePoint(b[32:64])
	s, err3 := group.DecodeScalar(b[64:])
	if err1 != nil || err2 != nil || err3 != nil {
		return ErrProofEncoding
	}
	p.R1, p.R2 = *r1, *r2
	p.S.Set(s)
	return nil
}

// EntropySize is the number of random bytes a proof consumes.
const EntropySize = 32

// Prove proves st for the witness x (H1 = x*G1 and H2 = x*G2; the caller
// guarantees this). It reads EntropySize bytes from rand (crypto/rand if
// nil). The nonce is hedged: derived from x, those bytes, the context and
// the statement, so a weak rand does not leak x.
func Prove(context []byte, st *Statement, x *ristretto255.Scalar, rand io.Reader) (*Proof, error) {
	var entropy [EntropySize]byte
	if err := readRand(rand, entropy[:]); err != nil {
		return nil, err
	}
	return ProveEntropy(context, st, x, nil, entropy[:])
}

// ProveEntropy is Prove with the random bytes given. If xG1 is not nil it
// must be a scalar with xG1*G = G1, which lets R1 be computed by a fixed-base
// multiplication: R1 = (k*xG1)*G.
func ProveEntropy(context []byte, st *Statement, x, xG1 *ristretto255.Scalar, entropy []byte) (*Proof, error) {
	return prove(context, st, x, xG1, nil, entropy)
}

// ProveEntropyTable is ProveEntropy with R2 = k*G2 computed from g2, which
// must be group.NewSplitTable(st.G2.Element()): a caller that also
// multiplies G2 by x (to make H2) shares the table between the two. The
// proof is the same as ProveEntropy's.
func ProveEntropyTable(context []byte, st *Statement, x, xG1 *ristretto255.Scalar, g2 *group.SplitTable, entropy []byte) (*Proof, error) {
	return prove(context, st, x, xG1, g2, entropy)
}

func prove(context []byte, st *Statement, x, xG1 *ristretto255.Scalar, g2 *group.SplitTable, entropy []byte) (*Proof, error) {
	k := group.NewTranscript(LabelNonce).Bytes(x.Bytes()).Bytes(entropy).Bytes(context).
		Point(st.G1).Point(st.H1).Point(st.G2).Point(st.H2).Scalar()
	if group.IsZero(k) {
		return nil, errors.New("dleq: zero nonce")
	}
	var r1, r2 ristretto255.Element
	if xG1 != nil {
		var t ristretto255.Scalar
		r1.ScalarBaseMult(t.Multiply(k, xG1))
	} else {
		r1.ScalarMult(k, st.G1.Element())
	}
	if g2 != nil {
		g2.ScalarMult(&r2, k)
	} else {
		r2.ScalarMult(k, st.G2.Element())
	}
	p := new(Proof)
	if err := p.R1.Set(&r1); err != nil {
		return nil, errors.New("dleq: degenerate statement")
	}
	if err := p.R2.Set(&r2); err != nil {
		return nil, errors.New("dleq: degenerate statement")
	}
	e := challenge(context, st, p)
	p.S.Multiply(e, x)
	p.S.Add(&p.S, k)
	return p, nil
}

func challenge(context []byte, st *Statement, p *Proof) *ristretto255.Scalar {
	return group.NewTranscript(LabelChallenge).Bytes(context).
		Point(st.G1).Point(st.H1).Point(st.G2).Point(st.H2).
		Point(&p.R1).Point(&p.R2).Scalar()
}

// Verify checks one proof: s*G1 = R1 + e*H1 and s*G2 = R2 + e*H2.
// It takes variable time (all inputs are public).
func Verify(context []byte, st *Statement, p *Proof) error {
	e := challenge(context, st, p)
	return verifyWith(st, p, e)
}

func verifyWith(st *Statement, p *Proof, e *ristretto255.Scalar) error {
	var ne ristretto255.Scalar
	ne.Negate(e)
	var t ristretto255.Element
	t.VarTimeMultiScalarMult([]*ristretto255.Scalar{&p.S, &ne}, []*ristretto255.Element{st.G1.Element(), st.H1.Element()})
	if t.Equal(p.R1.Element()) != 1 {
		return ErrInvalidProof
	}
	t.VarTimeMultiScalarMult([]*ristretto255.Scalar{&p.S, &ne}, []*ristretto255.Element{st.G2.Element(), st.H2.Element()})
	if t.Equal(p.R2.Element()) != 1 {
		return ErrInvalidProof
	}
	return nil
}

// Item is one proof to batch-verify.
type Item struct {
	Context   []byte
	Statement *Statement
	Proof     *Proof
}

// BatchVerify verifies all items and returns (-1, nil) if every proof is
// valid. Otherwise it returns the lowest index of an invalid proof and
// ErrInvalidProof, or -1 and another error if rand fails.
//
// It checks, for random 128-bit weights z_t, w_t read through rand
// (crypto/rand if nil),
//
//	sum_t z_t*(s_t*G1_t - R1_t - e_t*H1_t) + w_t*(s_t*G2_t - R2_t - e_t*H2_t) = 0
//
// with one multi-scalar multiplication per core; when a part fails it
// verifies that part's proofs one by one to find the culprit, so the index
// returned does not depend on rand or on scheduling. Consecutive items whose
// Statement.G1 is the same *group.Point share one term.
// It takes variable time (all inputs are public).
func BatchVerify(items []Item, rand io.Reader) (int, error) {
	if len(items) == 0 {
		return -1, nil
	}
	var seed [32]byte
	if err := readRand(rand, seed[:]); err != nil {
		return -1, err
	}
	n := len(items)
	// Two 128-bit weights per item, from a stream keyed by the seed.
	weights := make([]ristretto255.Scalar, 2*n)
	ws := group.NewStream(LabelWeights, seed[:])
	var wb [32]byte
	for i := range weights {
		// A 128-bit value is below l: canonical as it is (the same scalar
		// as reducing it).
		binary.LittleEndian.PutUint64(wb[0:], ws.Uint64())
		binary.LittleEndian.PutUint64(wb[8:], ws.Uint64())
		if _, err := weights[i].SetCanonicalBytes(wb[:]); err != nil {
			panic("dleq: internal error: " + err.Error())
		}
	}
	idx, err := par.FirstFailure(n, 8, func(lo, hi int) (int, error) {
		chal := make([]*ristretto255.Scalar, hi-lo)
		for t := lo; t < hi; t++ {
			it := items[t]
			chal[t-lo] = challenge(it.Context, it.Statement, it.Proof)
		}
		if batchEquation(items[lo:hi], chal, weights[2*lo:2*hi]) {
			return -1, nil
		}
		for t := lo; t < hi; t++ {
			if verifyWith(items[t].Statement, items[t].Proof, chal[t-lo]) != nil {
				return t, ErrInvalidProof
			}
		}
		panic("dleq: internal error: batch failed but every proof verifies")
	})
	if err != nil {
		return idx, err
	}
	return -1, nil
}

func batchEquation(items []Item, chal []*ristretto255.Scalar, weights []ristretto255.Scalar) bool {
	scalars := make([]*ristretto255.Scalar, 0, 5*len(items)+1)
	points := make([]*ristretto255.Element, 0, 5*len(items)+1)
	coef := make([]ristretto255.Scalar, 5*len(items)+len(items))
	ci := 0
	next := func() *ristretto255.Scalar { c := &coef[ci]; ci++; return c }
	var g1 *group.Point
	var g1Coef *ristretto255.Scalar
	var tmp ristretto255.Scalar
	for t, it := range items {
		z, w := &weights[2*t], &weights[2*t+1]
		st, p, e := it.Statement, it.Proof, chal[t]
		if st.G1 != g1 {
			g1, g1Coef = st.G1, next()
			scalars = append(scalars, g1Coef)
			points = append(points, g1.Element())
		}
		g1Coef.Add(g1Coef, tmp.Multiply(z, &p.S))
		c := next().Negate(z)
		scalars, points = append(scalars, c), append(points, p.R1.Element())
		c = next().Multiply(z, e)
		c.Negate(c)
		scalars, points = append(scalars, c), append(points, st.H1.Element())
		c = next().Multiply(w, &p.S)
		scalars, points = append(scalars, c), append(points, st.G2.Element())
		c = next().Negate(w)
		scalars, points = append(scalars, c), append(points, p.R2.Element())
		c = next().Multiply(w, e)
		c.Negate(c)
		scalars, points = append(scalars, c), append(points, st.H2.Element())
	}
	return group.VarTimeMSM(scalars, points).Equal(ristretto255.NewIdentityElement()) == 1
}

// Check verifies one item exactly, as Verify.
func (it *Item) Check() error { return Verify(it.Context, it.Statement, it.Proof) }

// AddToBatch adds to b (a group.Batch, or a group.Terms list) the terms of
// it's two verification equations,
// weighted by z and w:
//
//	z*(s*G1 - R1 - e*H1) + w*(s*G2 - R2 - e*H2)
//
// so that many proofs, and other equations, can be checked with one
// multi-scalar multiplication (protocol.md 4, "Batch verification").
// Points are taken by reference: they must not change while b is in use.
func (it *Item) AddToBatch(b group.Adder, z, w *ristretto255.Scalar) {
	st, p := it.Statement, it.Proof
	e := challenge(it.Context, st, p)
	var c ristretto255.Scalar
	b.Add(c.Multiply(z, &p.S), st.G1.Element())
	b.Add(c.Negate(z), p.R1.Element())
	c.Multiply(z, e)
	b.Add(c.Negate(&c), st.H1.Element())
	b.Add(c.Multiply(w, &p.S), st.G2.Element())
	b.Add(c.Negate(w), p.R2.Element())
	c.Multiply(w, e)
	b.Add(c.Negate(&c), st.H2.Element())
}

func readRand(r io.Reader, b []byte) error {
	if r == nil {
		r = rand.Reader
	}
	if _, err := io.ReadFull(r, b); err != nil {
		return errors.New("dleq: reading randomness failed")
	}
	return nil
}
