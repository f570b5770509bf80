// Package invite is okey's invite code: what a table's creator pastes into
// a chat so that a friend beyond the LAN can take a seat (protocol.md
// section 7.10).
//
// A Code carries the table id, the creator's peer id and addresses, the
// relays the creator knows, and an admission Secret. The secret never goes
// on the wire itself: a joiner proves it holds it with Proof, bound to the
// table, the creator, the joiner's own peer id and its lobby nonce, so that
// neither a replay nor a relay operator (who is given only RelayToken, a
// separate derivation) can take a seat.
//
// The package is pure: no I/O, no clocks (the Limiter is given the time).
// Secrets come from crypto/rand (NewSecret). A Secret formats as a redacted
// placeholder, so that printing or logging one by mistake leaks nothing.
package invite

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
)

// SecretSize is the size of an admission secret: 128 bits.
const SecretSize = 16

// Secret admits the holder of an invite code to one table.
type Secret [SecretSize]byte

// ErrNoRandom is returned when the system's random source fails.
var ErrNoRandom = errors.New("invite: no randomness")

// NewSecret draws a fresh secret from crypto/rand.
func NewSecret() (Secret, error) {
	var s Secret
	if _, err := rand.Read(s[:]); err != nil {
		return Secret{}, fmt.Errorf("%w: %v", ErrNoRandom, err)
	}
	if s == (Secret{}) {
		return Secret{}, ErrNoRandom // 2^-128: a broken source
	}
	return s, nil
}

// IsZero reports whether s is the zero value (no secret).
func (s Secret) IsZero() bool { return s == Secret{} }

const redacted = "invite.Secret(redacted)"

// String never shows the secret.
func (s Secret) String() string { return redacted }

// GoString never shows the secret.
func (s Secret) GoString() string { return redacted }

// Format never shows the secret, whatever the verb.
func (s Secret) Format(f fmt.State, _ rune) { fmt.Fprint(f, redacted) }

// LogValue never shows the secret.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalText refuses: a secret is written only by the code and the
// record that own it, with Bytes.
func (s Secret) MarshalText() ([]byte, error) {
	return nil, errors.New("invite: a secret is not marshalled as text")
}

// Bytes returns the secret's bytes, for the code and the peer's own record.
func (s Secret) Bytes() []byte { return append([]byte(nil), s[:]...) }

// SecretFromBytes is the inverse of Bytes: exactly SecretSize bytes, not
// all zero.
func SecretFromBytes(b []byte) (Secret, error) {
	var s Secret
	if len(b) != SecretSize {
		return s, fmt.Errorf("invite: secret of %d bytes, want %d", len(b), SecretSize)
	}
	copy(s[:], b)
	if s.IsZero() {
		return Secret{}, errors.New("invite: secret is all zeros")
	}
	return s, nil
}

// Domain-separation labels of the derivations (protocol.md 7.10).
const (
	labelRelayToken   = "okey/invite/v1/relay-token"
	labelAdmissionKey = "okey/invite/v1/admission-key"
	labelProof        = "okey/invite/v1/admission-proof"
	// labelSpectatorProof labels a spectator's proof (protocol.md 7.12).
	labelSpectatorProof = "okey/invite/v1/spectator-proof"
)

// ProofSize is the size of an admission proof.
const ProofSize = 32

// Proof is a joiner's proof that it holds a table's secret.
type Proof [ProofSize]byte

// lp appends a 2-byte big-endian length and b.
func lp(dst []byte, b []byte) []byte {
	if len(b) > 0xffff {
		panic("invite: internal error: field over 65535 bytes")
	}
	return append(binary.BigEndian.AppendUint16(dst, uint16(len(b))), b...)
}

func mac(key []byte, parts ...[]byte) [32]byte {
	h := hmac.New(sha256.New, key)
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// RelayToken is what the relay whose peer id is relay (its raw bytes, the
// multihash) is given for table: HMAC-SHA256 keyed with the secret over the
// relay-token label, the table id and the relay's id. A relay's operator
// holding it learns nothing that makes a Proof, and nothing that admits it
// at another relay of the same code: each relay gets its own token.
func (s Secret) RelayToken(table string, relay []byte) [32]byte {
	return mac(s[:], lp(nil, []byte(labelRelayToken)), lp(nil, []byte(table)), lp(nil, relay))
}

// admissionKey is the per-table key under which proofs are made.
func (s Secret) admissionKey(table string) [32]byte {
	return mac(s[:], lp(nil, []byte(labelAdmissionKey)), lp(nil, []byte(table)))
}

// Proof is the admission proof of joiner (the raw bytes of its peer id)
// with its lobby nonce for table, created by creator (raw peer id bytes).
func (s Secret) Proof(table string, creator, joiner []byte, nonce [32]byte) Proof {
	k := s.admissionKey(table)
	var b []byte
	b = lp(b, []byte(labelProof))
	b = lp(b, []byte(table))
	b = lp(b, creator)
	b = lp(b, joiner)
	b = append(b, nonce[:]...)
	return mac(k[:], b)
}

// Check reports whether p is the proof for these fields, in constant time.
func (s Secret) Check(p Proof, table string, creator, joiner []byte, nonce [32]byte) bool {
	want := s.Proof(table, creator, joiner, nonce)
	return !s.IsZero() && hmac.Equal(want[:], p[:])
}

// SpectatorProof is the proof that spectator (the raw bytes of its peer
// id) holds the secret of table, created by creator (raw peer id bytes):
// what a private table's members ask of a spectator before they serve it
// (protocol.md 7.12). It binds the spectator's peer id, so a proof seen by
// anyone else admits no one.
func (s Secret) SpectatorProof(table string, creator, spectator []byte) Proof {
	k := s.admissionKey(table)
	var b []byte
	b = lp(b, []byte(labelSpectatorProof))
	b = lp(b, []byte(table))
	b = lp(b, creator)
	b = lp(b, spectator)
	return mac(k[:], b)
}

// CheckSpectator reports whether p is spectator's proof, in constant time.
func (s Secret) CheckSpectator(p Proof, table string, creator, spectator []byte) bool {
	want := s.SpectatorProof(table, creator, spectator)
	return !s.IsZero() && hmac.Equal(want[:], p[:])
}
