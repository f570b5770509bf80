package table

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"math/big"
	"testing"
)

// TestCheckIdentityKey: the identity keys protocol.md 5.1 refuses, so that
// every verifier's Ed25519 rule agrees (5.2).
func TestCheckIdentityKey(t *testing.T) {
	good := ed25519.NewKeyFromSeed(make([]byte, 32)).Public().(ed25519.PublicKey)
	if err := CheckIdentityKey(good); err != nil {
		t.Fatalf("honest key refused: %v", err)
	}
	for name, h := range map[string]string{
		"identity":          "0100000000000000000000000000000000000000000000000000000000000000",
		"order 2":           "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"order 4":           "0000000000000000000000000000000000000000000000000000000000000000",
		"order 4, sign bit": "0000000000000000000000000000000000000000000000000000000000000080",
		"order 8":           "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
		"order 8, sign bit": "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
		"order 8 (2)":       "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
		"non-canonical y=p": "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"not a point":       "0200000000000000000000000000000000000000000000000000000000000000",
		"short":             "0102",
	} {
		key, _ := hex.DecodeString(h)
		if err := CheckIdentityKey(key); !errors.Is(err, ErrIdentityKey) {
			t.Errorf("%s: %v, want refused", name, err)
		}
	}
	cfg, _, err := LocalConfig("classic", 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Seats[1].Key, _ = hex.DecodeString("0100000000000000000000000000000000000000000000000000000000000000")
	if err := cfg.Validate(); !errors.Is(err, ErrConfig) {
		t.Fatalf("config with a small-order key: %v", err)
	}
}

// TestEd25519Rule: the verification rule of protocol.md 5.2 on its edge
// cases: S >= l is refused even though S - l would verify.
func TestEd25519Rule(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	msg := []byte("okey")
	sig := ed25519.Sign(key, msg)
	if !ed25519.Verify(key.Public().(ed25519.PublicKey), msg, sig) {
		t.Fatal("honest signature refused")
	}
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	s := new(big.Int).SetBytes(reverse(sig[32:]))
	s.Add(s, l)
	bad := append(append([]byte(nil), sig[:32]...), reverse(s.FillBytes(make([]byte, 32)))...)
	if ed25519.Verify(key.Public().(ed25519.PublicKey), msg, bad) {
		t.Fatal("S + l accepted")
	}
	// The envelopes' prepared key (sigKey) follows the same rule.
	if k := sigKey(key.Public().(ed25519.PublicKey)); !k.Verify(msg, sig) || k.Verify(msg, bad) {
		t.Fatal("sigKey: honest signature refused or S + l accepted")
	}
}

func reverse(b []byte) []byte {
	c := make([]byte, len(b))
	for i := range b {
		c[len(b)-1-i] = b[i]
	}
	return c
}
