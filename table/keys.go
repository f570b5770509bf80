package table

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync"

	"filippo.io/edwards25519"

	"github.com/okey-game/okey/crypto/group"
)

// ErrIdentityKey is wrapped by the errors of CheckIdentityKey.
var ErrIdentityKey = errors.New("table: unacceptable identity key")

// CheckIdentityKey reports whether key may be a seat's identity key
// (protocol.md 5.1): 32 bytes that are the canonical encoding of a point of
// edwards25519, and not a point of small order. With such keys, Go's
// crypto/ed25519 Verify is exactly the rule protocol.md 5.2 pins (RFC 8032
// cofactorless verification, S >= l rejected, R compared by its bytes), so
// an independent verifier agrees with it on every signature.
func CheckIdentityKey(key ed25519.PublicKey) error {
	if len(key) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: %d bytes", ErrIdentityKey, len(key))
	}
	p, err := new(edwards25519.Point).SetBytes(key)
	if err != nil {
		return fmt.Errorf("%w: not a point", ErrIdentityKey)
	}
	if string(p.Bytes()) != string(key) {
		return fmt.Errorf("%w: not canonically encoded", ErrIdentityKey)
	}
	if new(edwards25519.Point).MultByCofactor(p).Equal(edwards25519.NewIdentityPoint()) == 1 {
		return fmt.Errorf("%w: a point of small order", ErrIdentityKey)
	}
	return nil
}

// maxSigKeys bounds the prepared signature keys kept (about 100 KB each).
const maxSigKeys = 64

// sigKeys holds identity keys prepared for fast verification
// (group.Ed25519Key: exactly crypto/ed25519.Verify, about three times as
// fast), made once per key and shared by every envelope check.
var sigKeys struct {
	sync.Mutex
	m map[[ed25519.PublicKeySize]byte]*group.Ed25519Key
}

// sigKey returns key (32 bytes) prepared for verification.
func sigKey(key ed25519.PublicKey) *group.Ed25519Key {
	var raw [ed25519.PublicKeySize]byte
	copy(raw[:], key)
	sigKeys.Lock()
	k := sigKeys.m[raw]
	sigKeys.Unlock()
	if k != nil {
		return k
	}
	k = group.NewEd25519Key(key)
	sigKeys.Lock()
	if sigKeys.m == nil || len(sigKeys.m) >= maxSigKeys {
		sigKeys.m = make(map[[ed25519.PublicKeySize]byte]*group.Ed25519Key)
	}
	sigKeys.m[raw] = k
	sigKeys.Unlock()
	return k
}
