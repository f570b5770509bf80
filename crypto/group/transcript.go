package group

import (
	"crypto/sha512"
	"encoding/binary"
	"hash"

	"github.com/gtank/ristretto255"
)

// A Transcript is the hash input of the protocol: SHA-512 over a sequence of
// length-prefixed fields, the first of which is a domain label.
// Every field is written as LP(x) = uint32_be(len(x)) || x, so that no two
// different sequences of fields give the same bytes.
type Transcript struct {
	h   hash.Hash
	len [4]byte
}

// NewTranscript starts a transcript with the domain label.
func NewTranscript(label string) *Transcript {
	t := &Transcript{h: sha512.New()}
	return t.String(label)
}

// Bytes appends LP(b).
func (t *Transcript) Bytes(b []byte) *Transcript {
	binary.BigEndian.PutUint32(t.len[:], uint32(len(b)))
	t.h.Write(t.len[:])
	t.h.Write(b)
	return t
}

// String appends LP(s).
func (t *Transcript) String(s string) *Transcript { return t.Bytes([]byte(s)) }

// Uint32 appends LP(uint32_be(v)), a field of 4 bytes.
func (t *Transcript) Uint32(v uint32) *Transcript {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], v)
	return t.Bytes(b[:])
}

// Int appends Uint32(uint32(v)); v must be in [0, 2^32).
func (t *Transcript) Int(v int) *Transcript {
	if v < 0 || int64(v) > 1<<32-1 {
		panic("group: internal error: transcript integer out of range")
	}
	return t.Uint32(uint32(v))
}

// Point appends LP(encoding of p).
func (t *Transcript) Point(p *Point) *Transcript { return t.Bytes(p.enc[:]) }

// Sum returns the 64-byte SHA-512 digest. The transcript must not be used
// afterwards.
func (t *Transcript) Sum() [64]byte {
	var out [64]byte
	t.h.Sum(out[:0])
	return out
}

// Scalar returns the digest reduced to a scalar (RFC 9496 uniform bytes).
func (t *Transcript) Scalar() *ristretto255.Scalar {
	d := t.Sum()
	s, err := ristretto255.NewScalar().SetUniformBytes(d[:])
	if err != nil {
		panic("group: internal error: " + err.Error())
	}
	return s
}

// Element returns the digest mapped to an element by the RFC 9496
// one-way map (element derivation). The result is never the identity except
// with negligible probability; callers that need a Point use NewPoint.
func (t *Transcript) Element() *ristretto255.Element {
	d := t.Sum()
	e, err := ristretto255.NewIdentityElement().SetUniformBytes(d[:])
	if err != nil {
		panic("group: internal error: " + err.Error())
	}
	return e
}
