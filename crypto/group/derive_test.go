package group

import (
	"bytes"
	"fmt"
	"testing"

	"filippo.io/edwards25519/field"
	"github.com/gtank/ristretto255"
)

func TestDeriveConstants(t *testing.T) {
	var minusDMinusOne, x field.Element
	minusDMinusOne.Negate(feD)
	minusDMinusOne.Subtract(&minusDMinusOne, feOne) // a*d - 1, a = -1
	if x.Square(feSqrtADMinusOne).Equal(&minusDMinusOne) != 1 {
		t.Error("SQRT_AD_MINUS_ONE")
	}
	if x.Square(feInvSqrtAMinusD).Multiply(&x, &minusDMinusOne).Equal(feOne) != 1 { // a - d = -1 - d
		t.Error("INVSQRT_A_MINUS_D")
	}
	var d2, dm1 field.Element
	d2.Square(feD)
	if x.Subtract(feOne, &d2).Equal(feOneMinusDSq) != 1 {
		t.Error("ONE_MINUS_D_SQ")
	}
	dm1.Subtract(feD, feOne)
	if x.Square(&dm1).Equal(feDMinusOneSq) != 1 {
		t.Error("D_MINUS_ONE_SQ")
	}
	if x.Square(feSqrtM1).Equal(feMinusOne) != 1 || feSqrtM1.IsNegative() != 0 {
		t.Error("SQRT_M1")
	}
}

// uniformCases returns 64-byte inputs: hash outputs, edge values (zero,
// all ones, p and around it in either half) and RFC 9496's test vectors'
// inputs are hash outputs too.
func uniformCases() [][64]byte {
	var out [][64]byte
	for k := 0; k < 150; k++ {
		out = append(out, NewTranscript("okey/test/uniform").Uint32(uint32(k)).Sum())
	}
	var z, ff, p [64]byte
	for i := range ff {
		ff[i] = 0xff
	}
	copy(p[:], mustHexNoT("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
	copy(p[32:], p[:32])
	out = append(out, z, ff, p)
	h := out[0]
	copy(h[32:], z[:32])
	out = append(out, h)
	return out
}

func mustHexNoT(s string) []byte {
	b := make([]byte, len(s)/2)
	for i := range b {
		fmt.Sscanf(s[2*i:2*i+2], "%02x", &b[i])
	}
	return b
}

func TestPointsFromUniformMatchesRistretto(t *testing.T) {
	bothPaths(t, func(t *testing.T) {
		cases := uniformCases()
		for n := 1; n <= 2*decodeLanes+1; n++ {
			for off := 0; off+n <= len(cases); off += 11 {
				ps := make([]Point, n)
				i, err := PointsFromUniform(ps, cases[off:off+n])
				wantIdx := -1
				for k := range ps {
					want := ristretto255.NewIdentityElement()
					if _, err := want.SetUniformBytes(cases[off+k][:]); err != nil {
						t.Fatal(err)
					}
					if want.Equal(ristretto255.NewIdentityElement()) == 1 {
						wantIdx = k // all-zero bytes: MAP(0) + MAP(0)
						break
					}
					if ps[k].Element().Equal(want) != 1 || !bytes.Equal(ps[k].Bytes(), want.Bytes()) ||
						!bytes.Equal(ps[k].Element().Bytes(), want.Bytes()) {
						t.Fatalf("%d+%d: point %d differs", off, n, k)
					}
				}
				if i != wantIdx || (err != nil) != (wantIdx >= 0) || (err != nil && err != ErrIdentity) {
					t.Fatalf("%d+%d: %d %v, want %d", off, n, i, err, wantIdx)
				}
			}
		}
	})
}

func TestPointsFromUniformIdentity(t *testing.T) {
	// Not reachable from a hash; the check is Point.Set's. Encoding the
	// identity gives 32 zero bytes, which is what PointsFromUniform tests.
	var enc [1][PointSize]byte
	id := ristretto255.NewIdentityElement()
	var e [1]ristretto255.Element
	e[0].Set(id)
	encodeMany(enc[:], edPoints(e[:]))
	if enc[0] != zero32 {
		t.Fatalf("identity encodes to %x", enc[0])
	}
}

func FuzzPointsFromUniform(f *testing.F) {
	f.Add(make([]byte, 64), make([]byte, 64))
	f.Add(bytes.Repeat([]byte{0xff}, 64), bytes.Repeat([]byte{1}, 64))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(a) != 64 || len(b) != 64 {
			return
		}
		var in [2][64]byte
		copy(in[0][:], a)
		copy(in[1][:], b)
		ps := make([]Point, 2)
		i, err := PointsFromUniform(ps, in[:])
		for k := range in {
			want := ristretto255.NewIdentityElement()
			if _, err := want.SetUniformBytes(in[k][:]); err != nil {
				t.Fatal(err)
			}
			if want.Equal(ristretto255.NewIdentityElement()) == 1 {
				if err == nil || i > k {
					t.Fatalf("identity %d not reported: %d %v", k, i, err)
				}
				return
			}
			if err != nil && i <= k {
				t.Fatalf("%d: %v", k, err)
			}
			if ps[k].Element().Equal(want) != 1 || !bytes.Equal(ps[k].Bytes(), want.Bytes()) {
				t.Fatalf("point %d differs", k)
			}
		}
	})
}

// BenchmarkPointsFromUniform derives 106 points one by one (as
// Transcript.Element and NewPoint) and side by side.
func BenchmarkPointsFromUniform(b *testing.B) {
	in := uniformCases()[:106]
	ps := make([]Point, 106)
	b.Run("one", func(b *testing.B) {
		for b.Loop() {
			for k := range in {
				e, _ := ristretto255.NewIdentityElement().SetUniformBytes(in[k][:])
				if err := ps[k].Set(e); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("many", func(b *testing.B) {
		for b.Loop() {
			if _, err := PointsFromUniform(ps, in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
