package table

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// TestConfigEncodingLayout checks the byte layout of protocol.md 5.1 field
// by field, built here independently of MarshalBinary.
func TestConfigEncodingLayout(t *testing.T) {
	cfg, _, err := LocalConfig("classic", 2, 11)
	if err != nil {
		t.Fatal(err)
	}
	str := func(b []byte, s string) []byte {
		return append(binary.BigEndian.AppendUint16(b, uint16(len(s))), s...)
	}
	want := []byte("okey/config/v2")
	want = append(want, cfg.ID[:]...)
	want = str(want, "classic")
	want = append(want, 2)
	for _, s := range cfg.Seats {
		want = str(want, string(s.ID))
		want = str(want, s.Name)
		want = str(want, string(s.Key))
		want = append(want, s.Nonce[:]...)
	}
	got, err := cfg.MarshalBinary()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("encoding\n got %x\nwant %x (%v)", got, want, err)
	}
	var back Config
	if err := back.UnmarshalBinary(got); err != nil {
		t.Fatal(err)
	}
	for i := range cfg.Seats {
		if back.Seats[i].Nonce != cfg.Seats[i].Nonce {
			t.Fatalf("seat %d nonce lost in a round trip", i)
		}
	}
	if back.Hash() != cfg.Hash() {
		t.Fatal("round trip changed the hash")
	}
	// The previous version's encoding (no nonces) is not a config.
	old := bytes.Replace(got, []byte("okey/config/v2"), []byte("okey/config/v1"), 1)
	if err := back.UnmarshalBinary(old); !errors.Is(err, ErrConfig) {
		t.Fatalf("v1 encoding: %v", err)
	}
}

// TestConfigNonceValidation: a seat without a nonce, or two seats with the
// same one, make a config invalid, in Validate and in UnmarshalBinary.
func TestConfigNonceValidation(t *testing.T) {
	cases := map[string]struct {
		change func(c *Config)
		want   string
	}{
		"seat 0 without nonce": {func(c *Config) { c.Seats[0].Nonce = [NonceSize]byte{} }, "seat 0 has no nonce"},
		"seat 2 without nonce": {func(c *Config) { c.Seats[2].Nonce = [NonceSize]byte{} }, "seat 2 has no nonce"},
		"duplicate nonce":      {func(c *Config) { c.Seats[2].Nonce = c.Seats[0].Nonce }, "seats 0 and 2 have the same nonce"},
		"adjacent duplicate":   {func(c *Config) { c.Seats[1].Nonce = c.Seats[0].Nonce }, "seats 0 and 1 have the same nonce"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, _, err := LocalConfig("classic", 3, 5)
			if err != nil {
				t.Fatal(err)
			}
			good, _ := cfg.MarshalBinary()
			tc.change(&cfg)
			err = cfg.Validate()
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate: %v, want %q", err, tc.want)
			}
			b, _ := cfg.MarshalBinary()
			keep := Config{ID: [16]byte{1}}
			if err := keep.UnmarshalBinary(b); !errors.Is(err, ErrConfig) {
				t.Fatalf("UnmarshalBinary: %v", err)
			}
			if keep.ID != [16]byte{1} || keep.Seats != nil {
				t.Fatal("a failed decode changed the config")
			}
			if bytes.Equal(b, good) {
				t.Fatal("the change did not reach the encoding")
			}
		})
	}
}

// TestConfigHashPerMatch: the config hash changes with any seat's nonce, so
// two matches of the same table (same id, roster and ruleset) never share
// it; fresh local configs differ, seeded ones repeat.
func TestConfigHashPerMatch(t *testing.T) {
	cfg, _, err := LocalConfig("classic", 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	h := cfg.Hash()
	for i := range cfg.Seats {
		for _, bit := range []int{0, 8*NonceSize - 1} {
			c := cfg
			c.Seats = append([]Seat(nil), cfg.Seats...)
			c.Seats[i].Nonce[bit/8] ^= 1 << (bit % 8)
			if c.Validate() != nil || c.Hash() == h {
				t.Fatalf("seat %d nonce bit %d: hash unchanged or invalid", i, bit)
			}
		}
	}
	again, _, _ := LocalConfig("classic", 4, 3)
	if again.Hash() != h {
		t.Fatal("seeded config is not reproducible")
	}
	a, _, err := LocalConfig("classic", 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := LocalConfig("classic", 2, 0)
	// Same table id, keys and names as a, other nonces: another match.
	b.ID, b.Seats[0].Key, b.Seats[1].Key = a.ID, a.Seats[0].Key, a.Seats[1].Key
	b.Seats[0].ID, b.Seats[1].ID = a.Seats[0].ID, a.Seats[1].ID
	if b.Validate() != nil || a.Hash() == b.Hash() {
		t.Fatal("two fresh configs of one table share a hash")
	}
	for _, s := range a.Seats {
		if len(s.Key) != ed25519.PublicKeySize || s.Nonce == ([NonceSize]byte{}) {
			t.Fatalf("fresh seat %+v", s)
		}
	}
}
