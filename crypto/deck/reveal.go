package deck

import (
	"sync/atomic"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// ShareSize is the size of a key share: b_ij as a canonical scalar.
const ShareSize = group.ScalarSize

// Share returns the key share of s's seat for deck position pos: b_ij, 32
// bytes. Publishing it lets whoever holds every other share of pos open it.
func (h *Hand) Share(s *Secret, pos int) ([]byte, error) {
	if err := h.checkSecret(s); err != nil {
		return nil, err
	}
	if pos < 0 || pos >= DeckSize {
		return nil, ErrParams
	}
	b := s.rekeyScalar(pos)
	if group.IsZero(b) {
		return nil, errDegenerate
	}
	return b.Bytes(), nil
}

// CheckShare checks seat's key share for position pos against B_{seat,pos}:
// it MUST be a canonical, nonzero scalar b with b*G = B. Failures are
// *blame.Fault values for seat wrapping ErrEncoding or ErrShare.
func (h *Hand) CheckShare(seat, pos int, share []byte) error {
	_, err := h.checkShare(seat, pos, share)
	return err
}

func (h *Hand) checkShare(seat, pos int, share []byte) (*ristretto255.Scalar, error) {
	if !h.Ready() {
		return nil, ErrWrongStep
	}
	if seat < 0 || seat >= h.players || pos < 0 || pos >= DeckSize {
		return nil, ErrParams
	}
	if c := h.checked.load(seat, pos); c != nil && string(c.share[:]) == string(share) {
		return ristretto255.NewScalar().Set(&c.b), nil
	}
	b, err := group.DecodeNonzeroScalar(share)
	if err != nil {
		return nil, seatFault(seat, pos, ErrEncoding)
	}
	if h.proofs != nil {
		// Offline, deferred: b*G = B joins the batch (ProofBatch.Check).
		h.proofs.addShare(seat, pos, b, &h.rekeys[seat].keys[pos])
		h.checked.store(seat, pos, share, b)
		return b, nil
	}
	var e ristretto255.Element
	if e.ScalarBaseMult(b).Equal(h.rekeys[seat].keys[pos].Element()) != 1 {
		return nil, seatFault(seat, pos, ErrShare)
	}
	h.checked.store(seat, pos, share, b)
	return b, nil
}

// checkedShares remembers, for a ready hand, the last share of each seat
// and position that passed checkShare, so that opening a tile does not
// check again the shares already checked on receipt (a base-point
// multiplication each). It changes no result: a share is taken from it
// only when its bytes are the very bytes that passed.
type checkedShares struct {
	slot [DeckSize * MaxPlayers]atomic.Pointer[checkedShare]
}

type checkedShare struct {
	share [ShareSize]byte
	b     ristretto255.Scalar
}

func (c *checkedShares) load(seat, pos int) *checkedShare {
	if c == nil {
		return nil
	}
	return c.slot[pos*MaxPlayers+seat].Load()
}

func (c *checkedShares) store(seat, pos int, share []byte, b *ristretto255.Scalar) {
	if c == nil || len(share) != ShareSize {
		return
	}
	v := &checkedShare{}
	copy(v.share[:], share)
	v.b.Set(b)
	c.slot[pos*MaxPlayers+seat].Store(v)
}

// Open opens deck position pos with every seat's share (shares[i] from seat
// i; the holder's own share comes from Share). Each share is checked as by
// CheckShare; then M = (prod_i b_ij)^-1 * E_n[pos] is looked up among the
// tile points. It returns the tile index 0..105, a *blame.Fault for a bad
// share, or a *JunkError (ErrJunk) when the point is not a tile.
func (h *Hand) Open(pos int, shares [][]byte) (int, error) {
	if !h.Ready() {
		return 0, ErrWrongStep
	}
	if pos < 0 || pos >= DeckSize || len(shares) != h.players {
		return 0, ErrParams
	}
	if h.proofs != nil {
		// Offline, deferred: the checks join the batch in seat order.
		prod := ristretto255.NewScalar()
		for seat, sh := range shares {
			b, err := h.checkShare(seat, pos, sh)
			if err != nil {
				return 0, err
			}
			if seat == 0 {
				prod.Set(b)
			} else {
				prod.Multiply(prod, b)
			}
		}
		if h.hints != nil {
			// Offline, hinted: the claim joins the batch (HintTiles).
			t := h.hints[pos]
			h.proofs.addOpen(pos, prod, &h.tiles.points[t], &h.rekeys[h.players-1].deck[pos])
			return t, nil
		}
		return h.openWith(pos, prod)
	}
	if h.allChecked(pos, shares) {
		// Every share passed CheckShare already (as a table checks them on
		// receipt): nothing to check, the opening alone.
		prod := ristretto255.NewScalar()
		for seat := range shares {
			b := &h.checked.load(seat, pos).b
			if seat == 0 {
				prod.Set(b)
			} else {
				prod.Multiply(prod, b)
			}
		}
		return h.openWith(pos, prod)
	}
	// Live: the opening (from the shares as decoded) and each seat's check
	// run on every core; the answer is the first seat's failure in seat
	// order, as if checked one after another, else the opening.
	var opened ristretto255.Element
	prodOK := false
	errs := make([]error, len(shares))
	par.For(1+len(shares), 1, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			if k > 0 {
				_, errs[k-1] = h.checkShare(k-1, pos, shares[k-1])
				continue
			}
			prodOK = h.openDecoded(pos, shares, &opened)
		}
	})
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	if !prodOK {
		panic("deck: internal error: checked shares do not decode")
	}
	return h.lookupOpened(pos, &opened)
}

