// Package commit implements commit-reveal randomness for an okey table:
// die rolls, the choice of a dealer, and generally uniform values in [0, n)
// that no single seat can bias.
//
// Every seat commits to 32 random bytes (Commit); once all commitments are
// in, every seat reveals its opening; every opening is checked (Check) and
// the openings, in seat order, are combined (Combine) into a Value. A Value
// maps to an unbiased integer by rejection sampling over a hash stream
// (Uniform, Die, Choice).
//
// A commitment binds the label, session, round and seat, so copying another
// seat's commitment is useless (it cannot be opened for the copier's seat)
// and is also caught at once by CheckDistinct. A seat that does not reveal
// is blamed by the table protocol, which must then abort or penalise it:
// otherwise the last seat to reveal could choose whether the value stands.
package commit

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"io"

	"github.com/okey-game/okey/crypto/blame"
	"github.com/okey-game/okey/crypto/group"
)

// Domain labels.
const (
	LabelCommit  = "okey/v1/commit/commitment"
	LabelCombine = "okey/v1/commit/combine"
	LabelUniform = "okey/v1/commit/uniform"
)

// Sizes.
const (
	CommitmentSize = 32
	OpeningSize    = 32
	ValueSize      = 32
	// MaxSessionSize and MaxLabelSize bound the bound strings.
	MaxSessionSize = 255
	MaxLabelSize   = 255
	// MaxSeats bounds the number of openings combined.
	MaxSeats = 255
)

var (
	// ErrParams is returned for out-of-range arguments (no one to blame).
	ErrParams = errors.New("commit: invalid parameters")
	// ErrEncoding is returned for a commitment or opening of the wrong size.
	ErrEncoding = errors.New("commit: malformed encoding")
	// ErrMismatch is returned when an opening does not match its commitment.
	ErrMismatch = errors.New("commit: opening does not match commitment")
	// ErrCopied is returned when a seat's commitment equals an earlier one.
	ErrCopied = errors.New("commit: copied commitment")
)

// Value is the combined randomness of one round.
type Value [ValueSize]byte

func checkContext(label string, session []byte, seat int) error {
	if len(label) < 1 || len(label) > MaxLabelSize || len(session) < 1 || len(session) > MaxSessionSize ||
		seat < 0 || seat >= MaxSeats {
		return ErrParams
	}
	return nil
}

func commitment(label string, session []byte, round uint32, seat int, opening []byte) []byte {
	d := group.NewTranscript(LabelCommit).String(label).Bytes(session).Uint32(round).Int(seat).Bytes(opening).Sum()
	return d[:CommitmentSize]
}

// Commit draws an opening of 32 bytes from rand (crypto/rand if nil) and
// returns the commitment
//
//	SHA-512(LP(LabelCommit) || LP(label) || LP(session) || LP(uint32(round)) ||
//	        LP(uint32(seat)) || LP(opening))[:32]
//
// and the opening, to keep secret until every seat has committed.
func Commit(label string, session []byte, round uint32, seat int, rnd io.Reader) (commitmentBytes, opening []byte, err error) {
	if err := checkContext(label, session, seat); err != nil {
		return nil, nil, err
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	opening = make([]byte, OpeningSize)
	if _, err := io.ReadFull(rnd, opening); err != nil {
		return nil, nil, errors.New("commit: reading randomness failed")
	}
	return commitment(label, session, round, seat, opening), opening, nil
}

// Check checks seat's opening against its commitment. It returns a
// *blame.Fault for seat wrapping ErrEncoding or ErrMismatch.
func Check(label string, session []byte, round uint32, seat int, commitmentBytes, opening []byte) error {
	if err := checkContext(label, session, seat); err != nil {
		return err
	}
	if len(commitmentBytes) != CommitmentSize || len(opening) != OpeningSize {
		return blame.New(seat, ErrEncoding)
	}
	if subtle.ConstantTimeCompare(commitment(label, session, round, seat, opening), commitmentBytes) != 1 {
		return blame.New(seat, ErrMismatch)
	}
	return nil
}

// CheckDistinct checks a round's commitments, given in the order they were
// sent: each must be CommitmentSize bytes and differ from every earlier one.
// A copy blames the later sender (*blame.Fault wrapping ErrCopied, Pos: the
// index of the earlier equal commitment); seats[k] is the seat that sent
// commitments[k].
func CheckDistinct(seats []int, commitments [][]byte) error {
	if len(seats) != len(commitments) {
		return ErrParams
	}
	for k, c := range commitments {
		if len(c) != CommitmentSize {
			return blame.New(seats[k], ErrEncoding)
		}
		for i := 0; i < k; i++ {
			if string(commitments[i]) == string(c) {
				return blame.At(seats[k], i, ErrCopied)
			}
		}
	}
	return nil
}

// Combine combines the checked openings of all seats, openings[i] from seat
// i, into the round's value:
//
//	SHA-512(LP(LabelCombine) || LP(label) || LP(session) || LP(uint32(round)) ||
//	        LP(uint32(n)) || LP(opening_0) || ... || LP(opening_{n-1}))[:32]
//
// Any one honest opening makes the value uniform.
func Combine(label string, session []byte, round uint32, openings [][]byte) (Value, error) {
	if err := checkContext(label, session, 0); err != nil {
		return Value{}, err
	}
	if len(openings) < 1 || len(openings) > MaxSeats {
		return Value{}, ErrParams
	}
	t := group.NewTranscript(LabelCombine).String(label).Bytes(session).Uint32(round).Int(len(openings))
	for i, o := range openings {
		if len(o) != OpeningSize {
			return Value{}, blame.New(i, ErrEncoding)
		}
		t.Bytes(o)
	}
	d := t.Sum()
	var v Value
	copy(v[:], d[:ValueSize])
	return v, nil
}

// Uniform maps v to a uniform integer in [0, n), n >= 1, by rejection
// sampling: candidates are the 64-bit big-endian words of the stream with
// label LabelUniform and key v || uint32_be(n) (group.Stream); the first
// candidate x < 2^64 - (2^64 mod n) gives x mod n.
func Uniform(v Value, n uint32) (uint32, error) {
	if n < 1 {
		return 0, ErrParams
	}
	key := binary.BigEndian.AppendUint32(v[:len(v):len(v)], n)
	return uint32(group.NewStream(LabelUniform, key).Uniform(uint64(n))), nil
}

// Die maps v to a die roll 1..6: Uniform(v, 6) + 1.
func Die(v Value) int {
	x, err := Uniform(v, 6)
	if err != nil {
		panic("commit: internal error: " + err.Error())
	}
	return int(x) + 1
}

// Choice maps v to one of n seats, 0..n-1 (1 <= n <= MaxSeats): Uniform(v, n).
func Choice(v Value, n int) (int, error) {
	if n < 1 || n > MaxSeats {
		return 0, ErrParams
	}
	x, err := Uniform(v, uint32(n))
	return int(x), err
}
