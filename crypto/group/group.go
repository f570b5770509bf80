// Package group holds the ristretto255 building blocks shared by the okey
// mental-poker packages: canonical point and scalar decoding, the
// length-prefixed SHA-512 transcript used for every hash in the protocol,
// hashing to points and scalars, and an unbiased sampler of integers from a
// hash stream.
//
// All group arithmetic is on the prime-order group ristretto255
// (github.com/gtank/ristretto255 v0.2.0). Plain edwards25519 points must not
// be used for this protocol: their torsion components survive encryption and
// mark tiles.
//
// See protocol.md, section 4, for the normative encodings.
package group

import (
	"crypto/subtle"
	"errors"

	"github.com/gtank/ristretto255"
)

// Sizes of the encodings.
const (
	PointSize  = 32
	ScalarSize = 32
)

var (
	// ErrPointEncoding is returned for a point that is not a 32-byte canonical
	// ristretto255 encoding.
	ErrPointEncoding = errors.New("group: non-canonical point encoding")
	// ErrIdentity is returned for the identity element where a protocol
	// element is expected.
	ErrIdentity = errors.New("group: identity point")
	// ErrScalarEncoding is returned for a scalar that is not a 32-byte
	// canonical little-endian encoding (value below the group order).
	ErrScalarEncoding = errors.New("group: non-canonical scalar encoding")
	// ErrZeroScalar is returned for the zero scalar where a key is expected.
	ErrZeroScalar = errors.New("group: zero scalar")
)

var zero32 [32]byte

// Point is a ristretto255 element that is not the identity, kept together
// with its canonical encoding so that hashing it costs nothing.
// The zero Point is not valid; make Points with DecodePoint or NewPoint.
type Point struct {
	el  ristretto255.Element
	enc [PointSize]byte
}

// DecodePoint decodes a canonical, non-identity ristretto255 element.
// It returns ErrPointEncoding or ErrIdentity for anything else.
func DecodePoint(b []byte) (*Point, error) {
	p := new(Point)
	if err := p.decode(b); err != nil {
		return nil, err
	}
	return p, nil
}

// SetCanonicalBytes sets p to the canonical, non-identity element b
// encodes, as DecodePoint, without allocating; on an error p's value is
// unspecified.
func (p *Point) SetCanonicalBytes(b []byte) error { return p.decode(b) }

func (p *Point) decode(b []byte) error {
	if len(b) != PointSize {
		return ErrPointEncoding
	}
	if subtle.ConstantTimeCompare(b, zero32[:]) == 1 {
		return ErrIdentity // the identity's only canonical encoding
	}
	if _, err := p.el.SetCanonicalBytes(b); err != nil {
		return ErrPointEncoding
	}
	copy(p.enc[:], b)
	return nil
}

// DecodePoints decodes n consecutive points from b, which must be exactly
// n*PointSize bytes. On error it returns the index of the first bad point.
func DecodePoints(b []byte, n int) ([]Point, int, error) {
	if n < 0 || len(b) != n*PointSize {
		return nil, -1, ErrPointEncoding
	}
	ps := make([]Point, n)
	for i := range ps {
		if err := ps[i].decode(b[i*PointSize : (i+1)*PointSize]); err != nil {
			return nil, i, err
		}
	}
	return ps, -1, nil
}

// NewPoint returns the Point for e, or ErrIdentity if e is the identity.
func NewPoint(e *ristretto255.Element) (*Point, error) {
	p := new(Point)
	if err := p.Set(e); err != nil {
		return nil, err
	}
	return p, nil
}

// Set sets p to e (encoding it) and returns ErrIdentity, leaving p
// unchanged, if e is the identity.
func (p *Point) Set(e *ristretto255.Element) error {
	var enc [PointSize]byte
	copy(enc[:], e.Bytes())
	if enc == zero32 {
		return ErrIdentity
	}
	p.el.Set(e)
	p.enc = enc
	return nil
}

// Element returns the group element (do not modify it).
func (p *Point) Element() *ristretto255.Element { return &p.el }

// Bytes returns the canonical 32-byte encoding.
func (p *Point) Bytes() []byte { b := p.enc; return b[:] }

// Encoding returns the canonical encoding as an array.
func (p *Point) Encoding() [PointSize]byte { return p.enc }

// Equal reports whether p and q are the same element.
func (p *Point) Equal(q *Point) bool { return p.enc == q.enc }

// DecodeScalar decodes a canonical 32-byte little-endian scalar.
func DecodeScalar(b []byte) (*ristretto255.Scalar, error) {
	if len(b) != ScalarSize {
		return nil, ErrScalarEncoding
	}
	s, err := ristretto255.NewScalar().SetCanonicalBytes(b)
	if err != nil {
		return nil, ErrScalarEncoding
	}
	return s, nil
}

// DecodeNonzeroScalar is DecodeScalar that also rejects zero with
// ErrZeroScalar.
func DecodeNonzeroScalar(b []byte) (*ristretto255.Scalar, error) {
	s, err := DecodeScalar(b)
	if err != nil {
		return nil, err
	}
	if IsZero(s) {
		return nil, ErrZeroScalar
	}
	return s, nil
}

// IsZero reports whether s is zero.
func IsZero(s *ristretto255.Scalar) bool {
	return s.Equal(ristretto255.NewScalar()) == 1
}
