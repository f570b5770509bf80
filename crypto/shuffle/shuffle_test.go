package shuffle

import (
	"crypto/sha512"
	"errors"
	"testing"
	"time"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
)

// testCase builds a true statement of n elements from a label.
func testCase(t testing.TB, label string, n int) (*Statement, *Witness, []byte) {
	t.Helper()
	in := make([]group.Point, n)
	for j := range in {
		p, err := group.NewPoint(group.NewTranscript("test/in").String(label).Int(j).Element())
		if err != nil {
			t.Fatal(err)
		}
		in[j] = *p
	}
	alpha := group.NewTranscript("test/alpha").String(label).Scalar()
	st := group.NewStream("test/perm", []byte(label))
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := st.Uniform(uint64(i + 1))
		perm[i], perm[j] = perm[j], perm[i]
	}
	out := make([]group.Point, n)
	for k := range out {
		p, err := group.NewPoint(ristretto255.NewIdentityElement().ScalarMult(alpha, in[perm[k]].Element()))
		if err != nil {
			t.Fatal(err)
		}
		out[k] = *p
	}
	key, _ := group.NewPoint(ristretto255.NewIdentityElement().ScalarBaseMult(alpha))
	k := sha512.Sum512([]byte("test/key/" + label))
	return &Statement{Context: []byte("ctx/" + label), Key: key, In: in, Out: out},
		&Witness{Scalar: alpha, Perm: perm}, k[:32]
}

func TestCompleteness(t *testing.T) {
	for _, n := range []int{2, 3, 4, 7, 16, 106} {
		st, w, key := testCase(t, "complete", n)
		proof, err := Prove(st, w, key)
		if err != nil {
			t.Fatalf("n=%d: prove: %v", n, err)
		}
		if len(proof) != Size(n) {
			t.Fatalf("n=%d: size %d, want %d", n, len(proof), Size(n))
		}
		if err := Verify(st, proof); err != nil {
			t.Fatalf("n=%d: verify: %v", n, err)
		}
		again, _ := Prove(st, w, key)
		if string(again) != string(proof) {
			t.Fatalf("n=%d: proof not deterministic", n)
		}
	}
}

func TestSize106(t *testing.T) {
	if got := Size(106); got != 7040 {
		t.Fatalf("Size(106) = %d, want 7040", got)
	}
}

func TestRejectsWrongStatement(t *testing.T) {
	const n = 12
	st, w, key := testCase(t, "wrong", n)
	proof, err := Prove(st, w, key)
	if err != nil {
		t.Fatal(err)
	}
	other, _, _ := testCase(t, "other", n)
	cp := func() *Statement {
		c := *st
		c.In = append([]group.Point(nil), st.In...)
		c.Out = append([]group.Point(nil), st.Out...)
		return &c
	}
	cases := map[string]*Statement{}
	c := cp()
	c.Context = []byte("ctx/another")
	cases["context"] = c
	c = cp()
	c.Key = other.Key
	cases["key"] = c
	c = cp()
	c.In = other.In
	cases["input"] = c
	c = cp()
	c.Out[0], c.Out[1] = c.Out[1], c.Out[0]
	cases["swapped output"] = c
	for name, s := range cases {
		if err := Verify(s, proof); !errors.Is(err, ErrInvalidProof) {
			t.Errorf("%s: got %v, want ErrInvalidProof", name, err)
		}
	}
}

// alternate runs op in the benchmark loop, each run followed by 20 scalar
// multiplications (one variable-base ristretto255 ScalarMult each), timed
// separately, and reports op's wall time in units of one multiplication:
// both are measured alternately in the same run, so load from other
// processes hits both alike.
func alternate(b *testing.B, op func()) {
	s := group.NewTranscript("bench/scalar").Scalar()
	p := group.NewTranscript("bench/point").Element()
	var e ristretto255.Element
	var opTime, smTime time.Duration
	sms := 0
	for b.Loop() {
		t0 := time.Now()
		op()
		t1 := time.Now()
		for i := 0; i < 20; i++ {
			e.ScalarMult(s, p)
		}
		opTime += t1.Sub(t0)
		smTime += time.Since(t1)
		sms += 20
	}
	ops := float64(sms / 20)
	b.ReportMetric(float64(opTime)/ops/(float64(smTime)/float64(sms)), "scalarmults/op")
}

