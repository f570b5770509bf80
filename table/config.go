package table

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/okey-game/okey/engine"
)

// Seat is one player at a table.
type Seat struct {
	ID   PeerID            // the libp2p peer id (display and transport)
	Name string            // display name, 1..32 printable characters
	Key  ed25519.PublicKey // the identity key that signs the seat's messages
	// Nonce is the seat's own fresh random value for this match (chosen
	// with crypto/rand when the seat joined the table): it makes the
	// config, and so every signature bound to its hash, unique to one
	// match. It is never all zeros, and no two seats share one.
	Nonce [NonceSize]byte
}

// Config is what every member agrees on before the first message: the
// table's id, its ruleset, and the seats in seat order. Its hash is signed
// into every seat's Hello.
type Config struct {
	ID      [16]byte
	Ruleset string // canonical engine ruleset text, e.g. "classic:partnerships"
	Seats   []Seat
}

// Limits on a config.
const (
	MaxNameLen = 32
	maxIDLen   = 128
	// NonceSize is the size of a seat's nonce.
	NonceSize = 32
)

// configMagic starts the canonical encoding of a config.
const configMagic = "okey/config/v2"

// ErrConfig is wrapped by every config validation error.
var ErrConfig = errors.New("table: bad config")

// Validate checks a config: a canonical ruleset for this many players, names,
// keys, a nonce per seat, and no seat, key or nonce twice.
func (c *Config) Validate() error {
	r, err := engine.ParseRuleset(c.Ruleset)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if r.String() != c.Ruleset {
		return fmt.Errorf("%w: ruleset %q is not canonical (%q)", ErrConfig, c.Ruleset, r.String())
	}
	if err := r.CheckPlayers(len(c.Seats)); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	for i, s := range c.Seats {
		if err := CheckIdentityKey(s.Key); err != nil {
			return fmt.Errorf("%w: seat %d: %v", ErrConfig, i, err)
		}
		if err := CheckName(s.Name); err != nil {
			return fmt.Errorf("%w: seat %d: %v", ErrConfig, i, err)
		}
		if len(s.ID) == 0 || len(s.ID) > maxIDLen {
			return fmt.Errorf("%w: seat %d id", ErrConfig, i)
		}
		if s.Nonce == ([NonceSize]byte{}) {
			return fmt.Errorf("%w: seat %d has no nonce", ErrConfig, i)
		}
		for j := 0; j < i; j++ {
			if c.Seats[j].ID == s.ID || string(c.Seats[j].Key) == string(s.Key) {
				return fmt.Errorf("%w: seats %d and %d are the same player", ErrConfig, j, i)
			}
			if c.Seats[j].Nonce == s.Nonce {
				return fmt.Errorf("%w: seats %d and %d have the same nonce", ErrConfig, j, i)
			}
		}
	}
	return nil
}

// CheckName validates a display name.
func CheckName(name string) error {
	if name == "" || len(name) > MaxNameLen || !utf8.ValidString(name) {
		return fmt.Errorf("name must be 1..%d bytes of UTF-8", MaxNameLen)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("name has a control character")
		}
	}
	return nil
}

// Rules returns the parsed ruleset (Validate first).
func (c *Config) Rules() engine.Ruleset {
	r, err := engine.ParseRuleset(c.Ruleset)
	if err != nil {
		panic("table: internal error: unvalidated config")
	}
	return r
}

// MarshalBinary encodes the config canonically: the table id, the ruleset,
// the seat count, and per seat id, name, key (strings as u16 length and
// bytes) and the 32-byte nonce.
func (c *Config) MarshalBinary() ([]byte, error) {
	b := append([]byte(configMagic), c.ID[:]...)
	b = appendStr(b, c.Ruleset)
	b = append(b, byte(len(c.Seats)))
	for _, s := range c.Seats {
		b = appendStr(b, string(s.ID))
		b = appendStr(b, s.Name)
		b = appendStr(b, string(s.Key))
		b = append(b, s.Nonce[:]...)
	}
	return b, nil
}

// UnmarshalBinary decodes and validates a config.
func (c *Config) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	if string(r.take(len(configMagic))) != configMagic {
		return fmt.Errorf("%w: not a config", ErrConfig)
	}
	var out Config
	copy(out.ID[:], r.take(16))
	out.Ruleset = r.str()
	n := int(r.u8())
	if n > 4 {
		return fmt.Errorf("%w: %d seats", ErrConfig, n)
	}
	for i := 0; i < n; i++ {
		s := Seat{ID: PeerID(r.str()), Name: r.str(), Key: ed25519.PublicKey([]byte(r.str()))}
		s.Nonce = r.bytes32()
		out.Seats = append(out.Seats, s)
	}
	if r.err != nil || len(r.b) != 0 {
		return fmt.Errorf("%w: truncated or trailing bytes", ErrConfig)
	}
	if err := out.Validate(); err != nil {
		return err
	}
	*c = out
	return nil
}

// Hash is SHA-256 of the canonical encoding.
func (c *Config) Hash() [32]byte {
	b, _ := c.MarshalBinary()
	return sha256.Sum256(b)
}

func appendStr(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// reader is a bounds-checked cursor; the first failure sticks.
type reader struct {
	b   []byte
	err error
}

var errShort = errors.New("table: truncated message")

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errShort
		return make([]byte, max(n, 0))
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8() uint8   { return r.take(1)[0] }
func (r *reader) u16() uint16 { return binary.BigEndian.Uint16(r.take(2)) }
func (r *reader) u32() uint32 { return binary.BigEndian.Uint32(r.take(4)) }
func (r *reader) str() string { return string(r.take(int(r.u16()))) }
func (r *reader) bytes32() (out [32]byte) {
	copy(out[:], r.take(32))
	return out
}
