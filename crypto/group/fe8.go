package group

import (
	"unsafe"

	"filippo.io/edwards25519/field"
)

// fe8 is eight field elements (mod 2^255-19) side by side, for the square
// roots of eight point decodings at once: limb k (radix 2^51) of lane i at
// [k][i], each limb below 2^52 (as field.Element's between operations).
// fe8Square and fe8Mul compute lane by lane with AVX-512 IFMA (52-bit
// multiply-add, eight lanes an instruction) where the processor has it
// (useFe8); the results are the same field elements field.Element's
// arithmetic gives (TestFe8MatchesField).
type fe8 [5][8]uint64

// fieldLimbs is field.Element's layout: five 51-bit limbs, least
// significant first (filippo.io/edwards25519 v1.2.0, pinned in go.mod).
// fe8OK checks it at start-up.
type fieldLimbs [5]uint64

// fe8OK reports whether field.Element is laid out as fieldLimbs.
var fe8OK = func() bool {
	if unsafe.Sizeof(field.Element{}) != unsafe.Sizeof(fieldLimbs{}) {
		return false
	}
	var e field.Element
	b := make([]byte, 32)
	for k := 0; k < 5; k++ {
		// 2^(51k+3) is limb k's value 8.
		clear(b)
		bit := 51*k + 3
		b[bit/8] = 1 << (bit % 8)
		if _, err := e.SetBytes(b); err != nil {
			return false
		}
		want := fieldLimbs{}
		want[k] = 8
		if *(*fieldLimbs)(unsafe.Pointer(&e)) != want {
			return false
		}
	}
	return true
}()

// useFe8 reports whether decoding uses fe8 (a variable for tests).
var useFe8 = haveFe8 && fe8OK

// set puts e in lane i (i < 8).
func (z *fe8) set(i int, e *field.Element) {
	l := (*fieldLimbs)(unsafe.Pointer(e))
	i &= 7
	z[0][i], z[1][i], z[2][i], z[3][i], z[4][i] = l[0], l[1], l[2], l[3], l[4]
}

// get sets e to lane i (i < 8).
func (z *fe8) get(i int, e *field.Element) {
	l := (*fieldLimbs)(unsafe.Pointer(e))
	i &= 7
	l[0], l[1], l[2], l[3], l[4] = z[0][i], z[1][i], z[2][i], z[3][i], z[4][i]
}
