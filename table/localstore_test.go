package table

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocalMatchLastingKeys (issue 37 item 1): a match of lasting
// identities saves where each key is kept, not the key, and loads each
// again to resume; a key that is gone or another one is refused with the
// seat named.
func TestLocalMatchLastingKeys(t *testing.T) {
	cfg, keys, err := LocalConfig("classic", 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	refs := []string{".", filepath.Join("bots", "hard-1"), ""}
	dir := t.TempDir()
	if err := SaveLocal(dir, cfg, keys, refs, "expert"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, LocalMatchFile))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if strings.Contains(string(b), base64.StdEncoding.EncodeToString(keys[i].Seed())) {
			t.Fatalf("seat %d's seed is in the match file", i)
		}
	}
	byRef := map[string]ed25519.PrivateKey{refs[0]: keys[0], refs[1]: keys[1]}
	load := func(ref string) (ed25519.PrivateKey, error) {
		if k, ok := byRef[ref]; ok {
			return k, nil
		}
		return nil, errors.New("gone")
	}
	_, got, back, err := LoadLocal(dir, load)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != cfg.ID {
		t.Fatal("another table")
	}
	for i := range keys {
		if !back[i].Equal(keys[i]) {
			t.Fatalf("seat %d: another key", i)
		}
	}
	if _, _, _, err := LoadLocal(dir, nil); err == nil || !strings.Contains(err.Error(), "seat 0") {
		t.Fatalf("no loader: %v", err)
	}
	delete(byRef, refs[1])
	if _, _, _, err := LoadLocal(dir, load); err == nil || !strings.Contains(err.Error(), "seat 1") {
		t.Fatalf("a key gone: %v", err)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	byRef[refs[1]] = other
	if _, _, _, err := LoadLocal(dir, load); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("another key: %v", err)
	}
}
