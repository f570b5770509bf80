package p2p

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
)

func TestIdentityCreateAndLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "okey")
	k1, err := LoadOrCreateIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k1.Type() != crypto.Ed25519 {
		t.Fatalf("key type %v", k1.Type())
	}
	st, err := os.Stat(filepath.Join(dir, IdentityFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %#o, want 0600", st.Mode().Perm())
	}
	if dst, _ := os.Stat(dir); dst.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %#o, want 0700", dst.Mode().Perm())
	}
	k2, err := LoadOrCreateIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Equals(k2) {
		t.Fatal("reloaded identity differs")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
}

func TestIdentityRefusesLoosePermissions(t *testing.T) {
	dir := t.TempDir()
	k1, err := LoadOrCreateIdentity(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, IdentityFile)
	before, _ := os.ReadFile(path)
	for _, mode := range []fs.FileMode{0o644, 0o640, 0o604, 0o660} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		_, err := LoadOrCreateIdentity(dir)
		if !errors.Is(err, ErrInsecureKeyFile) || !strings.Contains(err.Error(), "chmod 600") {
			t.Fatalf("mode %#o: error %v, want ErrInsecureKeyFile with advice", mode, err)
		}
		after, _ := os.ReadFile(path)
		st, _ := os.Stat(path)
		if string(after) != string(before) || st.Mode().Perm() != mode {
			t.Fatalf("mode %#o: refused file was changed", mode)
		}
	}
	os.Chmod(path, 0o600)
	k2, err := LoadOrCreateIdentity(dir)
	if err != nil || !k1.Equals(k2) {
		t.Fatalf("after chmod 600: %v", err)
	}
}

func TestIdentityCorrupt(t *testing.T) {
	for name, content := range map[string][]byte{
		"garbage": []byte("this is not a key"),
		"empty":   {},
		"huge":    make([]byte, maxIdentityFile+1),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, IdentityFile)
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadOrCreateIdentity(dir)
			if err == nil {
				t.Fatal("corrupt identity accepted")
			}
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error %q does not name the file", err)
			}
			after, _ := os.ReadFile(path)
			if string(after) != string(content) {
				t.Fatal("corrupt file was overwritten")
			}
		})
	}
	t.Run("not ed25519", func(t *testing.T) {
		dir := t.TempDir()
		k, _, err := crypto.GenerateSecp256k1Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := crypto.MarshalPrivateKey(k)
		os.WriteFile(filepath.Join(dir, IdentityFile), raw, 0o600)
		if _, err := LoadOrCreateIdentity(dir); err == nil || !strings.Contains(err.Error(), "Ed25519") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, IdentityFile), 0o700)
		if _, err := LoadOrCreateIdentity(dir); err == nil {
			t.Fatal("directory accepted as key file")
		}
	})
}

func TestProfile(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadProfile(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing profile: %v", err)
	}
	if err := SaveProfile(dir, "Ayşe Öztürk"); err != nil {
		t.Fatal(err)
	}
	name, err := LoadProfile(dir)
	if err != nil || name != "Ayşe Öztürk" {
		t.Fatalf("LoadProfile = %q, %v", name, err)
	}
	st, _ := os.Stat(filepath.Join(dir, ProfileFile))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("profile mode %#o", st.Mode().Perm())
	}
	for _, bad := range []string{"", " lead", "trail ", "tab\there", "bell\a", strings.Repeat("x", MaxDisplayName+1), "\xff\xfe", "zero\u200bwidth"} {
		if err := SaveProfile(dir, bad); err == nil {
			t.Errorf("SaveProfile(%q) accepted", bad)
		}
	}
	if name, _ := LoadProfile(dir); name != "Ayşe Öztürk" {
		t.Fatalf("a rejected name changed the profile to %q", name)
	}
	if err := ValidateDisplayName(strings.Repeat("ş", MaxDisplayName)); err != nil {
		t.Fatalf("%d runes refused: %v", MaxDisplayName, err)
	}
	os.WriteFile(filepath.Join(dir, ProfileFile), []byte(`{"v":1,"name":"x","extra":1}`), 0o600)
	if _, err := LoadProfile(dir); err == nil {
		t.Fatal("unknown field accepted")
	}
}
