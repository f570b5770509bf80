package p2p

import (
	"encoding/hex"
	"os"
	"path/filepath"
)

// PublicKeyHex is the public key of the identity kept in dir
// (IdentityFile), in hex, as a player's record names its keys (okey
// stats' "you"); "" when dir holds no readable identity. It never creates
// one.
func PublicKeyHex(dir string) string {
	if dir == "" {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, IdentityFile)); err != nil {
		return ""
	}
	k, err := LoadOrCreateIdentity(dir)
	if err != nil {
		return ""
	}
	raw, err := k.GetPublic().Raw()
	if err != nil {
		return ""
	}
	return hex.EncodeToString(raw)
}
