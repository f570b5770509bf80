package shuffle

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/gtank/ristretto255"
)

var update = flag.Bool("update", false, "rewrite the known-answer file in testdata")

// This file re-derives proofs from the text of protocol.md 4 ("Shuffle argument") with code
// that shares nothing with the package but the group operations: its own
// length-prefixed SHA-512, scalar arithmetic in math/big modulo l, every
// commitment as a plain sum of single multiplications, and the four
// verification equations checked one by one (no batching).

var order, _ = new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)

func lp(fields ...[]byte) []byte {
	var b []byte
	for _, f := range fields {
		b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	return b
}

func hsum(fields ...[]byte) []byte { d := sha512.Sum512(lp(fields...)); return d[:] }

func u32(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }

// hscalar: the 64-byte digest as a little-endian integer, mod l.
func hscalar(fields ...[]byte) *big.Int {
	d := hsum(fields...)
	return new(big.Int).Mod(leInt(d), order)
}

func leInt(b []byte) *big.Int {
	r := make([]byte, len(b))
	for i := range b {
		r[len(b)-1-i] = b[i]
	}
	return new(big.Int).SetBytes(r)
}

func leBytes(v *big.Int) []byte {
	x := new(big.Int).Mod(v, order).Bytes()
	out := make([]byte, 32)
	for i := range x {
		out[i] = x[len(x)-1-i]
	}
	return out
}

func hpoint(fields ...[]byte) *ristretto255.Element {
	e, err := ristretto255.NewIdentityElement().SetUniformBytes(hsum(fields...))
	if err != nil {
		panic(err)
	}
	return e
}

func toScalar(v *big.Int) *ristretto255.Scalar {
	s, err := ristretto255.NewScalar().SetCanonicalBytes(leBytes(v))
	if err != nil {
		panic(err)
	}
	return s
}

// lin returns sum s_i*P_i by single multiplications.
func lin(s []*big.Int, p []*ristretto255.Element) *ristretto255.Element {
	acc := ristretto255.NewIdentityElement()
	for i := range s {
		acc.Add(acc, ristretto255.NewIdentityElement().ScalarMult(toScalar(s[i]), p[i]))
	}
	return acc
}

func mod(v *big.Int) *big.Int { return v.Mod(v, order) }

func decodeAll(t testing.TB, bs [][]byte) []*ristretto255.Element {
	out := make([]*ristretto255.Element, len(bs))
	for i, b := range bs {
		e, err := ristretto255.NewIdentityElement().SetCanonicalBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = e
	}
	return out
}

// refStatement is a statement in bytes, as protocol.md states it.
type refStatement struct {
	ctx, key []byte
	in, out  [][]byte
}

func (r *refStatement) h0() []byte {
	return hsum([]byte(LabelStatement), r.ctx, u32(len(r.in)), r.key, bytes.Join(r.in, nil), bytes.Join(r.out, nil))
}

func refGenerators(n int) ([]*ristretto255.Element, *ristretto255.Element) {
	g := make([]*ristretto255.Element, n)
	for k := range g {
		g[k] = hpoint([]byte(LabelGenerator), u32(k))
	}
	return g, hpoint([]byte(LabelBlinding))
}

// refProve is the prover of protocol.md 4 ("Shuffle argument"), step by step.
func refProve(t testing.TB, r *refStatement, alpha *big.Int, perm []int, nkey []byte) []byte {
	n := len(r.in)
	G, H := refGenerators(n)
	in, out := decodeAll(t, r.in), decodeAll(t, r.out)
	h0 := r.h0()
	var permBytes []byte
	for _, p := range perm {
		permBytes = append(permBytes, u32(p)...)
	}
	nk := hsum([]byte(LabelNonceKey), nkey, h0, leBytes(alpha), permBytes)
	nonce := func(name string, i int) *big.Int {
		return hscalar([]byte(LabelNonce), nk, []byte(name), u32(i))
	}
	withH := func(s []*big.Int, rr *big.Int, g []*ristretto255.Element) *ristretto255.Element {
		return lin(append(append([]*big.Int(nil), s...), rr), append(append([]*ristretto255.Element(nil), g...), H))
	}
	sigma := make([]*big.Int, n)
	for k := range sigma {
		sigma[k] = big.NewInt(int64(perm[k]))
	}
	rPi := nonce("r-pi", 0)
	cPi := withH(sigma, rPi, G).Bytes()
	h1 := hsum([]byte(LabelRound), h0, u32(1), cPi)
	e := make([]*big.Int, n)
	for j := range e {
		e[j] = hscalar([]byte(LabelVector), h1, u32(j))
	}
	m := make([]*big.Int, n)
	for k := range m {
		m[k] = e[perm[k]]
	}
	rM := nonce("r-m", 0)
	cM := withH(m, rM, G).Bytes()
	h2 := hsum([]byte(LabelRound), h1, u32(2), cM)
	y, z := hscalar([]byte(LabelY), h2), hscalar([]byte(LabelZ), h2)
	f := make([]*big.Int, n)
	for j := range f {
		f[j] = mod(new(big.Int).Sub(new(big.Int).Add(new(big.Int).Mul(y, big.NewInt(int64(j))), e[j]), z))
	}
	a, b := make([]*big.Int, n), make([]*big.Int, n)
	for k := range a {
		a[k] = f[perm[k]]
		if k == 0 {
			b[k] = a[k]
		} else {
			b[k] = mod(new(big.Int).Mul(b[k-1], a[k]))
		}
	}
	rr := mod(new(big.Int).Add(new(big.Int).Mul(y, rPi), rM))
	d, delta := make([]*big.Int, n), make([]*big.Int, n)
	for k := range d {
		d[k] = nonce("d", k)
	}
	delta[0], delta[n-1] = d[0], big.NewInt(0)
	for k := 1; k < n-1; k++ {
		delta[k] = nonce("delta", k)
	}
	rD, s1, sX, rho := nonce("r-d", 0), nonce("s-1", 0), nonce("s-x", 0), nonce("rho", 0)
	low, mid := make([]*big.Int, n-1), make([]*big.Int, n-1)
	for i := 0; i < n-1; i++ {
		low[i] = mod(new(big.Int).Neg(new(big.Int).Mul(delta[i], d[i+1])))
		v := new(big.Int).Sub(delta[i+1], new(big.Int).Mul(a[i+1], delta[i]))
		mid[i] = mod(v.Sub(v, new(big.Int).Mul(b[i], d[i+1])))
	}
	cD := withH(d, rD, G).Bytes()
	cLow := withH(low, s1, G[:n-1]).Bytes()
	cMid := withH(mid, sX, G[:n-1]).Bytes()
	negRhoF := make([]*big.Int, n)
	for j := range f {
		negRhoF[j] = mod(new(big.Int).Neg(new(big.Int).Mul(rho, f[j])))
	}
	k1 := lin(append(append([]*big.Int(nil), d...), negRhoF...), append(append([]*ristretto255.Element(nil), out...), in...)).Bytes()
	k3 := ristretto255.NewIdentityElement().ScalarBaseMult(toScalar(rho)).Bytes()
	h3 := hsum([]byte(LabelRound), h2, u32(3), cD, cLow, cMid, k1, k3)
	x := hscalar([]byte(LabelX), h3)
	proof := bytes.Join([][]byte{cPi, cM, cD, cLow, cMid, k1, k3}, nil)
	resp := func(w, v *big.Int) { proof = append(proof, leBytes(new(big.Int).Add(new(big.Int).Mul(x, w), v))...) }
	for k := 0; k < n; k++ {
		resp(a[k], d[k])
	}
	for k := 1; k < n-1; k++ {
		resp(b[k], delta[k])
	}
	resp(rr, rD)
	resp(sX, s1)
	resp(alpha, rho)
	return proof
}

// refVerify checks the four equations of protocol.md 4 ("Shuffle argument") one by one.
func refVerify(t testing.TB, r *refStatement, proof []byte) bool {
	n := len(r.in)
	if len(proof) != 32*(2*n+8) {
		return false
	}
	G, H := refGenerators(n)
	in, out := decodeAll(t, r.in), decodeAll(t, r.out)
	key := decodeAll(t, [][]byte{r.key})[0]
	pt := func(i int) []byte { return proof[32*i : 32*i+32] }
	P := decodeAll(t, [][]byte{pt(0), pt(1), pt(2), pt(3), pt(4), pt(5), pt(6)})
	sc := func(i int) *big.Int { return leInt(proof[32*(7+i) : 32*(8+i)]) }
	h0 := r.h0()
	h1 := hsum([]byte(LabelRound), h0, u32(1), pt(0))
	h2 := hsum([]byte(LabelRound), h1, u32(2), pt(1))
	h3 := hsum([]byte(LabelRound), h2, u32(3), pt(2), pt(3), pt(4), pt(5), pt(6))
	y, z, x := hscalar([]byte(LabelY), h2), hscalar([]byte(LabelZ), h2), hscalar([]byte(LabelX), h3)
	f, prod := make([]*big.Int, n), big.NewInt(1)
	for j := range f {
		e := hscalar([]byte(LabelVector), h1, u32(j))
		f[j] = mod(new(big.Int).Sub(new(big.Int).Add(new(big.Int).Mul(y, big.NewInt(int64(j))), e), z))
		prod = mod(prod.Mul(prod, f[j]))
	}
	at := make([]*big.Int, n)
	bt := make([]*big.Int, n)
	for k := 0; k < n; k++ {
		at[k] = sc(k)
	}
	bt[0], bt[n-1] = at[0], mod(new(big.Int).Mul(x, prod))
	for k := 1; k < n-1; k++ {
		bt[k] = sc(n - 1 + k)
	}
	rt, st, za := sc(2*n-2), sc(2*n-1), sc(2*n)
	for i := 0; i < 2*n+1; i++ {
		if sc(i).Cmp(order) >= 0 {
			return false
		}
	}
	one := func(v *big.Int, p *ristretto255.Element) *ristretto255.Element {
		return ristretto255.NewIdentityElement().ScalarMult(toScalar(v), p)
	}
	eq := func(a, b *ristretto255.Element) bool { return a.Equal(b) == 1 }
	// E1: x*(y*C_pi + C_m - z*sum G) + C_d = <a~, G> + r~*H
	sumG := ristretto255.NewIdentityElement()
	for _, g := range G {
		sumG.Add(sumG, g)
	}
	ca := one(y, P[0])
	ca.Add(ca, P[1])
	ca.Subtract(ca, one(z, sumG))
	lhs := one(x, ca)
	lhs.Add(lhs, P[2])
	rhs := lin(append(append([]*big.Int(nil), at...), rt), append(append([]*ristretto255.Element(nil), G...), H))
	ok1 := eq(lhs, rhs)
	// E2: x*C_mid + C_low = <v, G'> + s~*H
	v := make([]*big.Int, n-1)
	for i := range v {
		v[i] = mod(new(big.Int).Sub(new(big.Int).Mul(x, bt[i+1]), new(big.Int).Mul(bt[i], at[i+1])))
	}
	lhs = one(x, P[4])
	lhs.Add(lhs, P[3])
	rhs = lin(append(v, st), append(append([]*ristretto255.Element(nil), G[:n-1]...), H))
	ok2 := eq(lhs, rhs)
	// E3: <a~, Out> = z_alpha*<f, In> + K
	rhs = one(za, lin(f, in))
	rhs.Add(rhs, P[5])
	ok3 := eq(lin(at, out), rhs)
	// E4: z_alpha*B = K3 + x*Key
	rhs = one(x, key)
	rhs.Add(rhs, P[6])
	ok4 := eq(ristretto255.NewIdentityElement().ScalarBaseMult(toScalar(za)), rhs)
	return ok1 && ok2 && ok3 && ok4
}

type katCase struct {
	Label   string   `json:"label"`
	N       int      `json:"n"`
	Context string   `json:"context"`
	Key     string   `json:"key"`
	In      []string `json:"in,omitempty"`
	Out     []string `json:"out,omitempty"`
	Scalar  string   `json:"scalar"`
	Perm    []int    `json:"perm,omitempty"`
	NKey    string   `json:"nonce_key"`
	Proof   string   `json:"proof,omitempty"`
	ProofSH string   `json:"proof_sha256"`
}

func hexs(ps [][]byte) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = hex.EncodeToString(p)
	}
	return out
}

