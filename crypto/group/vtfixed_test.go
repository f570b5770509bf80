package group

import (
	"testing"

	"github.com/gtank/ristretto255"
)

func TestWNAF(t *testing.T) {
	for _, w := range []uint{vtVarW, vtFixedW} {
		for _, s := range ctScalars("wnaf", 200) {
			naf := wnaf(s, w)
			sum := ristretto255.NewScalar()
			pow := smallScalarT(1)
			two := smallScalarT(2)
			last := -1000
			for i, v := range naf {
				if v != 0 {
					if v%2 == 0 || int(abs8(v)) >= 1<<(w-1) {
						t.Fatalf("w=%d: digit %d = %d", w, i, v)
					}
					if i-last < int(w) {
						t.Fatalf("w=%d: nonzero digits %d and %d too close", w, last, i)
					}
					last = i
					term := ristretto255.NewScalar().Multiply(smallScalarT(uint64(abs8(v))), pow)
					if v < 0 {
						sum.Subtract(sum, term)
					} else {
						sum.Add(sum, term)
					}
				}
				pow.Multiply(pow, two)
			}
			if sum.Equal(s) != 1 {
				t.Fatalf("w=%d: digits of %x do not sum to it", w, s.Bytes())
			}
		}
	}
}

func TestVarTimeMSMTables(t *testing.T) {
	scalars := ctScalars("vt", 80)
	var pts []*ristretto255.Element
	var tabs []*VarTable
	for i := range scalars {
		p := NewTranscript("vt-point").Int(i).Element()
		switch i {
		case 2:
			p = ristretto255.NewGeneratorElement()
		case 4:
			p = ristretto255.NewIdentityElement()
		}
		pts = append(pts, p)
		tabs = append(tabs, NewVarTable(p))
		if tabs[i].tab == nil {
			t.Fatal("coordinates not readable: the fast path is not tested")
		}
	}
	for _, c := range []struct{ nf, nv int }{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {3, 17}, {40, 0}, {0, 40}, {40, 40}} {
		for rot := 0; rot < 3; rot++ {
			var fsc, sc, all []*ristretto255.Scalar
			var fixed []*VarTable
			var vpts, allPts []*ristretto255.Element
			for i := 0; i < c.nf; i++ {
				k := (i + rot*7) % len(scalars)
				fsc, fixed = append(fsc, scalars[k]), append(fixed, tabs[i])
				all, allPts = append(all, scalars[k]), append(allPts, pts[i])
			}
			for j := 0; j < c.nv; j++ {
				k := (j + 3 + rot*13) % len(scalars)
				sc, vpts = append(sc, scalars[k]), append(vpts, pts[40+j])
				all, allPts = append(all, scalars[k]), append(allPts, pts[40+j])
			}
			want := ristretto255.NewIdentityElement().VarTimeMultiScalarMult(all, allPts)
			if got := VarTimeMSMTables(fsc, fixed, sc, vpts); got.Equal(want) != 1 {
				t.Fatalf("%d fixed, %d other, rot %d: wrong sum", c.nf, c.nv, rot)
			}
		}
	}
	// Each term alone, so that no error can cancel in a sum.
	for i, s := range scalars {
		want := ristretto255.NewIdentityElement().ScalarMult(s, pts[i])
		one := []*ristretto255.Scalar{s}
		if VarTimeMSMTables(one, tabs[i:i+1], nil, nil).Equal(want) != 1 {
			t.Fatalf("fixed term %d alone: wrong product", i)
		}
		if VarTimeMSMTables(nil, nil, one, pts[i:i+1]).Equal(want) != 1 {
			t.Fatalf("other term %d alone: wrong product", i)
		}
	}
}

func FuzzVarTimeMSMTables(f *testing.F) {
	f.Add(make([]byte, 64), make([]byte, 32), make([]byte, 32))
	f.Fuzz(func(t *testing.T, pb, s1, s2 []byte) {
		if len(pb) != 64 || len(s1) != 32 || len(s2) != 32 {
			return
		}
		p := ristretto255.NewIdentityElement()
		if _, err := p.SetUniformBytes(pb); err != nil {
			t.Fatal(err)
		}
		q := ristretto255.NewIdentityElement().Add(p, ristretto255.NewGeneratorElement())
		sc := make([]*ristretto255.Scalar, 2)
		for i, b := range [][]byte{s1, s2} {
			var wide [64]byte
			copy(wide[:], b)
			sc[i], _ = ristretto255.NewScalar().SetUniformBytes(wide[:])
		}
		want := ristretto255.NewIdentityElement().VarTimeMultiScalarMult(sc, []*ristretto255.Element{p, q})
		if VarTimeMSMTables(sc[:1], []*VarTable{NewVarTable(p)}, sc[1:], []*ristretto255.Element{q}).Equal(want) != 1 {
			t.Fatal("wrong sum")
		}
	})
}
