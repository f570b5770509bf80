package group

import (
	"fmt"
	"testing"

	"github.com/gtank/ristretto255"
)

// msmInputs returns n pseudo-random scalars and points derived from label.
func msmInputs(label string, n int) ([]*ristretto255.Scalar, []*ristretto255.Element) {
	sc := make([]*ristretto255.Scalar, n)
	pts := make([]*ristretto255.Element, n)
	for i := range sc {
		sc[i] = NewTranscript(label).Int(i).String("s").Scalar()
		pts[i] = NewTranscript(label).Int(i).String("p").Element()
	}
	return sc, pts
}

// TestVarTimeMSM compares the bucket method with ristretto255's Straus on
// every path (small, one core, two cores) and on edge scalars (0, 1, -1,
// small, 2^252-ish), with repeated points.
func TestVarTimeMSM(t *testing.T) { bothPaths(t, testVarTimeMSM) }

func testVarTimeMSM(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 64, pippengerMin - 1, pippengerMin, 1500, parallelMin + 3} {
		sc, pts := msmInputs(fmt.Sprint("msm", n), n)
		for i := range sc {
			switch i % 7 {
			case 1:
				sc[i] = ristretto255.NewScalar()
			case 2:
				sc[i] = smallScalarT(1)
			case 3:
				sc[i] = ristretto255.NewScalar().Negate(smallScalarT(1))
			case 4:
				sc[i] = smallScalarT(uint64(i))
			case 5:
				pts[i] = pts[i-1] // repeated point
			case 6:
				// Decoded from its encoding: Z = 1 (extToNiels' affine path).
				var e ristretto255.Element
				if _, err := e.SetCanonicalBytes(pts[i].Bytes()); err != nil {
					t.Fatal(err)
				}
				pts[i] = &e
			}
		}
		want := ristretto255.NewIdentityElement().VarTimeMultiScalarMult(sc, pts)
		if got := VarTimeMSM(sc, pts); got.Equal(want) != 1 {
			t.Fatalf("n=%d: VarTimeMSM differs from Straus", n)
		}
		if n > 0 {
			if got := pippenger(sc, pts); got.Equal(want) != 1 {
				t.Fatalf("n=%d: pippenger differs from Straus", n)
			}
			if !fastOK {
				t.Fatal("ristretto255.Element is not laid out as an edwards25519.Point: the bucket method on coordinates is off")
			}
			if got := pippengerFast(sc, pts); got.Equal(want) != 1 {
				t.Fatalf("n=%d: pippengerFast differs from Straus", n)
			}
			if useFe8 {
				if got := newPart(sc, pts).pippengerLanes(); got.Equal(want) != 1 {
					t.Fatalf("n=%d: pippengerLanes differs from Straus", n)
				}
			}
		}
	}
}

func smallScalarT(v uint64) *ristretto255.Scalar {
	var b [32]byte
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
	s, err := ristretto255.NewScalar().SetCanonicalBytes(b[:])
	if err != nil {
		panic(err)
	}
	return s
}

// TestDigits checks that the signed digits recompose the scalar for every
// width, on l-1 (the largest scalar) and on random ones.
func TestDigits(t *testing.T) {
	lm1 := ristretto255.NewScalar().Negate(smallScalarT(1))
	scs := []*ristretto255.Scalar{lm1, ristretto255.NewScalar(), smallScalarT(1),
		ristretto255.NewScalar().Negate(smallScalarT(1 << 60)), smallScalarT(1 << 63)}
	for i := 0; i < 20; i++ {
		scs = append(scs, NewTranscript("digits").Int(i).Scalar())
	}
	for c := 4; c <= 16; c++ {
		windows := (scalarBits+c-1)/c + 1
		for _, s := range scs {
			d := make([]int32, windows)
			if digits(s, c, d) {
				for w := range d {
					d[w] = -d[w]
				}
			}
			// Horner from the top: sum d_w * 2^(c*w).
			acc := ristretto255.NewScalar()
			base := smallScalarT(1 << c)
			for w := windows - 1; w >= 0; w-- {
				acc.Multiply(acc, base)
				if d[w] < -(1<<(c-1)) || d[w] > 1<<(c-1) {
					t.Fatalf("c=%d: digit %d out of range", c, d[w])
				}
				v := smallScalarT(uint64(abs32(d[w])))
				if d[w] < 0 {
					acc.Subtract(acc, v)
				} else {
					acc.Add(acc, v)
				}
			}
			if acc.Equal(s) != 1 {
				t.Fatalf("c=%d: digits do not recompose %x", c, s.Bytes())
			}
		}
	}
}

