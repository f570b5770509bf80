package group

import (
	"testing"

	"github.com/gtank/ristretto255"
)

// ctScalars returns scalars that exercise the recoding: 0, 1, small
// values, every digit at its extremes (l-1, 2^252, 8*16^i and its
// neighbours, all nibbles 8 or 15 below l), and hashed ones.
func ctScalars(label string, n int) []*ristretto255.Scalar {
	out := []*ristretto255.Scalar{ristretto255.NewScalar(), smallScalarT(1), smallScalarT(7), smallScalarT(8), smallScalarT(15), smallScalarT(16)}
	var minusOne ristretto255.Scalar
	out = append(out, minusOne.Negate(smallScalarT(1)))
	var b [32]byte
	b[31] = 0x10 // 2^252
	s, _ := ristretto255.NewScalar().SetCanonicalBytes(b[:])
	out = append(out, s)
	for i := 0; i < 63; i += 7 {
		var v [32]byte
		v[i/2] = 8 << (4 * (i % 2))
		s, _ := ristretto255.NewScalar().SetCanonicalBytes(v[:])
		out = append(out, s, ristretto255.NewScalar().Subtract(s, smallScalarT(1)), ristretto255.NewScalar().Add(s, smallScalarT(1)))
	}
	for _, fill := range []byte{0x88, 0xff, 0x77} {
		var v [32]byte
		for i := range v {
			v[i] = fill
		}
		v[31] = 0x0f & fill
		s, err := ristretto255.NewScalar().SetCanonicalBytes(v[:])
		if err != nil {
			panic(err)
		}
		out = append(out, s)
	}
	for i := 0; len(out) < n; i++ {
		out = append(out, NewTranscript(label).Int(i).Scalar())
	}
	return out
}

func TestRadix16(t *testing.T) {
	for _, s := range ctScalars("radix16", 200) {
		d := radix16(s)
		// sum d_i*16^i, evaluated in the scalar field, is s.
		sum := ristretto255.NewScalar()
		pow := smallScalarT(1)
		sixteen := smallScalarT(16)
		for i, v := range d {
			if v < -8 || v > 8 || (i < 63 && v == 8) {
				t.Fatalf("digit %d = %d out of range", i, v)
			}
			term := ristretto255.NewScalar().Multiply(smallScalarT(uint64(abs8(v))), pow)
			if v < 0 {
				sum.Subtract(sum, term)
			} else {
				sum.Add(sum, term)
			}
			pow.Multiply(pow, sixteen)
		}
		if sum.Equal(s) != 1 {
			t.Fatalf("digits of %x do not sum to it", s.Bytes())
		}
	}
}

func abs8(v int8) int8 {
	if v < 0 {
		return -v
	}
	return v
}

func TestSplitTableMatchesScalarMult(t *testing.T) {
	points := []*ristretto255.Element{ristretto255.NewGeneratorElement(), ristretto255.NewIdentityElement()}
	for i := 0; i < 4; i++ {
		points = append(points, NewTranscript("split-point").Int(i).Element())
	}
	scalars := ctScalars("split", 60)
	for pi, p := range points {
		tab := NewSplitTable(p)
		if tab.tab == nil {
			t.Fatal("coordinates not readable: the fast path is not tested")
		}
		for _, s := range scalars {
			want := ristretto255.NewIdentityElement().ScalarMult(s, p)
			var got ristretto255.Element
			if tab.ScalarMult(&got, s) != &got {
				t.Fatal("ScalarMult does not return dst")
			}
			if got.Equal(want) != 1 {
				t.Fatalf("point %d, scalar %x: got %x, want %x", pi, s.Bytes(), got.Bytes(), want.Bytes())
			}
		}
	}
}

func TestFixedMSMMatchesMultiScalarMult(t *testing.T) {
	scalars := ctScalars("fixed", 48)
	var tabs []*FixedTable
	var pts []*ristretto255.Element
	for i := range scalars {
		p := NewTranscript("fixed-point").Int(i).Element()
		if i == 3 {
			p = ristretto255.NewGeneratorElement()
		}
		if i == 5 {
			p = ristretto255.NewIdentityElement()
		}
		pts = append(pts, p)
		tabs = append(tabs, NewFixedTable(p))
		if tabs[i].tab == nil {
			t.Fatal("coordinates not readable: the fast path is not tested")
		}
	}
	for _, n := range []int{0, 1, 2, 7, len(scalars)} {
		for rot := 0; rot < 3; rot++ {
			sc := make([]*ristretto255.Scalar, n)
			for i := range sc {
				sc[i] = scalars[(i+rot*11)%len(scalars)]
			}
			want := ristretto255.NewIdentityElement().MultiScalarMult(sc, pts[:n])
			if got := FixedMSM(sc, tabs[:n]); got.Equal(want) != 1 {
				t.Fatalf("n=%d rot=%d: got %x, want %x", n, rot, got.Bytes(), want.Bytes())
			}
		}
	}
	// Each single term alone, so that no error can cancel in a sum.
	for i, s := range scalars {
		want := ristretto255.NewIdentityElement().ScalarMult(s, pts[i%len(pts)])
		if got := FixedMSM([]*ristretto255.Scalar{s}, tabs[i%len(tabs):i%len(tabs)+1]); got.Equal(want) != 1 {
			t.Fatalf("scalar %x alone: wrong product", s.Bytes())
		}
	}
}

func FuzzSplitTable(f *testing.F) {
	f.Add(make([]byte, 64), make([]byte, 32))
	f.Fuzz(func(t *testing.T, pb, sb []byte) {
		if len(pb) != 64 || len(sb) != 32 {
			return
		}
		p := ristretto255.NewIdentityElement()
		if _, err := p.SetUniformBytes(pb); err != nil {
			t.Fatal(err)
		}
		s, err := ristretto255.NewScalar().SetCanonicalBytes(sb)
		if err != nil {
			// A reduced scalar instead: every value below l is reachable.
			var wide [64]byte
			copy(wide[:], sb)
			s, _ = ristretto255.NewScalar().SetUniformBytes(wide[:])
		}
		want := ristretto255.NewIdentityElement().ScalarMult(s, p)
		var got ristretto255.Element
		if NewSplitTable(p).ScalarMult(&got, s).Equal(want) != 1 {
			t.Fatalf("scalar %x: wrong product", s.Bytes())
		}
		if FixedMSM([]*ristretto255.Scalar{s}, []*FixedTable{NewFixedTable(p)}).Equal(want) != 1 {
			t.Fatalf("scalar %x: wrong FixedMSM product", s.Bytes())
		}
	})
}

func BenchmarkSplitTable(b *testing.B) {
	p := NewTranscript("bench-split").Element()
	s := NewTranscript("bench-split-scalar").Scalar()
	var e ristretto255.Element
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			NewSplitTable(p)
		}
	})
	b.Run("mult", func(b *testing.B) {
		tab := NewSplitTable(p)
		for b.Loop() {
			tab.ScalarMult(&e, s)
		}
	})
	b.Run("scalarmult", func(b *testing.B) {
		for b.Loop() {
			e.ScalarMult(s, p)
		}
	})
}
