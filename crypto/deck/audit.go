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
// position. For each seat i in order it checks, and on the first failure
// returns a *blame.Fault for that seat:
//
//  1. the seed derives a lock scalar a_i with a_i*G = A_i (ErrRevealedSeed;
//     all seats are checked for this before any other check);
//  2. D_i[k] = a_i*D_{i-1}[P_i[k]] for every k (ErrLockAudit, Pos: the
//     first bad position of D_i);
//  3. B_ij = b_ij*G for every j (ErrRekeyAudit, Pos: the first bad j).
//
// Every re-key proof in the Hand was verified when the step was accepted:
// log_{A_i} B_ij = log_{E_{i-1}[j]} E_i[j]; with A_i = a_i*G and
// B_ij = b_ij*G that gives E_i[j] = (b_ij/a_i)*E_{i-1}[j]. When all checks
// pass, E_n[j] = (prod_i b_ij)*M_t(j) with t(j) = P_0[P_1[...P_{n-1}[j]]],
// so the final deck opens to exactly the 106 tiles; Audit returns t.
//
// Checks 2 and 3 use random linear combinations (weights read from rand,
// crypto/rand if nil) and, only where one fails, element-by-element
// recomputation, so the seat and position reported do not depend on rand
// or on scheduling.
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
	if h.proofs != nil {
		// Offline, deferred: the combination joins the batch; the
		// seat-by-seat checks run only if it fails (ProofBatch.Check).
		h.proofs.addAudit(h, secrets, wseed[:])
		return h.auditTiles(secrets), nil
	}
	if !h.auditAll(secrets, wseed[:]) {
		// Something fails: the seat-by-seat checks find the first seat and
		// position, exactly as if the combined check had not been made.
		if err := h.auditSeats(secrets, wseed[:]); err != nil {
			return nil, err
		}
	}
	return h.auditTiles(secrets), nil
}

// auditSeats makes checks 2 and 3 seat by seat and returns the fault of the
// first seat that fails, at its first bad position.
func (h *Hand) auditSeats(secrets []*Secret, wseed []byte) error {
	_, err := par.FirstFailure(h.players, 1, func(lo, hi int) (int, error) {
		for i := lo; i < hi; i++ {
			if pos, err := h.auditLock(secrets[i], weights(wseed, 0, i)); err != nil {
				return i, seatFault(i, pos, err)
			}
			if pos, err := h.auditRekey(secrets[i], weights(wseed, 1, i)); err != nil {
				return i, seatFault(i, pos, err)
			}
		}
		return -1, nil
	})
	return err
}

// auditTiles returns the tile index at each final deck position.
func (h *Hand) auditTiles(secrets []*Secret) []int {
	tiles := make([]int, DeckSize)
	for j := range tiles {
		t := j
		for i := h.players - 1; i >= 0; i-- {
			t = int(secrets[i].perm[t])
		}
		tiles[j] = t
	}
	return tiles
}

// auditAll makes checks 2 and 3 of every seat at once: one random linear
// combination of all of them (protocol.md 4, "Batch verification"),
//
//	sum_i sum_k z_ik*(a_i*D_{i-1}[P_i[k]] - D_i[k]) + sum_i sum_j y_ij*B_ij - (sum_i sum_j y_ij*b_ij)*G = 0,
//
// with 128-bit weights z, y from the audit's seed (phases 2 and 3, apart
// from the per-seat checks' 0 and 1). Each deck D_i is one seat's output
// and the next seat's input, so its points enter the sum once. It reports
// true when the sum is the identity; false tells the caller to run the
// seat-by-seat checks, which name the seat and position.
func (h *Hand) auditAll(secrets []*Secret, wseed []byte) bool {
	bs, ok := rekeyScalars(secrets)
	if !ok {
		return false
	}
	var b group.Batch
	h.auditTerms(&b, secrets, bs, wseed, nil)
	return b.IsIdentity()
}

// rekeyScalars derives every seat's re-key scalars, bs[i][j] = b_ij; false
// when one is zero (a failure the seat-by-seat checks name).
func rekeyScalars(secrets []*Secret) ([][]*ristretto255.Scalar, bool) {
	bs := make([][]*ristretto255.Scalar, len(secrets))
	for i, s := range secrets {
		bs[i] = make([]*ristretto255.Scalar, DeckSize)
		for j := range bs[i] {
			if bs[i][j] = s.rekeyScalar(j); group.IsZero(bs[i][j]) {
				return nil, false
			}
		}
	}
	return bs, true
}

// auditTerms adds auditAll's sum, times rho (1 if nil), to b; bs holds the
// re-key scalars (rekeyScalars).
func (h *Hand) auditTerms(b group.Adder, secrets []*Secret, bs [][]*ristretto255.Scalar, wseed []byte, rho *ristretto255.Scalar) {
	var z, t, base ristretto255.Scalar
	scale := func(x *ristretto255.Scalar) *ristretto255.Scalar {
		if rho != nil {
			x.Multiply(x, rho)
		}
		return x
	}
	for i, s := range secrets {
		in, out := h.lockInput(i), h.locks[i].deck
		weight := weights(wseed, 2, i)
		for k := 0; k < DeckSize; k++ {
			weight(&z)
			scale(&z)
			b.Add(t.Multiply(&s.a, &z), in[s.perm[k]].Element())
			b.Add(t.Negate(&z), out[k].Element())
		}
		weight = weights(wseed, 3, i)
		keys := h.rekeys[i].keys
		for j := 0; j < DeckSize; j++ {
			weight(&z)
			scale(&z)
			b.Add(&z, keys[j].Element())
			base.Subtract(&base, t.Multiply(&z, bs[i][j]))
		}
	}
	b.Add(&base, baseElement)
}

