package shuffle

// Adversarial review of the shuffle argument (protocol.md 4, "Shuffle
// argument"). These tests do not use Prove: advProve is a cheating prover
// that follows the text's prover steps but commits to any vector pi, picks
// the permuted challenge vector mu after seeing e, and is free in the
// statement. Each test builds the strongest forgery the reviewer found and
// checks which verification equation stops it, so that weakening that
// equation (or the transcript) makes the test fail.

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
)

// advProve runs the prover of protocol.md on commitments chosen by the
// adversary: C_pi commits to pi (any scalars), C_m to chooseMu(e). alpha is
// used for the Schnorr part (z_alpha). It returns the proof and the vector a
// it answered for (a_k = y*pi_k + mu_k - z).
func advProve(t testing.TB, st *Statement, alpha *ristretto255.Scalar, pi []*ristretto255.Scalar,
	chooseMu func(e []*ristretto255.Scalar) []*ristretto255.Scalar, key []byte) ([]byte, []*ristretto255.Scalar) {
	t.Helper()
	n := len(st.In)
	G, H := generators(n)
	h0 := statementDigest(st)
	nonce := func(name string, i int) *ristretto255.Scalar {
		return group.NewTranscript("review/adv-nonce").Bytes(key).Bytes(h0[:]).String(name).Int(i).Scalar()
	}
	rPi, rM := nonce("r-pi", 0), nonce("r-m", 0)
	cPi := commit(G, H, pi, rPi)
	h1 := roundDigest(h0, 1, cPi.Bytes())
	e := vectorChallenge(h1, n)
	mu := chooseMu(e)
	cM := commit(G, H, mu, rM)
	h2 := roundDigest(h1, 2, cM.Bytes())
	y := group.NewTranscript(LabelY).Bytes(h2[:]).Scalar()
	z := group.NewTranscript(LabelZ).Bytes(h2[:]).Scalar()
	f, _ := fvalues(e, y, z)
	a := make([]*ristretto255.Scalar, n)
	bp := make([]*ristretto255.Scalar, n)
	for k := range a {
		a[k] = ristretto255.NewScalar().Multiply(y, pi[k])
		a[k].Add(a[k], mu[k])
		a[k].Subtract(a[k], z)
		bp[k] = ristretto255.NewScalar().Set(a[k])
		if k > 0 {
			bp[k].Multiply(bp[k-1], a[k])
		}
	}
	r := ristretto255.NewScalar().Multiply(y, rPi)
	r.Add(r, rM)
	d := make([]*ristretto255.Scalar, n)
	delta := make([]*ristretto255.Scalar, n)
	for k := range d {
		d[k] = nonce("d", k)
	}
	delta[0] = d[0]
	for k := 1; k < n-1; k++ {
		delta[k] = nonce("delta", k)
	}
	delta[n-1] = ristretto255.NewScalar()
	rD, s1, sX, rho := nonce("r-d", 0), nonce("s-1", 0), nonce("s-x", 0), nonce("rho", 0)
	low := make([]*ristretto255.Scalar, n-1)
	mid := make([]*ristretto255.Scalar, n-1)
	for i := 0; i < n-1; i++ {
		low[i] = ristretto255.NewScalar().Multiply(delta[i], d[i+1])
		low[i].Negate(low[i])
		mid[i] = ristretto255.NewScalar().Subtract(delta[i+1], ristretto255.NewScalar().Multiply(a[i+1], delta[i]))
		mid[i].Subtract(mid[i], ristretto255.NewScalar().Multiply(bp[i], d[i+1]))
	}
	cD := commit(G, H, d, rD)
	cLow := commit(G[:n-1], H, low, s1)
	cMid := commit(G[:n-1], H, mid, sX)
	p := ristretto255.NewIdentityElement().MultiScalarMult(f, elements(st.In))
	cK := commit(elements(st.Out), p, d, ristretto255.NewScalar().Negate(rho))
	cK3 := ristretto255.NewIdentityElement().ScalarBaseMult(rho)
	h3 := roundDigest(h2, 3, cD.Bytes(), cLow.Bytes(), cMid.Bytes(), cK.Bytes(), cK3.Bytes())
	x := group.NewTranscript(LabelX).Bytes(h3[:]).Scalar()
	var proof []byte
	for _, q := range []*ristretto255.Element{cPi, cM, cD, cLow, cMid, cK, cK3} {
		proof = append(proof, q.Bytes()...)
	}
	lin := func(u, v, w *ristretto255.Scalar) []byte { // u*v + w
		s := ristretto255.NewScalar().Multiply(u, v)
		return s.Add(s, w).Bytes()
	}
	for k := 0; k < n; k++ {
		proof = append(proof, lin(x, a[k], d[k])...)
	}
	for k := 1; k < n-1; k++ {
		proof = append(proof, lin(x, bp[k], delta[k])...)
	}
	proof = append(proof, lin(x, r, rD)...)
	proof = append(proof, lin(x, sX, s1)...)
	proof = append(proof, lin(x, alpha, rho)...)
	return proof, a
}