// TestDigitsSmallNegative: the digits of -z for a 128-bit z are as few as
// those of z (a batch's weights enter the sum negated), not those of l-z.
func TestDigitsSmallNegative(t *testing.T) {
	z := NewTranscript("small").Scalar()
	b := z.Bytes()
	clear(b[16:])
	z, err := ristretto255.NewScalar().SetCanonicalBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*ristretto255.Scalar{z, ristretto255.NewScalar().Negate(z)} {
		for c := 4; c <= 16; c++ {
			windows := (scalarBits+c-1)/c + 1
			d := make([]int32, windows)
			digits(s, c, d)
			for w := (128+c-1)/c + 1; w < windows; w++ {
				if d[w] != 0 {
					t.Fatalf("c=%d: digit %d of a 128-bit scalar (or its negation) is %d", c, w, d[w])
				}
			}
		}
	}
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// TestBatchMerges checks that terms of one point are merged and the sum kept.
func TestBatchMerges(t *testing.T) {
	sc, pts := msmInputs("batch", 4)
	var b Batch
	if !b.IsIdentity() {
		t.Fatal("empty batch is not the identity")
	}
	b.Add(sc[0], pts[0])
	b.Add(sc[1], pts[1])
	b.Add(ristretto255.NewScalar().Negate(sc[0]), pts[0])
	if b.Len() != 2 {
		t.Fatalf("Len = %d, want 2", b.Len())
	}
	if b.IsIdentity() {
		t.Fatal("sc[1]*pts[1] taken for the identity")
	}
	var l Terms
	AddScaled(&l, ristretto255.NewScalar().Negate(smallScalarT(1)), sc[1:2], pts[1:2])
	b.AddTerms(&l)
	if !b.IsIdentity() {
		t.Fatal("terms that cancel do not sum to the identity")
	}
}

// BenchmarkMSM compares ristretto255's Straus with the bucket method at the
// sizes a verification meets (a shuffle argument, a re-key batch, a hand,
// a match).
func BenchmarkMSM(b *testing.B) {
	for _, n := range []int{106, 165, 266, 330, 531, 1024, 2048, 4096, 16384} {
		sc, pts := msmInputs("bench", n)
		b.Run(fmt.Sprintf("straus/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				ristretto255.NewIdentityElement().VarTimeMultiScalarMult(sc, pts)
			}
		})
		b.Run(fmt.Sprintf("pippenger/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				pippenger(sc, pts)
			}
		})
		b.Run(fmt.Sprintf("pippengerFast/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				pippengerFast(sc, pts)
			}
		})
		// Decoded points (Z = 1), as a verifier's.
		dec := make([]*ristretto255.Element, n)
		for i := range pts {
			dec[i] = new(ristretto255.Element)
			if _, err := dec[i].SetCanonicalBytes(pts[i].Bytes()); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(fmt.Sprintf("straus-decoded/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				ristretto255.NewIdentityElement().VarTimeMultiScalarMult(sc, dec)
			}
		})
		b.Run(fmt.Sprintf("pippengerFast-decoded/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				pippengerFast(sc, dec)
			}
		})
		if useFe8 {
			b.Run(fmt.Sprintf("pippengerLanes-decoded/n=%d", n), func(b *testing.B) {
				for b.Loop() {
					newPart(sc, dec).pippengerLanes()
				}
			})
		}
	}
}

// TestFirstFailure is a property test of the bisection: items whose terms
// are r_i*(P_i - Q_i), Q_i = P_i for a good item and P_i + G for a bad one,
// random sets of bad items at random places; FirstFailure returns the lowest
// bad index, as checking one by one does, and -1 when none is bad.
func TestFirstFailure(t *testing.T) {
	const n = 40
	_, pts := msmInputs("ff", n)
	g := ristretto255.NewGeneratorElement()
	bad := make([]*ristretto255.Element, n)
	for i := range bad {
		bad[i] = ristretto255.NewIdentityElement().Add(pts[i], g)
	}
	for trial := 0; trial < 60; trial++ {
		isBad := make([]bool, n)
		want := -1
		for k := 0; k < trial%4; k++ {
			i := int(NewStream("ff-pos", []byte{byte(trial), byte(k)}).Uniform(n))
			isBad[i] = true
		}
		for i := range isBad {
			if isBad[i] {
				want = i
				break
			}
		}
		w := make([]*ristretto255.Scalar, n)
		for i := range w {
			w[i] = NewTranscript("ff-w").Int(trial).Int(i).Scalar()
		}
		exactCalls := 0
		got := FirstFailure(n, func(b *Batch, i int) {
			q := pts[i]
			if isBad[i] {
				q = bad[i]
			}
			b.Add(w[i], pts[i])
			b.Add(ristretto255.NewScalar().Negate(w[i]), q)
		}, func(i int) bool { exactCalls++; return !isBad[i] })
		if got != want {
			t.Fatalf("trial %d: FirstFailure = %d, want %d (bad: %v)", trial, got, want, isBad)
		}
		if want < 0 && exactCalls != 0 {
			t.Fatalf("trial %d: a passing batch checked %d items one by one", trial, exactCalls)
		}
	}
}