// BenchmarkProve106: proving one 106-element shuffle.
func BenchmarkProve106(b *testing.B) {
	st, w, key := testCase(b, "bench", 106)
	alternate(b, func() {
		if _, err := Prove(st, w, key); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkProveUnchecked106: proving without the witness check, to price
// the check (the difference to BenchmarkProve106).
func BenchmarkProveUnchecked106(b *testing.B) {
	st, w, key := testCase(b, "bench", 106)
	alternate(b, func() {
		if _, err := prove(st, w, key, false); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkVerify106: verifying one 106-element shuffle.
func BenchmarkVerify106(b *testing.B) {
	st, w, key := testCase(b, "bench", 106)
	proof, _ := Prove(st, w, key)
	b.ReportMetric(float64(len(proof)), "proof-bytes")
	alternate(b, func() {
		if err := Verify(st, proof); err != nil {
			b.Fatal(err)
		}
	})
}

// TestFalseStatements: Prove refuses a witness that does not satisfy the
// statement (ErrWitness), and the same prover without that check makes
// proofs of the false statements that fail.
func TestFalseStatements(t *testing.T) {
	const n = 8
	for name, change := range map[string]func(st *Statement, w *Witness){
		"duplicated element": func(st *Statement, w *Witness) { st.Out[3] = st.Out[2] },
		"sum of two elements": func(st *Statement, w *Witness) {
			p, _ := group.NewPoint(ristretto255.NewIdentityElement().Add(st.Out[1].Element(), st.Out[2].Element()))
			st.Out[0] = *p
		},
		"element times two": func(st *Statement, w *Witness) {
			p, _ := group.NewPoint(ristretto255.NewIdentityElement().Add(st.Out[4].Element(), st.Out[4].Element()))
			st.Out[4] = *p
		},
		"junk element": func(st *Statement, w *Witness) {
			p, _ := group.NewPoint(group.NewTranscript("junk").Element())
			st.Out[5] = *p
		},
		"wrong scalar for the key": func(st *Statement, w *Witness) {
			k, _ := group.NewPoint(ristretto255.NewIdentityElement().Add(st.Key.Element(), st.Key.Element()))
			st.Key = k
		},
		"wrong permutation in the witness": func(st *Statement, w *Witness) {
			w.Perm[0], w.Perm[1] = w.Perm[1], w.Perm[0]
		},
	} {
		st, w, key := testCase(t, "false", n)
		change(st, w)
		if proof, err := Prove(st, w, key); !errors.Is(err, ErrWitness) || proof != nil {
			t.Errorf("%s: Prove returned %d bytes and %v, want ErrWitness", name, len(proof), err)
		}
		proof, err := prove(st, w, key, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(st, proof); !errors.Is(err, ErrInvalidProof) {
			t.Errorf("%s: got %v, want ErrInvalidProof", name, err)
		}
	}
}

// TestEveryByte flips every bit position of every byte of a small proof:
// each is refused, as malformed or as invalid.
func TestEveryByte(t *testing.T) {
	const n = 5
	st, w, key := testCase(t, "bytes", n)
	proof, err := Prove(st, w, key)
	if err != nil {
		t.Fatal(err)
	}
	step := 3
	if raceEnabled {
		step = 8 // one bit per byte
	}
	for i := range proof {
		for bit := i % 3; bit < 8; bit += step {
			bad := append([]byte(nil), proof...)
			bad[i] ^= 1 << bit
			err := Verify(st, bad)
			if !errors.Is(err, ErrInvalidProof) && !errors.Is(err, ErrProofEncoding) {
				t.Fatalf("byte %d bit %d: got %v", i, bit, err)
			}
		}
	}
	for _, l := range []int{0, len(proof) - 1, len(proof) + 1, len(proof) + 32} {
		b := make([]byte, l)
		copy(b, proof)
		if err := Verify(st, b); !errors.Is(err, ErrProofEncoding) {
			t.Errorf("length %d: got %v", l, err)
		}
	}
}

func TestBadParams(t *testing.T) {
	st, w, key := testCase(t, "params", 4)
	if _, err := Prove(st, w, key[:31]); !errors.Is(err, ErrParams) {
		t.Errorf("short key: %v", err)
	}
	bad := *w
	bad.Perm = []int{0, 1, 1, 2}
	if _, err := Prove(st, &bad, key); !errors.Is(err, ErrParams) {
		t.Errorf("not a permutation: %v", err)
	}
	short := *st
	short.Out = st.Out[:3]
	if err := Verify(&short, make([]byte, Size(4))); !errors.Is(err, ErrParams) {
		t.Errorf("lists of different lengths: %v", err)
	}
	one := *st
	one.In, one.Out = st.In[:1], st.Out[:1]
	if _, err := Prove(&one, &Witness{Scalar: w.Scalar, Perm: []int{0}}, key); !errors.Is(err, ErrParams) {
		t.Errorf("one element: %v", err)
	}
	if _, err := DecodeProof(nil, 1); !errors.Is(err, ErrParams) {
		t.Errorf("decode n=1: %v", err)
	}
}

// FuzzDecodeProof: DecodeProof never panics, and what it accepts re-encodes
// to the same bytes; Verify never panics and accepts only the one proof.
func FuzzDecodeProof(f *testing.F) {
	st, w, key := testCase(f, "fuzz", 3)
	good, err := Prove(st, w, key)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:100])
	f.Add(make([]byte, Size(3)))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodeProof(b, 3)
		if err != nil {
			if !errors.Is(err, ErrProofEncoding) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		var enc []byte
		for _, q := range []*group.Point{&p.CPi, &p.CM, &p.CD, &p.CLow, &p.CMid, &p.K, &p.K3} {
			enc = append(enc, q.Bytes()...)
		}
		for _, s := range p.A {
			enc = append(enc, s.Bytes()...)
		}
		for _, s := range p.B {
			enc = append(enc, s.Bytes()...)
		}
		enc = append(append(append(enc, p.R.Bytes()...), p.S.Bytes()...), p.Z.Bytes()...)
		if string(enc) != string(b) {
			t.Fatal("decoded proof does not re-encode to its input")
		}
		if err := Verify(st, b); err == nil && string(b) != string(good) {
			t.Fatal("a second proof verifies")
		}
	})
}
