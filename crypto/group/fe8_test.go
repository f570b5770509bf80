package group

import (
	"testing"

	"filippo.io/edwards25519/field"
)

// fe8Inputs returns eight field elements from a stream, with edge values.
func fe8Inputs(st *Stream) [8]field.Element {
	var out [8]field.Element
	b := make([]byte, 32)
	for i := range out {
		for j := 0; j < 32; j += 8 {
			w := st.Uint64()
			for k := 0; k < 8; k++ {
				b[j+k] = byte(w >> (8 * k))
			}
		}
		switch st.Uint64() % 6 {
		case 0:
			clear(b) // zero
		case 1:
			for k := range b {
				b[k] = 0xff // 2^255 - 1 (above p)
			}
		case 2:
			b[31] |= 0x7f // near 2^255
		}
		if _, err := out[i].SetBytes(b); err != nil {
			panic(err)
		}
		if st.Uint64()%3 == 0 {
			// Limbs as large as operations leave them.
			out[i].Add(&out[i], &out[i])
		}
	}
	return out
}

func TestFe8MatchesField(t *testing.T) {
	if !useFe8 {
		t.Skip("no AVX-512 IFMA here")
	}
	st := NewStream("okey/test/fe8", nil)
	for r := 0; r < 300; r++ {
		a, b := fe8Inputs(st), fe8Inputs(st)
		var za, zb, zm, zs fe8
		for i := range a {
			za.set(i, &a[i])
			zb.set(i, &b[i])
		}
		n := 1 + int(st.Uint64()%7)
		if r%50 == 0 {
			n = 100
		}
		fe8Mul(&zm, &za, &zb)
		fe8Square(&zs, &za, n)
		var zadd, zsub fe8
		fe8Add(&zadd, &za, &zb)
		fe8Sub(&zsub, &za, &zb)
		for i := range a {
			var want, got field.Element
			want.Add(&a[i], &b[i])
			zadd.get(i, &got)
			if got.Equal(&want) != 1 {
				t.Fatalf("round %d lane %d: add differs", r, i)
			}
			want.Subtract(&a[i], &b[i])
			zsub.get(i, &got)
			if got.Equal(&want) != 1 {
				t.Fatalf("round %d lane %d: sub differs", r, i)
			}
			for k := range 5 {
				if zadd[k][i] >= 1<<52 || zsub[k][i] >= 1<<52 {
					t.Fatalf("round %d lane %d: add/sub limb %d too large", r, i, k)
				}
			}
		}
		for i := range a {
			var want, got field.Element
			want.Multiply(&a[i], &b[i])
			zm.get(i, &got)
			if got.Equal(&want) != 1 {
				t.Fatalf("round %d lane %d: mul differs", r, i)
			}
			want.Set(&a[i])
			for k := 0; k < n; k++ {
				want.Square(&want)
			}
			zs.get(i, &got)
			if got.Equal(&want) != 1 {
				t.Fatalf("round %d lane %d: square^%d differs", r, i, n)
			}
			for k := range 5 {
				if zm[k][i] >= 1<<52 || zs[k][i] >= 1<<52 {
					t.Fatalf("round %d lane %d: limb %d too large", r, i, k)
				}
			}
		}
	}
}

// TestLayouts: the pinned modules' layouts that the fast paths read hold
// (else those paths are off, silently slower).
func TestLayouts(t *testing.T) {
	if !fastOK || !pointLayoutOK || !fe8OK {
		t.Fatalf("fastOK %v, pointLayoutOK %v, fe8OK %v", fastOK, pointLayoutOK, fe8OK)
	}
}