// A knownPoint is a point of a hand whose value the seats' revealed
// secrets give: s*base, base G or a tile point M_t.
type knownPoint struct {
	p    *ristretto255.Element
	s    ristretto255.Scalar
	base *ristretto255.Element
}

// knownPoints returns the value, from the seats' secrets, of every lock
// key, deck and re-key key of the hand (which is ready): A_i = a_i*G,
// D_i[k] = nu_ik*M_t with t and nu_ik followed through the locks from
// D_{-1} = M (D_i[k] = a_i*D_{i-1}[P_i[k]]), B_ij = b_ij*G, and E_i[j] =
// mu_ij*M_t(j) with mu_ij = (b_ij/a_i)*mu_{i-1,j} from E_{-1} = D_{n-1}.
// These are the values the audit (checks 1, 2a, 2b) and the re-key
// proofs' statements imply; ProofBatch.Check checks each point against
// its value in its batch (protocol.md 4, "Batch verification").
func (h *Hand) knownPoints(secrets []*Secret, bs [][]*ristretto255.Scalar) []knownPoint {
	out := make([]knownPoint, 0, h.players*(1+3*DeckSize))
	tile := make([]int, DeckSize)
	nu := make([]ristretto255.Scalar, DeckSize)
	for k := range tile {
		tile[k] = k
		nu[k].Set(scalarOne)
	}
	nextTile := make([]int, DeckSize)
	nextNu := make([]ristretto255.Scalar, DeckSize)
	for i, s := range secrets {
		l := h.locks[i]
		out = append(out, knownPoint{p: l.key.Element(), base: baseElement})
		out[len(out)-1].s.Set(&s.a)
		for k := range l.deck {
			src := int(s.perm[k])
			nextTile[k] = tile[src]
			nextNu[k].Multiply(&s.a, &nu[src])
			out = append(out, knownPoint{p: l.deck[k].Element(), base: h.tiles.points[nextTile[k]].Element()})
			out[len(out)-1].s.Set(&nextNu[k])
		}
		tile, nextTile = nextTile, tile
		nu, nextNu = nextNu, nu
	}
	var c ristretto255.Scalar
	for i, s := range secrets {
		r := h.rekeys[i]
		for j := range r.deck {
			out = append(out, knownPoint{p: r.keys[j].Element(), base: baseElement})
			out[len(out)-1].s.Set(bs[i][j])
			nu[j].Multiply(&nu[j], c.Multiply(bs[i][j], &s.aInv))
			out = append(out, knownPoint{p: r.deck[j].Element(), base: h.tiles.points[tile[j]].Element()})
			out[len(out)-1].s.Set(&nu[j])
		}
	}
	return out
}

// scalarOne is the scalar 1.
var scalarOne = func() *ristretto255.Scalar {
	var b [32]byte
	b[0] = 1
	s, err := ristretto255.NewScalar().SetCanonicalBytes(b[:])
	if err != nil {
		panic(err)
	}
	return s
}()

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
// bad position. Batch: a_i * sum_k z_k*D_{i-1}[P_i[k]] = sum_k z_k*D_i[k].
func (h *Hand) auditLock(s *Secret, weight func(*ristretto255.Scalar)) (int, error) {
	in, out := h.lockInput(s.seat), h.locks[s.seat].deck
	z := make([]ristretto255.Scalar, DeckSize)
	zs := make([]*ristretto255.Scalar, DeckSize)
	xs := make([]*ristretto255.Element, DeckSize)
	ys := make([]*ristretto255.Element, DeckSize)
	for k := range z {
		weight(&z[k])
		zs[k] = &z[k]
		xs[k] = in[s.perm[k]].Element()
		ys[k] = out[k].Element()
	}
	var x, y ristretto255.Element
	x.VarTimeMultiScalarMult(zs, xs)
	y.VarTimeMultiScalarMult(zs, ys)
	if x.ScalarMult(&s.a, &x).Equal(&y) == 1 {
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

// auditRekey checks B_ij = b_ij*G for s's seat and returns the first bad
// position. Batch: sum_j z_j*B_ij = (sum_j z_j*b_ij)*G.
func (h *Hand) auditRekey(s *Secret, weight func(*ristretto255.Scalar)) (int, error) {
	step := h.rekeys[s.seat]
	bs := make([]*ristretto255.Scalar, DeckSize)
	for j := range bs {
		bs[j] = s.rekeyScalar(j)
		if group.IsZero(bs[j]) {
			return j, ErrRekeyAudit
		}
	}
	z := make([]ristretto255.Scalar, DeckSize)
	zs := make([]*ristretto255.Scalar, DeckSize)
	ps := make([]*ristretto255.Element, DeckSize)
	var sum, t ristretto255.Scalar
	for j := range z {
		weight(&z[j])
		zs[j] = &z[j]
		ps[j] = step.keys[j].Element()
		sum.Add(&sum, t.Multiply(&z[j], bs[j]))
	}
	var x, y ristretto255.Element
	x.VarTimeMultiScalarMult(zs, ps)
	if y.ScalarBaseMult(&sum).Equal(&x) == 1 {
		return -1, nil
	}
	var e ristretto255.Element
	for j := 0; j < DeckSize; j++ {
		if e.ScalarBaseMult(bs[j]).Equal(step.keys[j].Element()) != 1 {
			return j, ErrRekeyAudit
		}
	}
	panic("deck: internal error: re-key audit batch failed but every element matches")
}
