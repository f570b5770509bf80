package deck

import (
	"errors"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
	"github.com/okey-game/okey/crypto/shuffle"
)

// LockProofSize is the size of the shuffle proof at the end of a lock
// message (protocol.md 4, "Shuffle argument"): 7 points and 2*106+1 scalars, 7,040 bytes
// (shuffle.Size(DeckSize)).
const LockProofSize = group.PointSize*7 + group.ScalarSize*(2*DeckSize+1)

// LockMessageSize is the size of a lock message: A_i || D_i[0] || ... ||
// D_i[105] || proof (10,464 bytes).
const LockMessageSize = group.PointSize*(1+DeckSize) + LockProofSize

// LockContext returns the context bound into the shuffle proof of seat's
// lock message: SHA-512(LP(LabelLockProof) || LP(session) ||
// LP(uint32(hand)) || LP(uint32(players)) || LP(uint32(seat))).
func LockContext(session []byte, hand uint32, players, seat int) []byte {
	d := group.NewTranscript(LabelLockProof).Bytes(session).Uint32(hand).Int(players).Int(seat).Sum()
	return d[:]
}

// lockProofKey is the secret key the shuffle proof's blinders and nonces are
// derived from: SHA-512(LP(LabelLockProofKey) || LP(session) ||
// LP(uint32(hand)) || LP(uint32(seat)) || LP(seed)).
func (s *Secret) lockProofKey() []byte {
	d := group.NewTranscript(LabelLockProofKey).Bytes(s.session).Uint32(s.hand).Int(s.seat).Bytes(s.seed[:]).Sum()
	return d[:]
}

// Lock returns the lock message of the seat s belongs to, which must be the
// next to lock: A_i = a_i*G and D_i[k] = a_i*D_{i-1}[P_i[k]], followed by
// the shuffle proof; and the state with that step accepted (the sender need
// not check its own message). The message depends only on the previous deck
// and s, so a restarted peer sends the same bytes. It takes constant time
// in the secret.
func (h *Hand) Lock(s *Secret) ([]byte, *Hand, error) {
	if err := h.checkSecret(s); err != nil {
		return nil, nil, err
	}
	if s.seat != h.NextLock() {
		return nil, nil, ErrWrongStep
	}
	in := h.lockInput(s.seat)
	step := &lockStep{deck: make([]group.Point, DeckSize)}
	key, err := group.NewPoint(ristretto255.NewIdentityElement().ScalarBaseMult(&s.a))
	if err != nil {
		panic("deck: internal error: lock key")
	}
	step.key = *key
	msg := make([]byte, group.PointSize*(1+DeckSize), LockMessageSize)
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
	perm := make([]int, DeckSize)
	for k := range perm {
		perm[k] = int(s.perm[k])
	}
	st := &shuffle.Statement{Context: LockContext(h.session, h.hand, h.players, s.seat), Key: key, In: in, Out: step.deck}
	proof, err := shuffle.Prove(st, &shuffle.Witness{Scalar: &s.a, Perm: perm}, s.lockProofKey())
	if err != nil {
		return nil, nil, errors.New("deck: shuffle proof failed (negligible probability): " + err.Error())
	}
	msg = append(msg, proof...)
	next := h.withLock(step)
	h.remember(s.seat, true, msg, next)
	return msg, next, nil
}

// ApplyLock checks the lock message of seat against the current deck and
// returns the state with it accepted. A receiver MUST reject the message
// when it has the wrong length, when A_i or any element is not a canonical
// encoding or is the identity, when two elements are equal, or when the
// shuffle proof does not decode or does not verify. Failures are
// *blame.Fault values for seat wrapping ErrEncoding, ErrIdentity or
// ErrDuplicate (Pos: the deck position, or -1 for A_i), or ErrShuffleProof
// (Pos -1). ErrWrongStep (no blame) means seat is not the next to lock.
func (h *Hand) ApplyLock(seat int, msg []byte) (*Hand, error) {
	if seat != h.NextLock() {
		return nil, ErrWrongStep
	}
	if len(msg) != LockMessageSize {
		return nil, seatFault(seat, -1, ErrEncoding)
	}
	if next := h.recall(seat, true, msg); next != nil {
		return next, nil // this state's own Lock made these very bytes
	}
	key, err := group.DecodePoint(msg[:group.PointSize])
	if err != nil {
		return nil, seatFault(seat, -1, mapPointErr(err))
	}
	end := group.PointSize * (1 + DeckSize)
	deck, err := decodeDeck(seat, msg[group.PointSize:end])
	if err != nil {
		return nil, err
	}
	if !h.noLockProofs {
		st := &shuffle.Statement{Context: LockContext(h.session, h.hand, h.players, seat), Key: key,
			In: h.lockInput(seat), Out: deck}
		p, err := shuffle.Decode(st, msg[end:])
		if err != nil {
			return nil, seatFault(seat, -1, ErrShuffleProof)
		}
		if h.proofs != nil {
			h.proofs.addLock(seat, st, p)
		} else if err := p.Check(st); err != nil {
			return nil, seatFault(seat, -1, ErrShuffleProof)
		}
	}
	return h.withLock(&lockStep{key: *key, deck: deck}), nil
}

// WithoutLockProofs returns a copy of h whose ApplyLock (now and in every
// state derived from it) checks the form of lock messages but not their
// shuffle proofs. It exists for TESTS OF LATER DEFENCES ONLY (the junk
// claim, the audit), which must get a dishonest lock past the first line of
// defence. A peer MUST NOT use it: without the proof a shuffler can learn
// and choose tiles.
func (h *Hand) WithoutLockProofs() *Hand {
	n := *h
	n.noLockProofs = true
	return &n
}

// decodeDeck decodes 106 points (in parallel) and checks them distinct.
func decodeDeck(seat int, b []byte) ([]group.Point, error) {
	deck := make([]group.Point, DeckSize)
	pos, err := par.FirstFailure(DeckSize, 8, func(lo, hi int) (int, error) {
		if k, err := group.DecodeInto(deck[lo:hi], b[lo*group.PointSize:hi*group.PointSize]); err != nil {
			return lo + k, mapPointErr(err)
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
