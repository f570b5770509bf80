package shuffle

import (
	"encoding/binary"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// KeySize is the minimum size of the prover's secret nonce key.
const KeySize = 32

// Prove returns a proof of st for the witness w: w.Scalar*B = Key and
// Out[k] = w.Scalar*In[w.Perm[k]] for every k. It checks the witness and
// returns ErrWitness, proving nothing, when it is not one.
// Every blinder and nonce is derived from key (at least KeySize secret
// bytes, never used for anything else), the statement and the witness
// (protocol.md 4, "Shuffle argument", prover step 0), so the same inputs
// give the same proof and two different witnesses never share a nonce. Its
// arithmetic on secrets takes constant time (the variable-time
// multiplications see only public scalars); like the lock itself, it
// indexes tables by the secret permutation.
func Prove(st *Statement, w *Witness, key []byte) ([]byte, error) {
	return prove(st, w, key, true)
}

// ProveUnchecked is Prove without the witness check: it proves whatever
// witness of the right shape it is given, so that TESTS OF VERIFIERS ONLY
// can make the strongest generic cheater's proof of a false statement (which
// must not verify). A peer MUST NOT use it. Its nonces are bound to the
// witness as Prove's are, so a proof for a wrong witness shares no nonce
// with the proof for the right one.
func ProveUnchecked(st *Statement, w *Witness, key []byte) ([]byte, error) {
	return prove(st, w, key, false)
}

// prove is Prove, with the witness check when check is set.
func prove(st *Statement, w *Witness, key []byte, check bool) ([]byte, error) {
	if err := st.check(); err != nil {
		return nil, err
	}
	n := len(st.In)
	if w == nil || w.Scalar == nil || len(w.Perm) != n || len(key) < KeySize {
		return nil, ErrParams
	}
	seen := make([]bool, n)
	for _, p := range w.Perm {
		if p < 0 || p >= n || seen[p] {
			return nil, ErrParams
		}
		seen[p] = true
	}
	if check && ristretto255.NewIdentityElement().ScalarBaseMult(w.Scalar).Equal(st.Key.Element()) != 1 {
		return nil, ErrWitness
	}
	G, _ := generators(n)
	gt, ht := fixedTables(n)
	in, out := elements(st.In), elements(st.Out)
	h0 := statementDigest(st)
	nk := nonceKey(key, h0, w)
	nonce := func(name string, i int) *ristretto255.Scalar {
		return group.NewTranscript(LabelNonce).Bytes(nk[:]).String(name).Int(i).Scalar()
	}

	// inv is the inverse permutation: gperm[j] = G_{inv[j]}.
	gperm := make([]*ristretto255.Element, n)
	for k, j := range w.Perm {
		gperm[j] = G[k]
	}

	// Move 1: commit to the permutation, C_pi = sum_k perm[k]*G_k + r_pi*H.
	// sum_k perm[k]*G_k = sum_v v*G_{inv[v]}, computed as a sum of suffix
	// sums: additions only, the same sequence whatever the permutation.
	rPi := nonce("r-pi", 0)
	suffix, cPi := ristretto255.NewIdentityElement(), ristretto255.NewIdentityElement()
	for v := n - 1; v >= 1; v-- {
		suffix.Add(suffix, gperm[v])
		cPi.Add(cPi, suffix)
	}
	cPi.Add(cPi, fixedCommit(nil, ht, nil, rPi))
	h1 := roundDigest(h0, 1, cPi.Bytes())
	e := vectorChallenge(h1, n)

	// Move 2: commit to the challenge vector permuted.
	m := make([]*ristretto255.Scalar, n)
	for k := range m {
		m[k] = e[w.Perm[k]]
	}
	gv, _, _ := varTables(n)
	gvperm := make([]*group.VarTable, n)
	for k, j := range w.Perm {
		gvperm[j] = gv[k]
	}
	// C_m = sum_k e_{perm[k]}*G_k + r_m*H = sum_j e_j*G_{inv[j]} + r_m*H: the
	// scalars e_j are public, so a variable-time multiplication leaks
	// nothing (its time depends on the scalars, not on the points).
	rM := nonce("r-m", 0)
	cM := group.VarTimeMSMTables(e, gvperm, nil, nil)
	cM.Add(cM, fixedCommit(nil, ht, nil, rM))
	h2 := roundDigest(h1, 2, cM.Bytes())
	y := group.NewTranscript(LabelY).Bytes(h2[:]).Scalar()
	z := group.NewTranscript(LabelZ).Bytes(h2[:]).Scalar()
	f, _ := fvalues(e, y, z)

	// The product argument's vector a_k = f_{perm[k]}, opening C_a =
	// y*C_pi + C_m - z*sum(G) with r = y*r_pi + r_m; partial products b.
	a := make([]*ristretto255.Scalar, n)
	bp := make([]*ristretto255.Scalar, n)
	for k := range a {
		a[k] = f[w.Perm[k]]
		bp[k] = ristretto255.NewScalar().Set(a[k])
		if k > 0 {
			bp[k].Multiply(bp[k-1], a[k])
		}
	}
	r := ristretto255.NewScalar().Multiply(y, rPi)
	r.Add(r, rM)

	// Move 3: the masks of the product and linear arguments.
	d := make([]*ristretto255.Scalar, n)
	delta := make([]*ristretto255.Scalar, n)
	// Hashed on every core: each nonce depends only on its name and index.
	par.For(n, 16, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			d[k] = nonce("d", k)
			if k > 0 && k < n-1 {
				delta[k] = nonce("delta", k)
			}
		}
	})
	delta[0] = d[0]
	delta[n-1] = ristretto255.NewScalar()
	rD, s1, sX, rho := nonce("r-d", 0), nonce("s-1", 0), nonce("s-x", 0), nonce("rho", 0)
	low := make([]*ristretto255.Scalar, n-1) // -delta_i*d_{i+1}
	mid := make([]*ristretto255.Scalar, n-1) // delta_{i+1} - a_{i+1}*delta_i - b_i*d_{i+1}
	for i := 0; i < n-1; i++ {
		low[i] = ristretto255.NewScalar().Multiply(delta[i], d[i+1])
		low[i].Negate(low[i])
		t := ristretto255.NewScalar().Multiply(a[i+1], delta[i])
		mid[i] = ristretto255.NewScalar().Subtract(delta[i+1], t)
		t.Multiply(bp[i], d[i+1])
		mid[i].Subtract(mid[i], t)
	}
	// Constant-time multi-scalar multiplications, split over the cores: K,
	// C_d, C_low, C_mid, K3; and (for the witness check) <a, Out>.
	p := varTimeMSM(f, in) // P = <f, In>: public scalars and points
	var cD, cLow, cMid, cK, cK3 *ristretto255.Element
	var aOut, alphaP *ristretto255.Element // <a, Out> and alpha*P, the witness check
	// The jobs are in an order that par.For's halves balance on two cores:
	// two constant-time multiplications and K3 on one, two and the
	// variable-time <a, Out> on the other.
	par.For(6, 1, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			switch j {
			case 0: // K = <d, Out> - rho*P
				cK = commit(out, p, d, ristretto255.NewScalar().Negate(rho))
			case 1:
				cD = fixedCommit(gt, ht, d, rD)
			case 2:
				cK3 = ristretto255.NewIdentityElement().ScalarBaseMult(rho)
			case 3:
				cLow = fixedCommit(gt, ht, low, s1)
			case 4:
				cMid = fixedCommit(gt, ht, mid, sX)
			case 5:
				if check {
					// <a, Out> = sum_j f_j*Out[inv[j]]: public scalars, so
					// variable time, as C_m (the points are indexed by the
					// secret permutation, as in the lock itself).
					operm := make([]*ristretto255.Element, n)
					for k, j := range w.Perm {
						operm[j] = out[k]
					}
					// (on both cores: this job's core may be the one
					// that would otherwise wait)
					aOut = group.VarTimeMSMTables(nil, nil, f, operm)
					alphaP = ristretto255.NewIdentityElement().ScalarMult(w.Scalar, p)
				}
			}
		}
	})
	// The witness check: for a witness, <a, Out> = alpha*<f, In> (E3 without
	// the masks). Otherwise sum_j f_j*(Out[inv(j)] - alpha*In[j]) is the
	// identity with probability 1/l, the f_j being hashes of the statement
	// and of C_pi: a wrong witness is refused, never proved.
	if check && aOut.Equal(alphaP) != 1 {
		return nil, ErrWitness
	}
	for _, p := range []*ristretto255.Element{cPi, cM, cD, cLow, cMid, cK, cK3} {
		if p.Equal(ristretto255.NewIdentityElement()) == 1 {
			return nil, ErrParams // probability 2^-250: the caller may retry with another key
		}
	}
	h3 := roundDigest(h2, 3, cD.Bytes(), cLow.Bytes(), cMid.Bytes(), cK.Bytes(), cK3.Bytes())
	x := group.NewTranscript(LabelX).Bytes(h3[:]).Scalar()

	// Responses.
	proof := make([]byte, 0, Size(n))
	for _, p := range []*ristretto255.Element{cPi, cM, cD, cLow, cMid, cK, cK3} {
		proof = append(proof, p.Bytes()...)
	}
	t := ristretto255.NewScalar()
	for k := 0; k < n; k++ { // a~_k = x*a_k + d_k
		t.Multiply(x, a[k])
		t.Add(t, d[k])
		proof = append(proof, t.Bytes()...)
	}
	for k := 1; k < n-1; k++ { // b~_k = x*b_k + delta_k
		t.Multiply(x, bp[k])
		t.Add(t, delta[k])
		proof = append(proof, t.Bytes()...)
	}
	t.Multiply(x, r) // r~ = x*r + r_d
	t.Add(t, rD)
	proof = append(proof, t.Bytes()...)
	t.Multiply(x, sX) // s~ = x*s_x + s_1
	t.Add(t, s1)
	proof = append(proof, t.Bytes()...)
	t.Multiply(x, w.Scalar) // z_alpha = x*alpha + rho
	t.Add(t, rho)
	proof = append(proof, t.Bytes()...)
	return proof, nil
}