// TestSubstitute: a batch that sums to the identity, with points replaced
// by their values (s*base), still does when every value is right, and does
// not when one is wrong, whichever; the count is the points replaced.
func TestSubstitute(t *testing.T) {
	const n = 12
	sc, base := msmInputs("subst", n)
	g := ristretto255.NewGeneratorElement()
	// p_i = sc[i]*base[i%3]; the batch holds w_i*p_i - (w_i*sc[i])*base.
	pts := make([]*ristretto255.Element, n)
	for i := range pts {
		pts[i] = ristretto255.NewIdentityElement().ScalarMult(sc[i], base[i%3])
	}
	w := NewStream("subst-w", nil)
	weight := func(z *ristretto255.Scalar) {
		var b [32]byte
		for k := 0; k < 16; k++ {
			b[k] = byte(w.Uint64())
		}
		if _, err := z.SetCanonicalBytes(b[:]); err != nil {
			t.Fatal(err)
		}
	}
	build := func() *Batch {
		var b Batch
		for i := range pts {
			wi := NewTranscript("subst-wi").Int(i).Scalar()
			b.Add(wi, pts[i])
			b.Add(ristretto255.NewScalar().Negate(ristretto255.NewScalar().Multiply(wi, sc[i])), base[i%3])
		}
		return &b
	}
	if !build().IsIdentity() {
		t.Fatal("the batch does not sum to the identity")
	}
	for wrong := -1; wrong < n; wrong++ {
		b := build()
		got := b.Substitute(func(p *ristretto255.Element) (*ristretto255.Scalar, *ristretto255.Element, bool) {
			for i := range pts {
				if pts[i] == p {
					if i == wrong {
						return ristretto255.NewScalar().Add(sc[i], smallScalarT(1)), base[i%3], true
					}
					return sc[i], base[i%3], true
				}
			}
			return nil, nil, false
		}, weight)
		if got != n {
			t.Fatalf("substituted %d points, want %d", got, n)
		}
		if ok := b.IsIdentity(); ok != (wrong < 0) {
			t.Fatalf("one wrong value at %d: identity %v", wrong, ok)
		}
	}
	// A point not known stays: the batch's sum is unchanged.
	b := build()
	b.Add(smallScalarT(1), g)
	if b.Substitute(func(*ristretto255.Element) (*ristretto255.Scalar, *ristretto255.Element, bool) {
		return nil, nil, false
	}, weight) != 0 || b.IsIdentity() {
		t.Fatal("substituting nothing changed the sum")
	}
}

// TestVarTimeMSMShort: sums with many short scalars (128-bit weights and
// their negations, as a batch's) beside full ones, on every path of the
// split (Straus for one part, buckets on one or two cores for the other),
// equal Straus.
func TestVarTimeMSMShort(t *testing.T) { bothPaths(t, testVarTimeMSMShort) }

func testVarTimeMSMShort(t *testing.T) {
	for _, c := range []struct{ short, long int }{{300, 10}, {10, 300}, {900, 300}, {2000, 800}, {255, 255}} {
		n := c.short + c.long
		sc, pts := msmInputs(fmt.Sprint("short", n), n)
		for i := 0; i < c.short; i++ {
			b := sc[i].Bytes()
			clear(b[16:])
			s, err := ristretto255.NewScalar().SetCanonicalBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			if i%2 == 1 {
				s.Negate(s)
			}
			sc[i] = s
		}
		want := ristretto255.NewIdentityElement().VarTimeMultiScalarMult(sc, pts)
		if got := VarTimeMSM(sc, pts); got.Equal(want) != 1 {
			t.Fatalf("%+v: VarTimeMSM differs from Straus", c)
		}
	}
}

// TestMSMLanesOneBucket: every term in one bucket (all lanes hand over to
// it), or alternating signs, or all zero, against Straus.
func TestMSMLanesOneBucket(t *testing.T) {
	if !useFe8 {
		t.Skip("no AVX-512 IFMA here")
	}
	for _, c := range []struct {
		name string
		f    func(i int) *ristretto255.Scalar
	}{
		{"same", func(int) *ristretto255.Scalar { return smallScalarT(5) }},
		{"signs", func(i int) *ristretto255.Scalar {
			if i%2 == 0 {
				return smallScalarT(3)
			}
			return ristretto255.NewScalar().Negate(smallScalarT(3))
		}},
		{"zero", func(int) *ristretto255.Scalar { return ristretto255.NewScalar() }},
		{"one nonzero", func(i int) *ristretto255.Scalar {
			if i == 333 {
				return smallScalarT(1 << 40)
			}
			return ristretto255.NewScalar()
		}},
	} {
		_, pts := msmInputs("onebucket", 600)
		sc := make([]*ristretto255.Scalar, len(pts))
		for i := range sc {
			sc[i] = c.f(i)
		}
		want := ristretto255.NewIdentityElement().VarTimeMultiScalarMult(sc, pts)
		if got := newPart(sc, pts).pippengerLanes(); got.Equal(want) != 1 {
			t.Fatalf("%s: pippengerLanes differs from Straus", c.name)
		}
		if got := VarTimeMSM(sc, pts); got.Equal(want) != 1 {
			t.Fatalf("%s: VarTimeMSM differs from Straus", c.name)
		}
	}
}