// TestKnownAnswers: the proofs in testdata/kat.json are what Prove makes,
// what the independent re-derivation makes, and both verifiers accept them.
func TestKnownAnswers(t *testing.T) {
	sizes := []int{4, 106}
	var got []katCase
	for _, n := range sizes {
		label := "kat-" + itoa(n)
		st, w, nkey := testCase(t, label, n)
		proof, err := Prove(st, w, nkey)
		if err != nil {
			t.Fatal(err)
		}
		ref := &refStatement{ctx: st.Context, key: st.Key.Bytes()}
		for k := range st.In {
			ref.in = append(ref.in, st.In[k].Bytes())
			ref.out = append(ref.out, st.Out[k].Bytes())
		}
		alpha := leInt(w.Scalar.Bytes())
		if rp := refProve(t, ref, alpha, w.Perm, nkey); !bytes.Equal(rp, proof) {
			t.Fatalf("n=%d: the independent re-derivation differs from Prove", n)
		}
		if !refVerify(t, ref, proof) {
			t.Fatalf("n=%d: the independent verifier rejects the proof", n)
		}
		if err := Verify(st, proof); err != nil {
			t.Fatal(err)
		}
		d := sha256.Sum256(proof)
		c := katCase{Label: label, N: n, Context: hex.EncodeToString(st.Context), Key: hex.EncodeToString(st.Key.Bytes()),
			Scalar: hex.EncodeToString(w.Scalar.Bytes()), NKey: hex.EncodeToString(nkey), ProofSH: hex.EncodeToString(d[:])}
		if n <= 8 {
			c.In, c.Out, c.Perm, c.Proof = hexs(ref.in), hexs(ref.out), w.Perm, hex.EncodeToString(proof)
		}
		got = append(got, c)
	}
	path := filepath.Join("testdata", "kat.json")
	enc, _ := json.MarshalIndent(got, "", "  ")
	enc = append(enc, '\n')
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, enc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, enc) {
		t.Fatalf("known answers changed (run with -update only for an intended change):\n%s", enc)
	}
}

// TestIndependentVerifierRejects: the reference verifier agrees with Verify
// on a false statement made by the real prover.
func TestIndependentVerifierRejects(t *testing.T) {
	st, w, nkey := testCase(t, "ref-false", 5)
	st.Out[1], st.Out[2] = st.Out[2], st.Out[1]
	proof, err := prove(st, w, nkey, false) // Prove refuses: ErrWitness
	if err != nil {
		t.Fatal(err)
	}
	ref := &refStatement{ctx: st.Context, key: st.Key.Bytes()}
	for k := range st.In {
		ref.in = append(ref.in, st.In[k].Bytes())
		ref.out = append(ref.out, st.Out[k].Bytes())
	}
	if refVerify(t, ref, proof) || Verify(st, proof) == nil {
		t.Fatal("a proof of a false statement is accepted")
	}
}

func itoa(v int) string { return big.NewInt(int64(v)).String() }