// nonceKey is the key every nonce of one proof is derived from:
// H(LabelNonceKey, key, h0, alpha, u32(perm[0]) || ... || u32(perm[n-1])).
// It binds the prover's secret key, the statement and the whole witness, so
// proofs for two different witnesses (a retry, or a statement with equal
// input points and so several valid permutations) use unrelated nonces.
func nonceKey(key []byte, h0 [64]byte, w *Witness) [64]byte {
	perm := make([]byte, 0, 4*len(w.Perm))
	for _, p := range w.Perm {
		perm = binary.BigEndian.AppendUint32(perm, uint32(p))
	}
	return group.NewTranscript(LabelNonceKey).Bytes(key).Bytes(h0[:]).Bytes(w.Scalar.Bytes()).Bytes(perm).Sum()
}

// fixedCommit returns <v, G> + r*H in constant time from the generators'
// tables gt and ht (gt may be longer than v): group.FixedMSM, the same
// element as commit's.
func fixedCommit(gt []*group.FixedTable, ht *group.FixedTable, v []*ristretto255.Scalar, r *ristretto255.Scalar) *ristretto255.Element {
	sc := append(append(make([]*ristretto255.Scalar, 0, len(v)+1), r), v...)
	tabs := append(append(make([]*group.FixedTable, 0, len(v)+1), ht), gt[:len(v)]...)
	return group.FixedMSM(sc, tabs)
}

// commit returns <v, G> + r*H in constant time (G may be longer than v).
func commit(G []*ristretto255.Element, H *ristretto255.Element, v []*ristretto255.Scalar, r *ristretto255.Scalar) *ristretto255.Element {
	sc := append(append(make([]*ristretto255.Scalar, 0, len(v)+1), v...), r)
	pts := append(append(make([]*ristretto255.Element, 0, len(v)+1), G[:len(v)]...), H)
	return ristretto255.NewIdentityElement().MultiScalarMult(sc, pts)
}

func elements(ps []group.Point) []*ristretto255.Element {
	out := make([]*ristretto255.Element, len(ps))
	for k := range ps {
		out[k] = ps[k].Element()
	}
	return out
}
