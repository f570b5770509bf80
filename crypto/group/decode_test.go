package group

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/gtank/ristretto255"
)

// refDecode is ristretto255's own decoding, with DecodePoint's errors.
func refDecode(b []byte) (*ristretto255.Element, error) {
	if len(b) != PointSize {
		return nil, ErrPointEncoding
	}
	if bytes.Equal(b, zero32[:]) {
		return nil, ErrIdentity
	}
	e, err := ristretto255.NewIdentityElement().SetCanonicalBytes(b)
	if err != nil {
		return nil, ErrPointEncoding
	}
	return e, nil
}

// decodeCases returns encodings of every kind: valid points (small
// multiples of G, hashed points, their negations), the identity, RFC 9496's
// invalid encodings, values at and above p, negative field elements, and
// bytes from a stream (mostly invalid: non-squares, negative xy).
func decodeCases(t testing.TB) [][]byte {
	var out [][]byte
	g := ristretto255.NewGeneratorElement()
	e := ristretto255.NewIdentityElement()
	for k := 1; k <= 40; k++ {
		e.Add(e, g)
		out = append(out, e.Bytes(), ristretto255.NewIdentityElement().Negate(e).Bytes())
	}
	for k := 0; k < 40; k++ {
		out = append(out, NewTranscript("okey/test/decode").Uint32(uint32(k)).Element().Bytes())
	}
	out = append(out, make([]byte, 32))
	for _, s := range []string{
		"00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
		"3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"0000000000000000000000000000000000000000000000000000000000000080",
	} {
		out = append(out, mustHex(t, s))
	}
	// A valid encoding with its top bit set (non-canonical), and s + p.
	v := g.Bytes()
	hi := append([]byte(nil), v...)
	hi[31] |= 0x80
	out = append(out, hi)
	st := NewStream("okey/test/decode-bytes", nil)
	for k := 0; k < 200; k++ {
		b := make([]byte, 32)
		for i := 0; i < 32; i += 8 {
			w := st.Uint64()
			for j := 0; j < 8; j++ {
				b[i+j] = byte(w >> (8 * j))
			}
		}
		if k%2 == 0 {
			b[31] &= 0x7f
			b[0] &^= 1 // non-negative: more of them pass the first checks
		}
		out = append(out, b)
	}
	return out
}

// sameDecoding fails t unless p (decoded with err) is what ristretto255
// decodes from b: the same error, or the same element and encoding, and the
// same arithmetic (p + p, p + G).
func sameDecoding(t *testing.T, b []byte, p *Point, err error) {
	t.Helper()
	ref, refErr := refDecode(b)
	if !errors.Is(err, refErr) || (err == nil) != (refErr == nil) {
		t.Fatalf("%x: got %v, want %v", b, err, refErr)
	}
	if err != nil {
		return
	}
	if p.Element().Equal(ref) != 1 || !bytes.Equal(p.Bytes(), b) || !bytes.Equal(p.Element().Bytes(), b) {
		t.Fatalf("%x: decoded to another element", b)
	}
	g := ristretto255.NewGeneratorElement()
	var a1, a2 ristretto255.Element
	if a1.Add(p.Element(), p.Element()).Equal(a2.Add(ref, ref)) != 1 ||
		a1.Add(p.Element(), g).Equal(a2.Add(ref, g)) != 1 {
		t.Fatalf("%x: arithmetic differs", b)
	}
}

// bothPaths runs f with fe8's lanes (where the processor has them) and
// with field.Element's.
func bothPaths(t *testing.T, f func(t *testing.T)) {
	saved := useFe8
	defer func() { useFe8 = saved }()
	for _, on := range []bool{false, true} {
		if on && !saved {
			t.Log("no AVX-512 IFMA here: fe8 path not run")
			continue
		}
		useFe8 = on
		t.Run(fmt.Sprintf("fe8=%v", on), f)
	}
}

func TestDecodeIntoMatchesRistretto(t *testing.T) { bothPaths(t, testDecodeInto) }

