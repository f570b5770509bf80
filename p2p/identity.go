package p2p

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p/internal/wire"
)

// File names inside the configuration directory.
const (
	// IdentityFile holds the user's Ed25519 private key in libp2p's
	// protobuf key encoding (crypto.MarshalPrivateKey). Mode 0600.
	IdentityFile = "identity.key"
	// ProfileFile holds the user's display name as JSON. Mode 0600.
	ProfileFile = "profile"
	// MaxDisplayName is the longest display name, in runes.
	MaxDisplayName = 24
	// maxIdentityFile bounds what LoadOrCreateIdentity reads.
	maxIdentityFile = 4096
	maxProfileFile  = 4096
)

// DefaultConfigDir is os.UserConfigDir()/okey.
func DefaultConfigDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("p2p: no user config directory: %w", err)
	}
	return filepath.Join(d, "okey"), nil
}

// LoadOrCreateIdentity returns the Ed25519 identity stored in
// dir/identity.key, creating dir (0700) and the file (0600) when the file
// does not exist. dir "" means DefaultConfigDir().
//
// Permissions: a key file with any group or other permission bit set is
// refused with ErrInsecureKeyFile, like ssh does; it is never silently
// "fixed", because a key that others could read may be compromised and the
// user should know. A file that is not a libp2p Ed25519 private key gives a
// clear error and is left alone. Creation is atomic (temporary file, then a
// hard link that fails if another process created the file first, in which
// case that process's key is loaded). The key is never logged.
func LoadOrCreateIdentity(dir string) (crypto.PrivKey, error) {
	if dir == "" {
		d, err := DefaultConfigDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	path := filepath.Join(dir, IdentityFile)
	k, err := loadIdentity(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("p2p: create config directory: %w", err)
	}
	priv, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		return nil, fmt.Errorf("p2p: generate identity: %w", err)
	}
	raw, err := crypto.MarshalPrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("p2p: encode identity: %w", err)
	}
	if err := atomicfile.WriteNew(path, raw); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return loadIdentity(path)
		}
		return nil, fmt.Errorf("p2p: write identity: %w", err)
	}
	return priv, nil
}

func loadIdentity(path string) (crypto.PrivKey, error) {
	raw, err := wire.ReadPrivateFile(path, maxIdentityFile)
	if err != nil {
		return nil, err
	}
	k, err := crypto.UnmarshalPrivateKey(raw)
	if err != nil {
		return nil, fmt.Errorf("p2p: identity file %s is corrupt (not a libp2p private key): %v", path, err)
	}
	if k.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("p2p: identity file %s holds a %v key, want Ed25519", path, k.Type())
	}
	return k, nil
}

// ValidateDisplayName checks a display name: valid UTF-8, 1 to
// MaxDisplayName runes, only printable characters (letters, marks, numbers,
// punctuation, symbols and the ASCII space), no leading or trailing space.
func ValidateDisplayName(name string) error {
	if !utf8.ValidString(name) {
		return errors.New("p2p: display name is not valid UTF-8")
	}
	n := utf8.RuneCountInString(name)
	if n == 0 {
		return errors.New("p2p: display name is empty")
	}
	if n > MaxDisplayName {
		return fmt.Errorf("p2p: display name has %d characters, at most %d allowed", n, MaxDisplayName)
	}
	if strings.TrimSpace(name) != name {
		return errors.New("p2p: display name starts or ends with a space")
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("p2p: display name contains the unprintable character %U", r)
		}
	}
	return nil
}

type profileJSON struct {
	V    int    `json:"v"`
	Name string `json:"name"`
}

// LoadProfile reads the display name from dir/profile (dir "" means
// DefaultConfigDir()). A missing file returns an error wrapping
// fs.ErrNotExist.
func LoadProfile(dir string) (string, error) {
	if dir == "" {
		d, err := DefaultConfigDir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	path := filepath.Join(dir, ProfileFile)
	raw, err := wire.ReadPrivateFile(path, maxProfileFile)
	if err != nil {
		return "", err
	}
	var p profileJSON
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return "", fmt.Errorf("p2p: profile %s is corrupt: %v", path, err)
	}
	if dec.More() {
		return "", fmt.Errorf("p2p: profile %s is corrupt: trailing data", path)
	}
	if p.V != 1 {
		return "", fmt.Errorf("p2p: profile %s has version %d, want 1", path, p.V)
	}
	if err := ValidateDisplayName(p.Name); err != nil {
		return "", fmt.Errorf("p2p: profile %s: %w", path, err)
	}
	return p.Name, nil
}

// SaveProfile validates name and stores it in dir/profile (0600), creating
// dir (0700) if needed. An invalid name changes nothing.
func SaveProfile(dir, name string) error {
	if err := ValidateDisplayName(name); err != nil {
		return err
	}
	if dir == "" {
		d, err := DefaultConfigDir()
		if err != nil {
			return err
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("p2p: create config directory: %w", err)
	}
	raw, err := json.Marshal(profileJSON{V: 1, Name: name})
	if err != nil {
		return fmt.Errorf("p2p: encode profile: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, ProfileFile), append(raw, '\n')); err != nil {
		return fmt.Errorf("p2p: write profile: %w", err)
	}
	return nil
}
