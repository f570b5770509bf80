package group

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/gtank/ristretto255"
)

func mustHex(t testing.TB, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodePoint(t *testing.T) {
	g := ristretto255.NewGeneratorElement().Bytes()
	if p, err := DecodePoint(g); err != nil || !bytes.Equal(p.Bytes(), g) {
		t.Fatalf("generator: %v", err)
	}
	if _, err := DecodePoint(make([]byte, 32)); !errors.Is(err, ErrIdentity) {
		t.Errorf("identity: got %v, want ErrIdentity", err)
	}
	// RFC 9496 appendix A.2 invalid encodings: non-canonical field elements,
	// negative field elements, non-square x^2, negative xy, s = -1.
	for _, s := range []string{
		"00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
		"3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	} {
		if _, err := DecodePoint(mustHex(t, s)); !errors.Is(err, ErrPointEncoding) {
			t.Errorf("%s: got %v, want ErrPointEncoding", s, err)
		}
	}
	for _, n := range []int{0, 31, 33, 64} {
		if _, err := DecodePoint(make([]byte, n)); !errors.Is(err, ErrPointEncoding) {
			t.Errorf("length %d: got %v", n, err)
		}
	}
	if _, err := NewPoint(ristretto255.NewIdentityElement()); !errors.Is(err, ErrIdentity) {
		t.Errorf("NewPoint(identity): got %v", err)
	}
}

func TestDecodeScalar(t *testing.T) {
	l := mustHex(t, "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	if _, err := DecodeScalar(l); !errors.Is(err, ErrScalarEncoding) {
		t.Errorf("l: got %v", err)
	}
	lm1 := append([]byte(nil), l...)
	lm1[0]--
	if s, err := DecodeScalar(lm1); err != nil || !bytes.Equal(s.Bytes(), lm1) {
		t.Errorf("l-1: %v", err)
	}
	if _, err := DecodeNonzeroScalar(make([]byte, 32)); !errors.Is(err, ErrZeroScalar) {
		t.Errorf("zero: got %v", err)
	}
	if _, err := DecodeScalar(make([]byte, 31)); !errors.Is(err, ErrScalarEncoding) {
		t.Errorf("short: got %v", err)
	}
}

func TestTranscriptFraming(t *testing.T) {
	// Length prefixes keep ("ab","c") and ("a","bc") apart.
	a := NewTranscript("L").String("ab").String("c").Sum()
	b := NewTranscript("L").String("a").String("bc").Sum()
	if a == b {
		t.Fatal("transcript is not injective")
	}
	// The exact bytes: LP("L") || LP("ab").
	want := NewTranscript("L").Bytes([]byte("ab")).Sum()
	got := NewTranscript("L").String("ab").Sum()
	if got != want {
		t.Fatal("String and Bytes differ")
	}
}

// TestReduceExhaustive checks every candidate of small widths: each residue
// is returned exactly floor(2^w/n) times and 2^w mod n candidates are rejected.
func TestReduceExhaustive(t *testing.T) {
	for _, w := range []uint{1, 2, 3, 8, 10} {
		size := uint64(1) << w
		for n := uint64(1); n <= size; n++ {
			counts := make([]uint64, n)
			rejected := uint64(0)
			for x := uint64(0); x < size; x++ {
				v, ok := Reduce(x, n, w)
				if !ok {
					rejected++
					continue
				}
				if v >= n {
					t.Fatalf("w=%d n=%d x=%d: %d out of range", w, n, x, v)
				}
				counts[v]++
			}
			if rejected != size%n {
				t.Fatalf("w=%d n=%d: rejected %d, want %d", w, n, rejected, size%n)
			}
			for r, c := range counts {
				if c != size/n {
					t.Fatalf("w=%d n=%d: residue %d seen %d times, want %d", w, n, r, c, size/n)
				}
			}
		}
	}
}

func TestReduceEdges64(t *testing.T) {
	const max = ^uint64(0)
	cases := []struct {
		x, n   uint64
		v      uint64
		accept bool
	}{
		{0, 1, 0, true},
		{max, 1, 0, true},
		{max, 2, 1, true},
		{max - 4, 6, (max - 4) % 6, true}, // 2^64 mod 6 = 4: limit-1 = 2^64-5
		{max - 3, 6, 0, false},            // limit itself
		{max, 6, 0, false},
		{1 << 63, 1<<63 + 1, 1 << 63, true}, // 2^64 mod (2^63+1) = 2^63-1
		{1<<63 + 1, 1<<63 + 1, 0, false},
		{max, 1 << 63, max - 1<<63, true},
		{max, max, 0, false}, // 2^64 mod (2^64-1) = 1
		{max - 1, max, max - 1, true},
	}
	for _, c := range cases {
		v, ok := Reduce(c.x, c.n, 64)
		if ok != c.accept || (ok && v != c.v) {
			t.Errorf("Reduce(%#x, %#x) = %d, %v; want %d, %v", c.x, c.n, v, ok, c.v, c.accept)
		}
	}
}

func TestStreamDeterministic(t *testing.T) {
	a, b := NewStream("l", []byte("k")), NewStream("l", []byte("k"))
	c := NewStream("l", []byte("K"))
	same := true
	for i := 0; i < 20; i++ { // crosses a block boundary
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		if x != y {
			t.Fatal("stream not deterministic")
		}
		same = same && x == z
	}
	if same {
		t.Fatal("stream ignores its key")
	}
	// The first word is the first 8 bytes of block 0.
	d := NewTranscript("l").Bytes([]byte("k")).Uint32(0).Sum()
	if got := NewStream("l", []byte("k")).Uint64(); got != uint64(d[0])<<56|uint64(d[1])<<48|uint64(d[2])<<40|uint64(d[3])<<32|uint64(d[4])<<24|uint64(d[5])<<16|uint64(d[6])<<8|uint64(d[7]) {
		t.Fatal("stream block layout differs from the spec")
	}
}

func FuzzDecodePoint(f *testing.F) {
	f.Add(ristretto255.NewGeneratorElement().Bytes())
	f.Add(make([]byte, 32))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodePoint(b)
		// SetCanonicalBytes, in place, gives the same answer and point.
		var in Point
		if err2 := in.SetCanonicalBytes(b); err2 != err || (err == nil && !in.Equal(p)) {
			t.Fatalf("SetCanonicalBytes: %v, DecodePoint: %v", err2, err)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(p.Bytes(), b) {
			t.Fatalf("round trip: %x -> %x", b, p.Bytes())
		}
		q, err := NewPoint(p.Element())
		if err != nil || !q.Equal(p) {
			t.Fatal("re-encoding differs")
		}
	})
}

func FuzzDecodeScalar(f *testing.F) {
	f.Add(make([]byte, 32))
	f.Add(bytes.Repeat([]byte{0xff}, 32))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeScalar(b)
		if err != nil {
			return
		}
		if !bytes.Equal(s.Bytes(), b) {
			t.Fatalf("round trip: %x -> %x", b, s.Bytes())
		}
	})
}
