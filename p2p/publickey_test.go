package p2p

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// TestPublicKeyHex: no identity gives "" and creates none; a kept one
// gives its public key in hex.
func TestPublicKeyHex(t *testing.T) {
	dir := t.TempDir()
	if got := PublicKeyHex(dir); got != "" {
		t.Fatalf("no identity: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, IdentityFile)); !os.IsNotExist(err) {
		t.Fatalf("PublicKeyHex created an identity: %v", err)
	}
	if PublicKeyHex("") != "" {
		t.Fatal("no directory: a key")
	}
	k, err := LoadOrCreateIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := k.GetPublic().Raw()
	if got := PublicKeyHex(dir); got != hex.EncodeToString(raw) || len(got) != 64 {
		t.Fatalf("got %q, want %x", got, raw)
	}
}