// equations checks (E1) to (E4) of protocol.md one by one, written from the
// text (no batching). If endProduct is not nil it replaces b = prod f_j in
// bt_{m-1} = x*b: this shows what the end check of the product argument
// alone is worth.
func equations(t testing.TB, st *Statement, proof []byte, endProduct *ristretto255.Scalar) [4]bool {
	t.Helper()
	n := len(st.In)
	p, err := DecodeProof(proof, n)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	G, H := generators(n)
	h0 := statementDigest(st)
	h1 := roundDigest(h0, 1, p.CPi.Bytes())
	e := vectorChallenge(h1, n)
	h2 := roundDigest(h1, 2, p.CM.Bytes())
	y := group.NewTranscript(LabelY).Bytes(h2[:]).Scalar()
	z := group.NewTranscript(LabelZ).Bytes(h2[:]).Scalar()
	f, b := fvalues(e, y, z)
	if endProduct != nil {
		b = endProduct
	}
	h3 := roundDigest(h2, 3, p.CD.Bytes(), p.CLow.Bytes(), p.CMid.Bytes(), p.K.Bytes(), p.K3.Bytes())
	x := group.NewTranscript(LabelX).Bytes(h3[:]).Scalar()
	msm := func(s []*ristretto255.Scalar, q []*ristretto255.Element) *ristretto255.Element {
		return ristretto255.NewIdentityElement().VarTimeMultiScalarMult(s, q)
	}
	sm := func(s *ristretto255.Scalar, q *ristretto255.Element) *ristretto255.Element {
		return ristretto255.NewIdentityElement().ScalarMult(s, q)
	}
	add := func(u, v *ristretto255.Element) *ristretto255.Element {
		return ristretto255.NewIdentityElement().Add(u, v)
	}
	var ok [4]bool
	// E1.
	sumG := ristretto255.NewIdentityElement()
	for _, g := range G {
		sumG.Add(sumG, g)
	}
	ca := add(sm(y, p.CPi.Element()), p.CM.Element())
	ca.Subtract(ca, sm(z, sumG))
	ok[0] = add(sm(x, ca), p.CD.Element()).Equal(commit(G, H, p.A, p.R)) == 1
	// E2.
	bt := make([]*ristretto255.Scalar, n)
	bt[0] = p.A[0]
	copy(bt[1:n-1], p.B)
	bt[n-1] = ristretto255.NewScalar().Multiply(x, b)
	v := make([]*ristretto255.Scalar, n-1)
	for i := range v {
		v[i] = ristretto255.NewScalar().Multiply(x, bt[i+1])
		v[i].Subtract(v[i], ristretto255.NewScalar().Multiply(bt[i], p.A[i+1]))
	}
	ok[1] = add(sm(x, p.CMid.Element()), p.CLow.Element()).Equal(commit(G[:n-1], H, v, p.S)) == 1
	// E3.
	pp := msm(f, elements(st.In))
	ok[2] = msm(p.A, elements(st.Out)).Equal(add(sm(p.Z, pp), p.K.Element())) == 1
	// E4.
	ok[3] = ristretto255.NewIdentityElement().ScalarBaseMult(p.Z).Equal(add(p.K3.Element(), sm(x, st.Key.Element()))) == 1
	return ok
}

func pointOf(t testing.TB, e *ristretto255.Element) group.Point {
	t.Helper()
	p, err := group.NewPoint(e)
	if err != nil {
		t.Fatal(err)
	}
	return *p
}

