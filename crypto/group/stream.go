package group

import (
	"crypto/sha512"
	"encoding/binary"
)

// A Stream is a deterministic sequence of 64-bit words derived from a key:
// block c (c = 0, 1, ...) is SHA-512(LP(label) || LP(key) || LP(uint32_be(c))),
// and the words are the block's eight 8-byte big-endian integers in order.
type Stream struct {
	in  []byte // LP(label) || LP(key) || LP(counter), the counter last
	ctr uint32
	buf [64]byte
	off int
}

// NewStream returns the stream for label and key.
func NewStream(label string, key []byte) *Stream {
	in := make([]byte, 0, 4+len(label)+4+len(key)+8)
	in = binary.BigEndian.AppendUint32(in, uint32(len(label)))
	in = append(in, label...)
	in = binary.BigEndian.AppendUint32(in, uint32(len(key)))
	in = append(in, key...)
	in = binary.BigEndian.AppendUint32(in, 4)
	in = append(in, 0, 0, 0, 0)
	return &Stream{in: in, off: 64}
}

// Uint64 returns the next word.
func (s *Stream) Uint64() uint64 {
	if s.off == 64 {
		if s.ctr == 1<<32-1 {
			panic("group: internal error: stream exhausted")
		}
		binary.BigEndian.PutUint32(s.in[len(s.in)-4:], s.ctr)
		s.buf = sha512.Sum512(s.in)
		s.ctr++
		s.off = 0
	}
	v := binary.BigEndian.Uint64(s.buf[s.off:])
	s.off += 8
	return v
}

// Uniform returns a uniform integer in [0, n) by rejection sampling: it
// draws words x until x < 2^64 - (2^64 mod n) and returns x mod n.
// It panics if n is 0.
func (s *Stream) Uniform(n uint64) uint64 {
	for {
		if v, ok := Reduce(s.Uint64(), n, 64); ok {
			return v
		}
	}
}

// Reduce is the rejection-sampling step for a w-bit candidate x (x < 2^w,
// 1 <= w <= 64) and a bound n >= 1: it accepts x if x < 2^w - (2^w mod n),
// returning x mod n, and rejects it otherwise. Over all 2^w candidates every
// residue is returned equally often. It panics if n is 0.
func Reduce(x, n uint64, w uint) (uint64, bool) {
	if n == 0 || w == 0 || w > 64 {
		panic("group: internal error: Reduce out of range")
	}
	var rem uint64 // 2^w mod n
	if w == 64 {
		rem = (-n) % n // (2^64 - n) mod n
	} else {
		rem = (uint64(1) << w) % n
	}
	// limit = 2^w - rem; x < limit, computed without overflow as
	// x <= 2^w - 1 - rem.
	maxX := ^uint64(0) >> (64 - w)
	if x > maxX-rem {
		return 0, false
	}
	return x % n, true
}
