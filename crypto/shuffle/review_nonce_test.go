package shuffle

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
)

// challengeX recomputes x for a proof of st.
func challengeX(t testing.TB, st *Statement, proof []byte) *ristretto255.Scalar {
	t.Helper()
	p, err := DecodeProof(proof, len(st.In))
	if err != nil {
		t.Fatal(err)
	}
	h1 := roundDigest(statementDigest(st), 1, p.CPi.Bytes())
	h2 := roundDigest(h1, 2, p.CM.Bytes())
	h3 := roundDigest(h2, 3, p.CD.Bytes(), p.CLow.Bytes(), p.CMid.Bytes(), p.K.Bytes(), p.K3.Bytes())
	return group.NewTranscript(LabelX).Bytes(h3[:]).Scalar()
}

// extractAlpha returns (za - za')/(x - x'): the secret scalar whenever two
// proofs share the nonce rho but have different challenges.
func extractAlpha(t testing.TB, st *Statement, p1, p2 []byte) *ristretto255.Scalar {
	t.Helper()
	a, err := DecodeProof(p1, len(st.In))
	if err != nil {
		t.Fatal(err)
	}
	b, err := DecodeProof(p2, len(st.In))
	if err != nil {
		t.Fatal(err)
	}
	dx := ristretto255.NewScalar().Subtract(challengeX(t, st, p1), challengeX(t, st, p2))
	dz := ristretto255.NewScalar().Subtract(a.Z, b.Z)
	return dz.Multiply(dz, ristretto255.NewScalar().Invert(dx))
}

// TestNonceReuseAcrossWitnesses (from the review, once failing): the nonces
// of a proof are derived from the key, the statement AND the witness
// (protocol.md 4, prover step 0), so two proofs under one key for one
// statement with different witnesses share no nonce, and
// (za - za')/(x - x') is not alpha.
//
// Case "duplicate input": In[0] = In[1], so two permutations are both valid
// witnesses and both proofs verify. Case "invalid then valid witness": a
// caller that tries a wrong permutation first and retries with the right
// one; Prove refuses the wrong one (ErrWitness) and sends nothing, and even
// the unchecked prover (which would send a proof that fails) uses other
// nonces for it.
//
// Not reachable through crypto/deck (tile points are distinct, lock
// outputs are checked distinct, the witness comes from the seed): this
// guards the package API.
func TestNonceReuseAcrossWitnesses(t *testing.T) {
	const n = 6
	t.Run("duplicate input", func(t *testing.T) {
		st, w, key := testCase(t, "review-dup", n)
		st.In[1] = st.In[0]
		for k := range st.Out {
			st.Out[k] = pointOf(t, ristretto255.NewIdentityElement().ScalarMult(w.Scalar, st.In[w.Perm[k]].Element()))
		}
		w2 := &Witness{Scalar: w.Scalar, Perm: append([]int(nil), w.Perm...)}
		for k, p := range w2.Perm { // swap the preimages of 0 and 1
			if p == 0 {
				w2.Perm[k] = 1
			} else if p == 1 {
				w2.Perm[k] = 0
			}
		}
		p1, err := Prove(st, w, key)
		if err != nil {
			t.Fatal(err)
		}
		p2, err := Prove(st, w2, key)
		if err != nil {
			t.Fatal(err)
		}
		if Verify(st, p1) != nil || Verify(st, p2) != nil {
			t.Fatal("both witnesses are valid: both proofs should verify")
		}
		if bytes.Equal(p1[:group.PointSize], p2[:group.PointSize]) {
			t.Fatal("the two witnesses give the same C_pi")
		}
		if extractAlpha(t, st, p1, p2).Equal(w.Scalar) == 1 {
			t.Fatal("two valid proofs of one statement under one key reveal the secret scalar")
		}
	})
	t.Run("invalid then valid witness", func(t *testing.T) {
		st, w, key := testCase(t, "review-retry", n)
		bad := &Witness{Scalar: w.Scalar, Perm: append([]int(nil), w.Perm...)}
		bad.Perm[0], bad.Perm[1] = bad.Perm[1], bad.Perm[0]
		if p, err := Prove(st, bad, key); !errors.Is(err, ErrWitness) || p != nil {
			t.Fatalf("Prove with a wrong permutation: %d bytes, %v; want ErrWitness", len(p), err)
		}
		badKey := &Witness{Scalar: ristretto255.NewScalar().Add(w.Scalar, w.Scalar), Perm: w.Perm}
		if p, err := Prove(st, badKey, key); !errors.Is(err, ErrWitness) || p != nil {
			t.Fatalf("Prove with a wrong scalar: %d bytes, %v; want ErrWitness", len(p), err)
		}
		p1, err := prove(st, bad, key, false)
		if err != nil {
			t.Fatal(err)
		}
		p2, err := Prove(st, w, key)
		if err != nil {
			t.Fatal(err)
		}
		if Verify(st, p2) != nil {
			t.Fatal("valid proof refused")
		}
		if Verify(st, p1) == nil {
			t.Fatal("a proof for a wrong witness verifies")
		}
		if extractAlpha(t, st, p1, p2).Equal(w.Scalar) == 1 {
			t.Fatal("a failed attempt and a valid proof under one key reveal the secret scalar")
		}
	})
}
