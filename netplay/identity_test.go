package netplay

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
)

// TestLocalIdentity: a bot's identity is made once and read back the same;
// one asked for without create that is not there is gone; a ref outside
// the data directory is refused.
func TestLocalIdentity(t *testing.T) {
	data := t.TempDir()
	ref := filepath.Join("bots", "hard-1")
	if _, err := LocalIdentity(data, ref, false); !errors.As(err, new(*IdentityGoneError)) {
		t.Fatalf("a key never made: %v, want IdentityGoneError", err)
	}
	k, err := LocalIdentity(data, ref, true)
	if err != nil {
		t.Fatal(err)
	}
	again, err := LocalIdentity(data, ref, false)
	if err != nil || !bytes.Equal(k, again) {
		t.Fatalf("read back: %v (same key: %v)", err, bytes.Equal(k, again))
	}
	if own, err := LocalIdentity(data, ".", true); err != nil || bytes.Equal(own, k) {
		t.Fatalf("the person's identity: %v (the bot's key: %v)", err, bytes.Equal(own, k))
	}
	if _, err := LocalIdentity(data, "../elsewhere", true); err == nil {
		t.Fatal("a ref outside the data directory was taken")
	}
}
