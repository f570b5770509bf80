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
