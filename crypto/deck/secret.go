package deck

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
)

var cryptoRand io.Reader = rand.Reader

// secretVersion is the first byte of an encoded Secret.
const secretVersion = 1

// Secret is one seat's secret state for one hand. It is derived from a
// 32-byte seed; MarshalBinary and ParseSecret persist it.
// Never publish it before the hand's audit.
type Secret struct {
	session []byte
	hand    uint32
	players int
	seat    int
	seed    [SeedSize]byte
	a, aInv ristretto255.Scalar
	perm    [DeckSize]uint8
}

// NewSecret draws a fresh seed from rand (crypto/rand if nil) and returns
// the seat's secret for the hand.
func NewSecret(session []byte, hand uint32, players, seat int, rand io.Reader) (*Secret, error) {
	for {
		var seed [SeedSize]byte
		if err := readRand(rand, seed[:]); err != nil {
			return nil, err
		}
		s, err := SecretFromSeed(session, hand, players, seat, seed[:])
		if err == errDegenerate {
			continue // a zero scalar: probability 2^-252
		}
		return s, err
	}
}

var errDegenerate = errors.New(labelDegenerateMsg)

// SecretFromSeed derives the seat's secret for the hand from seed. The audit
// uses it on revealed seeds.
func SecretFromSeed(session []byte, hand uint32, players, seat int, seed []byte) (*Secret, error) {
	if err := checkSession(session); err != nil {
		return nil, err
	}
	if err := checkPlayers(players); err != nil {
		return nil, err
	}
	if seat < 0 || seat >= players {
		return nil, ErrParams
	}
	if len(seed) != SeedSize {
		return nil, ErrEncoding
	}
	s := &Secret{session: append([]byte(nil), session...), hand: hand, players: players, seat: seat}
	copy(s.seed[:], seed)
	a := group.NewTranscript(LabelLockScalar).Bytes(session).Uint32(hand).Int(seat).Bytes(seed).Scalar()
	if group.IsZero(a) {
		return nil, errDegenerate
	}
	s.a.Set(a)
	s.aInv.Invert(a)
	key := group.NewTranscript(LabelPermutation).Bytes(session).Uint32(hand).Int(seat).Bytes(seed).Sum()
	fisherYates(s.perm[:], group.NewStream(LabelPermutation, key[:]))
	return s, nil
}

// fisherYates sets p to a uniform permutation of 0..len(p)-1 drawn from st
// by the Fisher-Yates shuffle: p = identity; for i = len(p)-1 down to 1,
// swap p[i] with p[st.Uniform(i+1)].
func fisherYates(p []uint8, st *group.Stream) {
	for i := range p {
		p[i] = uint8(i)
	}
	for i := len(p) - 1; i > 0; i-- {
		j := st.Uniform(uint64(i + 1))
		p[i], p[j] = p[j], p[i]
	}
}

// rekeyScalar derives b_ij. It is zero with probability 2^-252; callers
// treat zero as an error.
func (s *Secret) rekeyScalar(j int) *ristretto255.Scalar {
	return group.NewTranscript(LabelRekeyScalar).Bytes(s.session).Uint32(s.hand).Int(s.seat).Bytes(s.seed[:]).Int(j).Scalar()
}

// Seat returns the seat the secret belongs to.
func (s *Secret) Seat() int { return s.seat }

// Seed returns the 32-byte seed: the seat's audit reveal, to publish only
// after the hand is over.
func (s *Secret) Seed() []byte { return append([]byte(nil), s.seed[:]...) }

// LockKey returns A = a*G, the public lock key.
func (s *Secret) LockKey() []byte {
	return ristretto255.NewIdentityElement().ScalarBaseMult(&s.a).Bytes()
}

// MarshalBinary encodes the secret:
// version(1)=1 || players(1) || seat(1) || hand(4, big-endian) ||
// len(session)(1) || session || seed(32).
func (s *Secret) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 8+len(s.session)+SeedSize)
	b = append(b, secretVersion, byte(s.players), byte(s.seat))
	b = binary.BigEndian.AppendUint32(b, s.hand)
	b = append(b, byte(len(s.session)))
	b = append(b, s.session...)
	return append(b, s.seed[:]...), nil
}

// ParseSecret decodes what MarshalBinary produced, rejecting anything else
// with ErrEncoding or ErrParams.
func ParseSecret(b []byte) (*Secret, error) {
	if len(b) < 8 || b[0] != secretVersion {
		return nil, ErrEncoding
	}
	l := int(b[7])
	if len(b) != 8+l+SeedSize {
		return nil, ErrEncoding
	}
	s, err := SecretFromSeed(b[8:8+l], binary.BigEndian.Uint32(b[3:7]), int(b[1]), int(b[2]), b[8+l:])
	if err == errDegenerate {
		return nil, ErrEncoding
	}
	return s, err
}