// TestReviewAdversarialProverIsComplete: the cheating prover, run honestly
// (pi = sigma, mu = e permuted), makes proofs that verify: the forgeries
// below differ from a valid proof only where they say.
func TestReviewAdversarialProverIsComplete(t *testing.T) {
	for _, n := range []int{2, 3, 8} {
		st, w, key := testCase(t, "review-complete", n)
		pi := make([]*ristretto255.Scalar, n)
		for k := range pi {
			pi[k] = smallScalar(w.Perm[k])
		}
		proof, _ := advProve(t, st, w.Scalar, pi, func(e []*ristretto255.Scalar) []*ristretto255.Scalar {
			mu := make([]*ristretto255.Scalar, n)
			for k := range mu {
				mu[k] = e[w.Perm[k]]
			}
			return mu
		}, key)
		if err := Verify(st, proof); err != nil {
			t.Fatalf("n=%d: honest run of the adversarial prover: %v", n, err)
		}
		if eq := equations(t, st, proof, nil); eq != [4]bool{true, true, true, true} {
			t.Fatalf("n=%d: equations %v", n, eq)
		}
	}
}

// TestReviewLinearOnlyForgery is the best forgery the review found, and the
// reason the product argument (E2) is essential. The output deck contains
// the learn-tiles element alpha*(X_0 + X_u), compensated by two other
// elements so that the linear check (E3) holds identically:
//
//	Y = alpha*sigma(X'),  X'_0 = X_0 + X_u,  X'_1 = X_1 - 2*X_u,  X'_2 = X_2 + X_u
//
// (the compensation (1, -2, 1) is orthogonal to both (1, ..., 1) and
// (0, 1, ..., m-1), so the z and y parts of f cancel). The prover commits
// to pi = sigma honestly and, after seeing e, to mu_k = e'_{sigma(k)} with
// e'_u = e_u - e_0 + 2*e_1 - e_2: then <a, Y> = alpha*<f, X> exactly, so
// (E1), (E3) and (E4) all hold. Only (E2) fails, and only through its fixed
// end bt_{m-1} = x*prod_j f_j: with b replaced by prod_k a_k it holds too.
// A verifier that dropped or weakened the end check (or batched E2 with a
// weight the prover can zero) would accept this learn-tiles deck.
func TestReviewLinearOnlyForgery(t *testing.T) {
	const u = 5
	for _, n := range []int{8, 106} {
		st, w, key := testCase(t, "review-linear", n)
		X := elements(st.In)
		mod := make([]*ristretto255.Element, n) // X'
		for j := range mod {
			mod[j] = ristretto255.NewIdentityElement().Add(X[j], ristretto255.NewIdentityElement())
		}
		two := ristretto255.NewIdentityElement().Add(X[u], X[u])
		mod[0].Add(mod[0], X[u])
		mod[1].Subtract(mod[1], two)
		mod[2].Add(mod[2], X[u])
		out := make([]group.Point, n)
		for k := range out {
			out[k] = pointOf(t, ristretto255.NewIdentityElement().ScalarMult(w.Scalar, mod[w.Perm[k]]))
		}
		bad := &Statement{Context: st.Context, Key: st.Key, In: st.In, Out: out}
		pi := make([]*ristretto255.Scalar, n)
		for k := range pi {
			pi[k] = smallScalar(w.Perm[k])
		}
		proof, a := advProve(t, bad, w.Scalar, pi, func(e []*ristretto255.Scalar) []*ristretto255.Scalar {
			ep := append([]*ristretto255.Scalar(nil), e...)
			ep[u] = ristretto255.NewScalar().Subtract(e[u], e[0])
			ep[u].Add(ep[u], ristretto255.NewScalar().Add(e[1], e[1]))
			ep[u].Subtract(ep[u], e[2])
			mu := make([]*ristretto255.Scalar, n)
			for k := range mu {
				mu[k] = ep[w.Perm[k]]
			}
			return mu
		}, key)
		if err := Verify(bad, proof); !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("n=%d: learn-tiles deck with a linear-only forgery: Verify = %v, want ErrInvalidProof", n, err)
		}
		if eq := equations(t, bad, proof, nil); eq != [4]bool{true, false, true, true} {
			t.Fatalf("n=%d: equations %v, want only E2 to fail", n, eq)
		}
		prod := smallScalar(1)
		for _, ak := range a {
			prod.Multiply(prod, ak)
		}
		if eq := equations(t, bad, proof, prod); !eq[1] {
			t.Fatalf("n=%d: E2 with its end at prod(a) should hold: the end check is what stops the forgery", n)
		}
	}
}