// allChecked reports whether every seat's share for pos is the very share
// that passed checkShare (checkedShares).
func (h *Hand) allChecked(pos int, shares [][]byte) bool {
	for seat, sh := range shares {
		if c := h.checked.load(seat, pos); c == nil || string(c.share[:]) != string(sh) {
			return false
		}
	}
	return true
}

// openDecoded sets m to the point position pos opens to with shares (not
// checked), and reports false if a share does not decode (checkShare
// reports it).
func (h *Hand) openDecoded(pos int, shares [][]byte, m *ristretto255.Element) bool {
	prod := ristretto255.NewScalar()
	for seat, sh := range shares {
		b, err := group.DecodeNonzeroScalar(sh)
		if err != nil {
			return false
		}
		if seat == 0 {
			prod.Set(b)
		} else {
			prod.Multiply(prod, b)
		}
	}
	m.ScalarMult(prod.Invert(prod), h.rekeys[h.players-1].deck[pos].Element())
	return true
}

// openWith opens pos with prod, the product of every seat's share.
func (h *Hand) openWith(pos int, prod *ristretto255.Scalar) (int, error) {
	var inv ristretto255.Scalar
	inv.Invert(prod)
	var m ristretto255.Element
	m.ScalarMult(&inv, h.rekeys[h.players-1].deck[pos].Element())
	return h.lookupOpened(pos, &m)
}

// lookupOpened returns the tile m is, or a *JunkError for pos.
func (h *Hand) lookupOpened(pos int, m *ristretto255.Element) (int, error) {
	var enc [group.PointSize]byte
	copy(enc[:], m.Bytes())
	j, ok := h.tiles.index[enc]
	if !ok {
		return 0, &JunkError{Pos: pos}
	}
	return j, nil
}

// MaxShareListSize bounds an encoded share list.
const MaxShareListSize = 1 + DeckSize*(1+ShareSize)

// Share is one entry of a share list: the share of some seat for Pos.
type Share struct {
	Pos int
	Key []byte // ShareSize bytes
}

// EncodeShares encodes a share list: count(1) || count x (pos(1) || share(32)),
// positions strictly increasing, 1 <= count <= 106. It rejects lists that
// break those rules with ErrParams.
func EncodeShares(list []Share) ([]byte, error) {
	if len(list) < 1 || len(list) > DeckSize {
		return nil, ErrParams
	}
	b := make([]byte, 0, 1+len(list)*(1+ShareSize))
	b = append(b, byte(len(list)))
	for i, s := range list {
		if s.Pos < 0 || s.Pos >= DeckSize || (i > 0 && s.Pos <= list[i-1].Pos) || len(s.Key) != ShareSize {
			return nil, ErrParams
		}
		if _, err := group.DecodeNonzeroScalar(s.Key); err != nil {
			return nil, ErrParams
		}
		b = append(b, byte(s.Pos))
		b = append(b, s.Key...)
	}
	return b, nil
}

// DecodeShares decodes a share list. It MUST reject (ErrEncoding) a wrong
// length, a count of 0 or above 106, positions not strictly increasing or
// above 105, and shares that are not canonical nonzero scalars.
func DecodeShares(b []byte) ([]Share, error) {
	if len(b) < 1 {
		return nil, ErrEncoding
	}
	n := int(b[0])
	if n < 1 || n > DeckSize || len(b) != 1+n*(1+ShareSize) {
		return nil, ErrEncoding
	}
	list := make([]Share, n)
	for i := range list {
		e := b[1+i*(1+ShareSize) : 1+(i+1)*(1+ShareSize)]
		pos := int(e[0])
		if pos >= DeckSize || (i > 0 && pos <= list[i-1].Pos) {
			return nil, ErrEncoding
		}
		if _, err := group.DecodeNonzeroScalar(e[1:]); err != nil {
			return nil, ErrEncoding
		}
		list[i] = Share{Pos: pos, Key: append([]byte(nil), e[1:]...)}
	}
	return list, nil
}

// Shares returns the encoded share list of s's seat for positions, which
// must be strictly increasing.
func (h *Hand) Shares(s *Secret, positions []int) ([]byte, error) {
	list := make([]Share, len(positions))
	for i, pos := range positions {
		k, err := h.Share(s, pos)
		if err != nil {
			return nil, err
		}
		list[i] = Share{Pos: pos, Key: k}
	}
	return EncodeShares(list)
}

// CheckShares decodes seat's share list and checks every share against its
// public point. Failures are *blame.Fault values for seat wrapping
// ErrEncoding or ErrShare.
func (h *Hand) CheckShares(seat int, b []byte) ([]Share, error) {
	if !h.Ready() {
		return nil, ErrWrongStep
	}
	if seat < 0 || seat >= h.players {
		return nil, ErrParams
	}
	list, err := DecodeShares(b)
	if err != nil {
		return nil, seatFault(seat, -1, err)
	}
	// Checked on every core (one after another when deferred: nothing to
	// compute, and the batch keeps list order); the error reported is the
	// first in list order, whatever the scheduling.
	min := 8
	if h.proofs != nil {
		min = len(list)
	}
	if _, err := par.FirstFailure(len(list), min, func(lo, hi int) (int, error) {
		for i := lo; i < hi; i++ {
			if err := h.CheckShare(seat, list[i].Pos, list[i].Key); err != nil {
				return i, err
			}
		}
		return -1, nil
	}); err != nil {
		return nil, err
	}
	return list, nil
}
