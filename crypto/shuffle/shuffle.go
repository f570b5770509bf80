// Package shuffle implements a non-interactive zero-knowledge argument that
// a list of ristretto255 elements is a permutation of another list, every
// element multiplied by one secret scalar whose public key is given:
//
//	Out[k] = alpha * In[perm[k]] for all k, and Key = alpha * B
//
// (B the ristretto255 generator), without revealing perm or alpha.
//
// The argument is the shuffle argument of Bayer and Groth (EUROCRYPT 2012,
// "Efficient Zero-Knowledge Argument for Correctness of a Shuffle"), section
// 3 (commit to the permutation, then to the challenge vector permuted by it,
// and prove a product identity), with its single-value product argument
// (section 5.3); instead of its multi-exponentiation argument (section 4), a
// Schnorr-style linear argument ties the same committed vector to In, Out
// and Key, as the same-scalar and same-multiscalar steps of Curdleproofs
// (the Whisk shuffle argument) do.
// All three moves share one challenge and are answered in the clear, so the
// proof is linear in the list length (32*(2n+8) bytes: 7,040 for 106) and
// needs no trusted setup: the commitment generators are hashed to the group.
//
// protocol.md, section 4 ("Shuffle argument"), is the normative
// description: every label, encoding and verification equation, with the
// soundness and zero-knowledge arguments.
//
// The package is pure: no I/O, no clocks; the prover's blinders come from a
// caller-supplied secret key, the statement and the witness, so that a
// restarted prover sends the same bytes and two witnesses never share one.
//
// Names: the code's a, b, b_k, at, bt, C_m and P are protocol.md's phi, beta,
// psi_k, phit, psit, C_mu and Xf (renamed there to avoid clashes with the
// lock scalar a_i, the re-key scalars b_ij and the permutation P_i).
package shuffle