// TestReviewNonPermutationCommitment: committing to a vector pi that is not
// a permutation (position 1 replaced by a second copy of 0: a dropped and a
// duplicated tile, Y = alpha*X_pi) with mu_k = e_{pi_k} makes a a
// permutation of nothing; (E3) and (E2) both fail. Binding of C_pi before e
// and of C_m before (y, z) leaves no other choice (protocol.md soundness
// step 3).
func TestReviewNonPermutationCommitment(t *testing.T) {
	const n = 8
	st, w, key := testCase(t, "review-nonperm", n)
	idx := []int{0, 0, 2, 3, 4, 5, 6, 7}
	out := make([]group.Point, n)
	pi := make([]*ristretto255.Scalar, n)
	for k := range out {
		out[k] = pointOf(t, ristretto255.NewIdentityElement().ScalarMult(w.Scalar, st.In[idx[k]].Element()))
		pi[k] = smallScalar(idx[k])
	}
	bad := &Statement{Context: st.Context, Key: st.Key, In: st.In, Out: out}
	proof, _ := advProve(t, bad, w.Scalar, pi, func(e []*ristretto255.Scalar) []*ristretto255.Scalar {
		mu := make([]*ristretto255.Scalar, n)
		for k := range mu {
			mu[k] = e[idx[k]]
		}
		return mu
	}, key)
	if err := Verify(bad, proof); !errors.Is(err, ErrInvalidProof) {
		t.Fatalf("Verify = %v, want ErrInvalidProof", err)
	}
	if eq := equations(t, bad, proof, nil); eq[1] || eq[2] {
		t.Fatalf("equations %v: E2 and E3 should both fail", eq)
	}
}

// TestReviewNoncesNotReused: the same witness and nonce key proving two
// statements that differ only in the context share no 32-byte block (a
// reused nonce would repeat C_pi, whose contents are the same permutation,
// and let anyone link or solve for the masks). Also with two keys on one
// statement.
func TestReviewNoncesNotReused(t *testing.T) {
	const n = 6
	st, w, key := testCase(t, "review-nonces", n)
	p1, err := Prove(st, w, key)
	if err != nil {
		t.Fatal(err)
	}
	st2 := *st
	st2.Context = []byte("ctx/review-nonces/other-seat")
	p2, err := Prove(&st2, w, key)
	if err != nil {
		t.Fatal(err)
	}
	key2 := append([]byte(nil), key...)
	key2[0] ^= 1
	p3, err := Prove(st, w, key2)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]bool{}
	for i := 0; i < len(p1); i += 32 {
		blocks[string(p1[i:i+32])] = true
	}
	for _, q := range [][]byte{p2, p3} {
		for i := 0; i < len(q); i += 32 {
			if blocks[string(q[i:i+32])] {
				t.Fatalf("block %d repeats across proofs: nonce reuse", i/32)
			}
		}
	}
	if bytes.Equal(p1[:32], p2[:32]) {
		t.Fatal("C_pi repeats")
	}
}

// TestReviewListOrderBound: a proof for (X, Y) reused for the
// same lists with one pair of Y swapped (a true statement, another sigma)
// or one pair of X swapped fails: the order of every list is bound by h0.
func TestReviewListOrderBound(t *testing.T) {
	const n = 6
	st, w, key := testCase(t, "review-order", n)
	proof, err := Prove(st, w, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, swapIn := range []bool{false, true} {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				c := *st
				c.In = append([]group.Point(nil), st.In...)
				c.Out = append([]group.Point(nil), st.Out...)
				if swapIn {
					c.In[i], c.In[j] = c.In[j], c.In[i]
				} else {
					c.Out[i], c.Out[j] = c.Out[j], c.Out[i]
				}
				if err := Verify(&c, proof); !errors.Is(err, ErrInvalidProof) {
					t.Fatalf("swap in=%v %d,%d: %v", swapIn, i, j, err)
				}
			}
		}
	}
}
