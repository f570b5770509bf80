package deck

import (
	"encoding/binary"
	"io"

	"github.com/gtank/ristretto255"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// Audit re-checks the whole hand after every seat has revealed its seed
// (seeds[i] from seat i) and returns the tile index at each final deck
// position. It checks, and on failure blames with a *blame.Fault:
//
//  1. for each seat in order, the seed derives a lock scalar a_i with
//     a_i*G = A_i (ErrRevealedSeed);
//  2. for each seat in order, D_i[k] = a_i*D_{i-1}[P_i[k]] for every k
//     (ErrLockAudit, Pos: the first bad position of D_i);
//  3. for each seat in order, B_ij = b_ij*G and E_i[j] = (b_ij/a_i)*E_{i-1}[j]
//     for every j (ErrRekeyAudit, Pos: the first bad position).
//
// A failure in an earlier numbered check is reported before any in a later
// one, and within a check the lowest seat. When all pass, E_n[j] =
// (prod_i b_ij)*M_t(j) with t(j) = P_0[P_1[...P_{n-1}[j]]], so the final deck
// opens to exactly the 106 tiles; Audit returns t.
//
// Steps 2 and 3 are checked with random linear combinations (weights read
// from rand, crypto/rand if nil) and, only where that fails, element by
// element, so the seat and position reported do not depend on rand.
func (h *Hand) Audit(seeds [][]byte, rand io.Reader) ([]int, error) {
	if !h.Ready() {
		return nil, ErrWrongStep
	}
	if len(seeds) != h.players {
		return nil, ErrParams
	}
	secrets := make([]*Secret, h.players)
	for i, seed := range seeds {
		s, err := SecretFromSeed(h.session, h.hand, h.players, i, seed)
		switch {
		case err == errDegenerate:
			return nil, seatFault(i, -1, ErrRevealedSeed)
		case err != nil:
			return nil, seatFault(i, -1, ErrEncoding)
		}
		var a ristretto255.Element
		if a.ScalarBaseMult(&s.a).Equal(h.locks[i].key.Element()) != 1 {
			return nil, seatFault(i, -1, ErrRevealedSeed)
		}
		secrets[i] = s
	}
	var wseed [32]byte
	if err := readRand(rand, wseed[:]); err != nil {
		return nil, err
	}
	// Tasks 0..n-1 check the lock steps, n..2n-1 the re-key steps; the
	// lowest failing task is reported.
	n := h.players
	task, err := par.FirstFailure(2*n, 1, func(lo, hi int) (int, error) {
		for t := lo; t < hi; t++ {
			var pos int
			var err error
			if t < n {
				pos, err = h.auditLock(secrets[t], weights(wseed[:], 0, t))
			} else {
				pos, err = h.auditRekey(secrets[t-n], weights(wseed[:], 1, t-n))
			}
			if err != nil {
				return t, seatFault(t%n, pos, err)
			}
		}
		return -1, nil
	})
	if task >= 0 {
		return nil, err
	}
	tiles := make([]int, DeckSize)
	for j := range tiles {
		t := j
		for i := n - 1; i >= 0; i-- {
			t = int(secrets[i].perm[t])
		}
		tiles[j] = t
	}
	return tiles, nil
}

// weights returns a stream of 128-bit weights for one check.
func weights(seed []byte, phase byte, seat int) func(*ristretto255.Scalar) {
	key := append(append([]byte(nil), seed...), phase)
	key = binary.BigEndian.AppendUint32(key, uint32(seat))
	st := group.NewStream(LabelAuditWeights, key)
	var b [64]byte
	return func(z *ristretto255.Scalar) {
		binary.LittleEndian.PutUint64(b[0:], st.Uint64())
		binary.LittleEndian.PutUint64(b[8:], st.Uint64())
		if _, err := z.SetUniformBytes(b[:]); err != nil {
			panic("deck: internal error: " + err.Error())
		}
	}
}

// auditLock checks D_i = P_i(a_i*D_{i-1}) for s's seat and returns the first
// bad position.
func (h *Hand) auditLock(s *Secret, weight func(*ristretto255.Scalar)) (int, error) {
	in, out := h.lockInput(s.seat), h.locks[s.seat].deck
	coef := make([]ristretto255.Scalar, 2*DeckSize)
	scalars := make([]*ristretto255.Scalar, 0, 2*DeckSize)
	points := make([]*ristretto255.Element, 0, 2*DeckSize)
	for k := 0; k < DeckSize; k++ {
		z, za := &coef[2*k], &coef[2*k+1]
		weight(z)
		za.Multiply(z, &s.a)
		za.Negate(za)
		scalars = append(scalars, z, za)
		points = append(points, out[k].Element(), in[s.perm[k]].Element())
	}
	if isIdentity(scalars, points) {
		return -1, nil
	}
	var e ristretto255.Element
	for k := 0; k < DeckSize; k++ {
		if e.ScalarMult(&s.a, in[s.perm[k]].Element()).Equal(out[k].Element()) != 1 {
			return k, ErrLockAudit
		}
	}
	panic("deck: internal error: lock audit batch failed but every element matches")
}

// auditRekey checks B_ij = b_ij*G and E_i[j] = (b_ij/a_i)*E_{i-1}[j] for
// s's seat and returns the first bad position.
func (h *Hand) auditRekey(s *Secret, weight func(*ristretto255.Scalar)) (int, error) {
	in, step := h.rekeyInput(s.seat), h.rekeys[s.seat]
	bs := make([]*ristretto255.Scalar, DeckSize)
	for j := range bs {
		bs[j] = s.rekeyScalar(j)
		if group.IsZero(bs[j]) {
			return j, ErrRekeyAudit
		}
	}
	coef := make([]ristretto255.Scalar, 4*DeckSize+1)
	scalars := make([]*ristretto255.Scalar, 0, 3*DeckSize+1)
	points := make([]*ristretto255.Element, 0, 3*DeckSize+1)
	gCoef := &coef[4*DeckSize]
	scalars = append(scalars, gCoef)
	points = append(points, basePoint)
	var t ristretto255.Scalar
	for j := 0; j < DeckSize; j++ {
		z, w, c := &coef[4*j], &coef[4*j+1], &coef[4*j+2]
		weight(z)
		weight(w)
		gCoef.Subtract(gCoef, t.Multiply(z, bs[j]))
		c.Multiply(w, bs[j])
		c.Multiply(c, &s.aInv)
		c.Negate(c)
		scalars = append(scalars, z, w, c)
		points = append(points, step.keys[j].Element(), step.deck[j].Element(), in[j].Element())
	}
	if isIdentity(scalars, points) {
		return -1, nil
	}
	var e ristretto255.Element
	for j := 0; j < DeckSize; j++ {
		if e.ScalarBaseMult(bs[j]).Equal(step.keys[j].Element()) != 1 {
			return j, ErrRekeyAudit
		}
		t.Multiply(bs[j], &s.aInv)
		if e.ScalarMult(&t, in[j].Element()).Equal(step.deck[j].Element()) != 1 {
			return j, ErrRekeyAudit
		}
	}
	panic("deck: internal error: re-key audit batch failed but every element matches")
}

func isIdentity(scalars []*ristretto255.Scalar, points []*ristretto255.Element) bool {
	var sum ristretto255.Element
	sum.VarTimeMultiScalarMult(scalars, points)
	return sum.Equal(ristretto255.NewIdentityElement()) == 1
}