import (
	"encoding/binary"
	"errors"
	"sync"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// Domain labels (protocol.md, section 4, "Shuffle argument").
const (
	LabelGenerator = "okey/v1/shuffle/generator"
	LabelBlinding  = "okey/v1/shuffle/blinding-generator"
	LabelStatement = "okey/v1/shuffle/statement"
	LabelVector    = "okey/v1/shuffle/challenge-vector"
	LabelRound     = "okey/v1/shuffle/round"
	LabelY         = "okey/v1/shuffle/challenge-y"
	LabelZ         = "okey/v1/shuffle/challenge-z"
	LabelX         = "okey/v1/shuffle/challenge-x"
	LabelNonce     = "okey/v1/shuffle/nonce"
	LabelNonceKey  = "okey/v1/shuffle/nonce-key"
	LabelWeights   = "okey/v1/shuffle/batch-weights"
)

// MinSize and MaxSize bound the list length n.
const (
	MinSize = 2
	MaxSize = 1024
)

// Number of points (after the statement) at the head of a proof.
const proofPoints = 7

// Size returns the size in bytes of a proof for lists of n elements:
// 7 points and 2n+1 scalars, 32*(2n+8) bytes.
func Size(n int) int { return group.PointSize*proofPoints + group.ScalarSize*(2*n+1) }

var (
	// ErrInvalidProof is returned when a well-formed proof does not verify.
	ErrInvalidProof = errors.New("shuffle: invalid proof")
	// ErrProofEncoding is returned for a proof of the wrong length or with a
	// non-canonical or identity point or a non-canonical scalar.
	ErrProofEncoding = errors.New("shuffle: malformed proof encoding")
	// ErrParams is returned for a statement or witness of the wrong shape.
	ErrParams = errors.New("shuffle: invalid parameters")
	// ErrWitness is returned by Prove for a witness of the right shape that
	// is not a witness of the statement; nothing is proved.
	ErrWitness = errors.New("shuffle: the witness does not satisfy the statement")
)

// Statement is the public claim. Context binds everything outside the lists
// that the proof is about (protocol, session, hand, seat); it is hashed into
// every challenge, so a proof made for one context fails for any other.
type Statement struct {
	Context []byte
	Key     *group.Point  // alpha * B
	In, Out []group.Point // n elements each
}

// Witness is the prover's secret: Out[k] = Scalar * In[Perm[k]].
type Witness struct {
	Scalar *ristretto255.Scalar
	Perm   []int
}

func (st *Statement) check() error {
	n := len(st.In)
	if st.Key == nil || n < MinSize || n > MaxSize || len(st.Out) != n {
		return ErrParams
	}
	return nil
}

// generators holds G_0..G_{len-1} and H; grown on demand, never changed.
// gt and ht are their tables for the prover's constant-time commitments
// (fixedTables), made on the first proof.
var gens struct {
	sync.Mutex
	g  []*ristretto255.Element
	h  *ristretto255.Element
	gt []*group.FixedTable
	ht *group.FixedTable
	// gv, hv and bv are the tables of G_k, H and B for the variable-time
	// sums (varTables), made on the first proof or check.
	gv     []*group.VarTable
	hv, bv *group.VarTable
}

// Prepare makes the tables that proofs and checks of shuffles of n
// elements use (varTables, fixedTables: about 12 KB a generator), which
// the first proof or check would otherwise make. A peer calls it before its
// first hand, so that the first lock of a match, made and checked one seat
// after another, does not wait for each seat's tables in turn. It changes
// no proof and no check; n outside MinSize..MaxSize does nothing.
func Prepare(n int) {
	if n < MinSize || n > MaxSize {
		return
	}
	varTables(n)
	fixedTables(n)
}

// generators returns G_0..G_{n-1} and H:
// G_k = hash-to-group(LabelGenerator, uint32(k)), H = hash-to-group(LabelBlinding).
func generators(n int) ([]*ristretto255.Element, *ristretto255.Element) {
	gens.Lock()
	defer gens.Unlock()
	if gens.h == nil {
		gens.h = group.NewTranscript(LabelBlinding).Element()
	}
	for k := len(gens.g); k < n; k++ {
		gens.g = append(gens.g, group.NewTranscript(LabelGenerator).Int(k).Element())
	}
	return gens.g[:n:n], gens.h
}

// varTables returns the variable-time tables of G_0..G_{n-1}, H and B
// (group.VarTable), made on first use (on every core) and kept: about 8 KB
// a generator.
func varTables(n int) ([]*group.VarTable, *group.VarTable, *group.VarTable) {
	g, h := generators(n)
	gens.Lock()
	defer gens.Unlock()
	if gens.hv == nil {
		gens.hv = group.NewVarTable(h)
		gens.bv = group.NewVarTable(ristretto255.NewGeneratorElement())
	}
	if have := len(gens.gv); have < n {
		gens.gv = append(gens.gv, make([]*group.VarTable, n-have)...)
		par.For(n-have, 8, func(lo, hi int) {
			for k := have + lo; k < have+hi; k++ {
				gens.gv[k] = group.NewVarTable(g[k])
			}
		})
	}
	return gens.gv[:n:n], gens.hv, gens.bv
}

// fixedTables returns the tables of G_0..G_{n-1} and H (group.FixedTable),
// made on first use (on every core) and kept: about 4 KB a generator.
func fixedTables(n int) ([]*group.FixedTable, *group.FixedTable) {
	g, h := generators(n)
	gens.Lock()
	defer gens.Unlock()
	if gens.ht == nil {
		gens.ht = group.NewFixedTable(h)
	}
	if have := len(gens.gt); have < n {
		gens.gt = append(gens.gt, make([]*group.FixedTable, n-have)...)
		par.For(n-have, 8, func(lo, hi int) {
			for k := have + lo; k < have+hi; k++ {
				gens.gt[k] = group.NewFixedTable(g[k])
			}
		})
	}
	return gens.gt[:n:n], gens.ht
}

// smallScalar returns v as a scalar (v >= 0).
func smallScalar(v int) *ristretto255.Scalar {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	s, err := ristretto255.NewScalar().SetCanonicalBytes(b[:])
	if err != nil {
		panic("shuffle: internal error: small scalar")
	}
	return s
}

// statementDigest is h0 = H(LabelStatement, context, n, Key, In, Out).
func statementDigest(st *Statement) [64]byte {
	t := group.NewTranscript(LabelStatement).Bytes(st.Context).Int(len(st.In)).Point(st.Key)
	t.Bytes(concat(st.In)).Bytes(concat(st.Out))
	return t.Sum()
}

func concat(ps []group.Point) []byte {
	b := make([]byte, 0, len(ps)*group.PointSize)
	for k := range ps {
		b = append(b, ps[k].Bytes()...)
	}
	return b
}

// roundDigest chains the transcript: H(LabelRound, prev, points...).
func roundDigest(prev [64]byte, round int, pts ...[]byte) [64]byte {
	t := group.NewTranscript(LabelRound).Bytes(prev[:]).Int(round)
	for _, p := range pts {
		t.Bytes(p)
	}
	return t.Sum()
}

// vectorChallenge returns e_j = H(LabelVector, h1, uint32(j)) for j < n.
func vectorChallenge(h1 [64]byte, n int) []*ristretto255.Scalar {
	e := make([]*ristretto255.Scalar, n)
	par.For(n, 16, func(lo, hi int) { // each e_j on its own: any core
		for j := lo; j < hi; j++ {
			e[j] = group.NewTranscript(LabelVector).Bytes(h1[:]).Int(j).Scalar()
		}
	})
	return e
}

// fvalues returns f_j = y*j + e_j - z and their product.
func fvalues(e []*ristretto255.Scalar, y, z *ristretto255.Scalar) ([]*ristretto255.Scalar, *ristretto255.Scalar) {
	f := make([]*ristretto255.Scalar, len(e))
	b := smallScalar(1)
	yj := ristretto255.NewScalar() // y*j
	for j := range e {
		f[j] = ristretto255.NewScalar().Add(yj, e[j])
		f[j].Subtract(f[j], z)
		b.Multiply(b, f[j])
		yj.Add(yj, y)
	}
	return f, b
}
