package dleq

import (
	"bytes"
	"crypto/sha512"
	"errors"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
)

type fixedRand struct{ ctr byte }

func (r *fixedRand) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.ctr
		r.ctr++
	}
	return len(p), nil
}

func scalar(seed string) *ristretto255.Scalar {
	d := sha512.Sum512([]byte(seed))
	s, err := ristretto255.NewScalar().SetUniformBytes(d[:])
	if err != nil {
		panic(err) // d is 64 bytes
	}
	return s
}

func point(t testing.TB, e *ristretto255.Element) *group.Point {
	p, err := group.NewPoint(e)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// statement returns a true statement for witness x: H1 = x*G1, H2 = x*G2.
func statement(t testing.TB, seed string, x *ristretto255.Scalar) *Statement {
	g1 := ristretto255.NewIdentityElement().ScalarBaseMult(scalar(seed + "g1"))
	g2 := ristretto255.NewIdentityElement().ScalarBaseMult(scalar(seed + "g2"))
	return &Statement{
		G1: point(t, g1), H1: point(t, ristretto255.NewIdentityElement().ScalarMult(x, g1)),
		G2: point(t, g2), H2: point(t, ristretto255.NewIdentityElement().ScalarMult(x, g2)),
	}
}

func TestProveVerify(t *testing.T) {
	x := scalar("x")
	st := statement(t, "s", x)
	ctx := []byte("context")
	p, err := Prove(ctx, st, x, &fixedRand{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(ctx, st, p); err != nil {
		t.Fatalf("honest proof: %v", err)
	}
	t.Run("other context", func(t *testing.T) {
		if err := Verify([]byte("context2"), st, p); !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("tampered s", func(t *testing.T) {
		q := *p
		q.S.Add(&q.S, scalar("one"))
		if err := Verify(ctx, st, &q); !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("swapped statement", func(t *testing.T) {
		sw := &Statement{G1: st.G2, H1: st.H2, G2: st.G1, H2: st.H1}
		if err := Verify(ctx, sw, p); !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("false statement", func(t *testing.T) {
		// A prover who uses a different exponent for H2 cannot prove.
		bad := &Statement{G1: st.G1, H1: st.H1, G2: st.G2, H2: point(t, ristretto255.NewIdentityElement().ScalarMult(scalar("y"), st.G2.Element()))}
		q, err := Prove(ctx, bad, x, &fixedRand{})
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(ctx, bad, q); !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("fixed-base prover agrees", func(t *testing.T) {
		g1 := scalar("s" + "g1")
		q, err := ProveEntropy(ctx, st, x, g1, make([]byte, 32))
		r, err2 := ProveEntropy(ctx, st, x, nil, make([]byte, 32))
		if err != nil || err2 != nil || !bytes.Equal(q.Bytes(), r.Bytes()) {
			t.Fatal("fixed-base and variable-base provers differ")
		}
	})
}

func TestBatchVerify(t *testing.T) {
	const n = 40
	items := make([]Item, n)
	shared := statement(t, "shared", scalar("w0"))
	for i := range items {
		x := scalar(string(rune('a' + i)))
		st := statement(t, string(rune('A'+i)), x)
		if i%2 == 0 { // consecutive items sharing G1, as in a re-key message
			st = &Statement{G1: shared.G1, H1: point(t, ristretto255.NewIdentityElement().ScalarMult(x, shared.G1.Element())), G2: st.G2, H2: st.H2}
		}
		ctx := []byte{byte(i)}
		p, err := Prove(ctx, st, x, &fixedRand{})
		if err != nil {
			t.Fatal(err)
		}
		items[i] = Item{Context: ctx, Statement: st, Proof: p}
	}
	if i, err := BatchVerify(items, nil); err != nil {
		t.Fatalf("honest batch: index %d: %v", i, err)
	}
	if i, err := BatchVerify(nil, nil); i != -1 || err != nil {
		t.Fatal("empty batch")
	}
	// Break items 33 and 7 (in both halves): the lowest index is reported.
	bad := append([]Item(nil), items...)
	for _, k := range []int{33, 7} {
		q := *bad[k].Proof
		q.S.Add(&q.S, scalar("one"))
		bad[k].Proof = &q
	}
	for round := 0; round < 3; round++ {
		if i, err := BatchVerify(bad, nil); i != 7 || !errors.Is(err, ErrInvalidProof) {
			t.Fatalf("got %d, %v; want 7", i, err)
		}
	}
	// A proof moved to another item's context (replay) fails.
	rep := append([]Item(nil), items...)
	rep[12].Context = rep[13].Context
	if i, err := BatchVerify(rep, nil); i != 12 || err == nil {
		t.Fatalf("replay: got %d, %v", i, err)
	}
	// Two invalid proofs whose errors cancel in an unweighted sum are caught:
	// add d to s of one and subtract it from another with the same G1... the
	// random weights make the sum nonzero.
	canc := append([]Item(nil), items...)
	d := scalar("d")
	q0, q2 := *canc[0].Proof, *canc[2].Proof
	q0.S.Add(&q0.S, d)
	q2.S.Subtract(&q2.S, d)
	canc[0].Proof, canc[2].Proof = &q0, &q2
	if i, err := BatchVerify(canc, nil); i != 0 || err == nil {
		t.Fatalf("cancelling errors: got %d, %v", i, err)
	}
}

func TestDecodeProof(t *testing.T) {
	x := scalar("x")
	st := statement(t, "s", x)
	p, err := Prove(nil, st, x, &fixedRand{})
	if err != nil {
		t.Fatal(err)
	}
	b := p.Bytes()
	q, err := DecodeProof(b)
	if err != nil || !bytes.Equal(q.Bytes(), b) {
		t.Fatalf("round trip: %v", err)
	}
	for name, mut := range map[string]func([]byte) []byte{
		"short":           func(b []byte) []byte { return b[:95] },
		"long":            func(b []byte) []byte { return append(b, 0) },
		"identity R1":     func(b []byte) []byte { copy(b, make([]byte, 32)); return b },
		"noncanonical R2": func(b []byte) []byte { b[32+31] |= 0x80; return b },
		"noncanonical s":  func(b []byte) []byte { b[95] = 0xff; return b },
	} {
		if _, err := DecodeProof(mut(append([]byte(nil), b...))); !errors.Is(err, ErrProofEncoding) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func FuzzDecodeProof(f *testing.F) {
	x := scalar("x")
	st := statement(f, "s", x)
	p, _ := Prove(nil, st, x, &fixedRand{})
	f.Add(p.Bytes())
	f.Add(make([]byte, ProofSize))
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := DecodeProof(b)
		if err != nil {
			return
		}
		if !bytes.Equal(q.Bytes(), b) {
			t.Fatalf("round trip: %x -> %x", b, q.Bytes())
		}
	})
}