func testDecodeInto(t *testing.T) {
	cases := decodeCases(t)
	valid := 0
	for _, b := range cases {
		var ps [1]Point
		i, err := DecodeInto(ps[:], b)
		if (err == nil) != (i == -1) || (err != nil && i != 0) {
			t.Fatalf("%x: index %d with %v", b, i, err)
		}
		sameDecoding(t, b, &ps[0], err)
		if err == nil {
			valid++
		}
	}
	if valid < 100 {
		t.Fatalf("only %d valid cases", valid)
	}
	// Runs of every length and offset: the lowest bad index is reported,
	// and every point before it is decoded right.
	for n := 1; n <= 2*decodeLanes+1; n++ {
		for off := 0; off+n <= len(cases); off += 7 {
			var buf []byte
			for _, b := range cases[off : off+n] {
				buf = append(buf, b...)
			}
			ps := make([]Point, n)
			i, err := DecodeInto(ps, buf)
			want := -1
			var wantErr error
			for k, b := range cases[off : off+n] {
				if _, e := refDecode(b); e != nil {
					want, wantErr = k, e
					break
				}
			}
			if i != want || !errors.Is(err, wantErr) || (err == nil) != (wantErr == nil) {
				t.Fatalf("run %d+%d: got %d %v, want %d %v", off, n, i, err, want, wantErr)
			}
			// DecodeEach, on the same encodings in reverse order.
			qs, bs := make([]*Point, n), make([][]byte, n)
			for k := range qs {
				qs[k], bs[k] = new(Point), cases[off+n-1-k]
			}
			j, errEach := DecodeEach(qs, bs)
			wantEach := -1
			for k := n - 1; k >= 0; k-- {
				if _, e := refDecode(cases[off+k]); e != nil {
					wantEach = n - 1 - k
					break
				}
			}
			if j != wantEach || (errEach == nil) != (wantEach < 0) {
				t.Fatalf("DecodeEach run %d+%d: got %d %v, want %d", off, n, j, errEach, wantEach)
			}
			for k := 0; k < n && (wantEach < 0 || k < wantEach); k++ {
				sameDecoding(t, bs[k], qs[k], nil)
			}
			end := n
			if want >= 0 {
				end = want
			}
			for k := 0; k < end; k++ {
				sameDecoding(t, cases[off+k], &ps[k], nil)
			}
		}
	}
	if i, err := DecodeInto(make([]Point, 2), make([]byte, 63)); err == nil || i != 0 {
		t.Fatalf("short input: %d %v", i, err)
	}
	if i, err := DecodeInto(nil, nil); err != nil || i != -1 {
		t.Fatalf("empty: %d %v", i, err)
	}
}

func TestDecodePairMatchesRistretto(t *testing.T) { bothPaths(t, testDecodePair) }

func testDecodePair(t *testing.T) {
	cases := decodeCases(t)
	for i := range cases {
		for _, j := range []int{i, (i + 1) % len(cases), (i * 7) % len(cases)} {
			var p, q Point
			ep, eq := DecodePair(&p, &q, cases[i], cases[j])
			sameDecoding(t, cases[i], &p, ep)
			sameDecoding(t, cases[j], &q, eq)
		}
	}
	var p, q Point
	if ep, eq := DecodePair(&p, &q, []byte{1}, cases[0]); !errors.Is(ep, ErrPointEncoding) || eq != nil {
		t.Fatalf("short first: %v %v", ep, eq)
	}
}

func FuzzDecodePair(f *testing.F) {
	g := ristretto255.NewGeneratorElement().Bytes()
	f.Add(g, g)
	f.Add(make([]byte, 32), g)
	f.Add(g, []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var p, q Point
		ep, eq := DecodePair(&p, &q, a, b)
		sameDecoding(t, a, &p, ep)
		sameDecoding(t, b, &q, eq)
		ps := make([]Point, 2)
		if len(a) == PointSize && len(b) == PointSize {
			i, err := DecodeInto(ps, append(append([]byte(nil), a...), b...))
			switch {
			case ep != nil:
				if i != 0 || !errors.Is(err, ep) {
					t.Fatalf("DecodeInto: %d %v, want 0 %v", i, err, ep)
				}
			case eq != nil:
				if i != 1 || !errors.Is(err, eq) {
					t.Fatalf("DecodeInto: %d %v, want 1 %v", i, err, eq)
				}
			case i != -1 || err != nil || !ps[0].Equal(&p) || !ps[1].Equal(&q):
				t.Fatalf("DecodeInto: %d %v", i, err)
			}
		}
	})
}

// BenchmarkDecodePoints decodes 106 points one by one (SetCanonicalBytes)
// and side by side (DecodeInto).
func BenchmarkDecodePoints(b *testing.B) {
	var buf []byte
	for k := 0; k < 106; k++ {
		buf = append(buf, NewTranscript("okey/test/decode").Uint32(uint32(k)).Element().Bytes()...)
	}
	ps := make([]Point, 106)
	b.Run("one", func(b *testing.B) {
		for b.Loop() {
			for k := range ps {
				if err := ps[k].SetCanonicalBytes(buf[k*32 : k*32+32]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run(fmt.Sprintf("lanes=%d", decodeLanes), func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeInto(ps, buf); err != nil {
				b.Fatal(err)
			}
		}
	})
}
