package deck

import (
	"encoding/binary"
	"io"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/dleq"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// RekeyEntrySize is the size of one position's entry in a re-key message:
// B_ij || E_i[j] || R1 || R2 || s.
const RekeyEntrySize = 2*group.PointSize + dleq.ProofSize

// RekeyMessageSize is the size of a re-key message: 106 entries.
const RekeyMessageSize = DeckSize * RekeyEntrySize

// RekeyContext returns the DLEQ context of seat's re-key proof for deck
// position j: LP(LabelRekeyProof) || LP(session) || LP(uint32(hand)) ||
// LP(uint32(seat)) || LP(uint32(j)).
func RekeyContext(session []byte, hand uint32, seat, j int) []byte {
	b := make([]byte, 0, 4+len(LabelRekeyProof)+4+len(session)+3*8)
	b = appendLP(b, []byte(LabelRekeyProof))
	b = appendLP(b, session)
	b = appendLP(b, binary.BigEndian.AppendUint32(nil, hand))
	b = appendLP(b, binary.BigEndian.AppendUint32(nil, uint32(seat)))
	return appendLP(b, binary.BigEndian.AppendUint32(nil, uint32(j)))
}

func appendLP(b, x []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(x)))
	return append(b, x...)
}

// Rekey returns the re-key message of the seat s belongs to, which must be
// the next to re-key: for each position j, B_ij = b_ij*G, E_i[j] =
// (b_ij/a_i)*E_{i-1}[j] and a DLEQ proof that log_{A_i} B_ij =
// log_{E_{i-1}[j]} E_i[j]. It reads 32 bytes per position from rand
// (crypto/rand if nil) to hedge the proof nonces. It also returns the state
// with the step accepted (the sender need not check its own proofs).
func (h *Hand) Rekey(s *Secret, rand io.Reader) ([]byte, *Hand, error) {
	if err := h.checkSecret(s); err != nil {
		return nil, nil, err
	}
	if s.seat != h.NextRekey() {
		return nil, nil, ErrWrongStep
	}
	entropy := make([]byte, DeckSize*dleq.EntropySize)
	if err := readRand(rand, entropy); err != nil {
		return nil, nil, err
	}
	step := &rekeyStep{keys: make([]group.Point, DeckSize), deck: make([]group.Point, DeckSize)}
	in := h.rekeyInput(s.seat)
	lockKey := h.locks[s.seat].key
	msg := make([]byte, RekeyMessageSize)
	_, err := par.FirstFailure(DeckSize, 8, func(lo, hi int) (int, error) {
		var c ristretto255.Scalar
		var e ristretto255.Element
		for j := lo; j < hi; j++ {
			b := s.rekeyScalar(j)
			if group.IsZero(b) {
				return j, errDegenerate
			}
			c.Multiply(b, &s.aInv)
			bp, ep := &step.keys[j], &step.deck[j]
			if err := bp.Set(e.ScalarBaseMult(b)); err != nil {
				return j, err
			}
			// E_i[j] and the proof's R2 are both multiples of E_{i-1}[j]:
			// one table serves the two (constant time, as ScalarMult).
			tab := group.NewSplitTable(in[j].Element())
			if err := ep.Set(tab.ScalarMult(&e, &c)); err != nil {
				return j, err
			}
			st := &dleq.Statement{G1: &lockKey, H1: bp, G2: &in[j], H2: ep}
			proof, err := dleq.ProveEntropyTable(RekeyContext(h.session, h.hand, s.seat, j), st, &c, &s.a, tab,
				entropy[j*dleq.EntropySize:(j+1)*dleq.EntropySize])
			if err != nil {
				return j, err
			}
			out := msg[j*RekeyEntrySize : j*RekeyEntrySize]
			out = append(out, bp.Bytes()...)
			out = append(out, ep.Bytes()...)
			proof.AppendBinary(out)
		}
		return -1, nil
	})
	if err != nil {
		return nil, nil, err
	}
	next := h.withRekey(step)
	h.remember(s.seat, false, msg, next)
	return msg, next, nil
}

// ApplyRekey checks the re-key message of seat against the current deck and
// returns the state with it accepted. A receiver MUST reject the message
// when it has the wrong length, when any point is not a canonical encoding
// or is the identity, when any scalar is not canonical, or when any proof
// fails. Proofs are verified in a batch (weights from rand, crypto/rand if
// nil); the position reported does not depend on rand. Failures are
// *blame.Fault values for seat wrapping ErrEncoding, ErrIdentity or
// ErrProof, with the lowest failing position.
func (h *Hand) ApplyRekey(seat int, msg []byte, rand io.Reader) (*Hand, error) {
	if seat != h.NextRekey() {
		return nil, ErrWrongStep
	}
	if len(msg) != RekeyMessageSize {
		return nil, seatFault(seat, -1, ErrEncoding)
	}
	if next := h.recall(seat, false, msg); next != nil {
		// This state's own Rekey made these very bytes. rand gives the
		// batch's seed as when checking, so that a caller's stream of
		// randomness stays where it would be.
		var seed [32]byte
		if err := readRand(rand, seed[:]); err != nil {
			return nil, err
		}
		return next, nil
	}
	in := h.rekeyInput(seat)
	lockKey := &h.locks[seat].key
	step := &rekeyStep{keys: make([]group.Point, DeckSize), deck: make([]group.Point, DeckSize)}
	proofs := make([]dleq.Proof, DeckSize)
	items := make([]dleq.Item, DeckSize)
	pos, err := par.FirstFailure(DeckSize, 8, func(lo, hi int) (int, error) {
		// The entries' four points, decoded side by side: the first that
		// fails, in entry order (B_ij, E_i[j], R1, R2), is the one decoding
		// them one by one meets first.
		ps, bs := make([]*group.Point, 0, 4*(hi-lo)), make([][]byte, 0, 4*(hi-lo))
		for j := lo; j < hi; j++ {
			e := msg[j*RekeyEntrySize : (j+1)*RekeyEntrySize]
			ps = append(ps, &step.keys[j], &step.deck[j], &proofs[j].R1, &proofs[j].R2)
			bs = append(bs, e[:32], e[32:64], e[64:96], e[96:128])
		}
		bad, badErr := group.DecodeEach(ps, bs)
		for j := lo; j < hi; j++ {
			e := msg[j*RekeyEntrySize : (j+1)*RekeyEntrySize]
			if bad >= 0 && j == lo+bad/4 {
				return j, mapPointErr(badErr)
			}
			if _, err := proofs[j].S.SetCanonicalBytes(e[128:]); err != nil {
				return j, ErrEncoding
			}
			items[j] = dleq.Item{
				Context:   RekeyContext(h.session, h.hand, seat, j),
				Statement: &dleq.Statement{G1: lockKey, H1: &step.keys[j], G2: &in[j], H2: &step.deck[j]},
				Proof:     &proofs[j],
			}
		}
		return -1, nil
	})
	if err != nil {
		return nil, seatFault(seat, pos, err)
	}
	if h.proofs != nil {
		for j := range items {
			h.proofs.addRekey(seat, j, items[j])
		}
		return h.withRekey(step), nil
	}
	if pos, err := dleq.BatchVerify(items, rand); err != nil {
		if pos < 0 {
			return nil, err // randomness failure: nobody's fault
		}
		return nil, seatFault(seat, pos, ErrProof)
	}
	return h.withRekey(step), nil
}
