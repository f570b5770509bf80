package deck

import (
	"github.com/gtank/ristretto255"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// LockMessageSize is the size of a lock message: A_i || D_i[0] || ... ||
// D_i[105].
const LockMessageSize = group.PointSize * (1 + DeckSize)

// Lock returns the lock message of the seat s belongs to, which must be the
// next to lock: A_i = a_i*G and D_i[k] = a_i*D_{i-1}[P_i[k]]; and the state
// with that step accepted (the sender need not check its own message).
// It takes constant time in the secret.
func (h *Hand) Lock(s *Secret) ([]byte, *Hand, error) {
	if err := h.checkSecret(s); err != nil {
		return nil, nil, err
	}
	if s.seat != h.NextLock() {
		return nil, nil, ErrWrongStep
	}
	in := h.lockInput(s.seat)
	step := &lockStep{deck: make([]group.Point, DeckSize)}
	key, err := group.DecodePoint(s.LockKey())
	if err != nil {
		panic("deck: internal error: lock key")
	}
	step.key = *key
	msg := make([]byte, LockMessageSize)
	copy(msg, key.Bytes())
	par.For(DeckSize, 8, func(lo, hi int) {
		var e ristretto255.Element
		for k := lo; k < hi; k++ {
			e.ScalarMult(&s.a, in[s.perm[k]].Element())
			if err := step.deck[k].Set(&e); err != nil {
				panic("deck: internal error: identity after lock")
			}
			copy(msg[group.PointSize*(1+k):], step.deck[k].Bytes())
		}
	})
	return msg, h.withLock(step), nil
}

// ApplyLock checks the lock message of seat against the current deck and
// returns the state with it accepted. A receiver MUST reject the message
// when it has the wrong length, when A_i or any element is not a canonical
// encoding or is the identity, or when two elements are equal. Failures are
// *blame.Fault values for seat wrapping ErrEncoding, ErrIdentity or
// ErrDuplicate (Pos: the deck position, or -1 for A_i).
// ErrWrongStep (no blame) means seat is not the next to lock.
func (h *Hand) ApplyLock(seat int, msg []byte) (*Hand, error) {
	if seat != h.NextLock() {
		return nil, ErrWrongStep
	}
	if len(msg) != LockMessageSize {
		return nil, seatFault(seat, -1, ErrEncoding)
	}
	key, err := group.DecodePoint(msg[:group.PointSize])
	if err != nil {
		return nil, seatFault(seat, -1, mapPointErr(err))
	}
	deck, err := decodeDeck(seat, msg[group.PointSize:])
	if err != nil {
		return nil, err
	}
	return h.withLock(&lockStep{key: *key, deck: deck}), nil
}

// decodeDeck decodes 106 points (in parallel) and checks them distinct.
func decodeDeck(seat int, b []byte) ([]group.Point, error) {
	deck := make([]group.Point, DeckSize)
	pos, err := par.FirstFailure(DeckSize, 8, func(lo, hi int) (int, error) {
		for k := lo; k < hi; k++ {
			p, err := group.DecodePoint(b[k*group.PointSize : (k+1)*group.PointSize])
			if err != nil {
				return k, mapPointErr(err)
			}
			deck[k] = *p
		}
		return -1, nil
	})
	if err != nil {
		return nil, seatFault(seat, pos, err)
	}
	seen := make(map[[group.PointSize]byte]struct{}, DeckSize)
	for k := range deck {
		enc := deck[k].Encoding()
		if _, dup := seen[enc]; dup {
			return nil, seatFault(seat, k, ErrDuplicate)
		}
		seen[enc] = struct{}{}
	}
	return deck, nil
}
