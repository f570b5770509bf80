package main

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/tournament/participant"
)

// tableCode is a table's invite code (7.10), not a tournament's.
func tableCode(t *testing.T, table string) string {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(nil)
	k, err := crypto.UnmarshalEd25519PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := invite.NewSecret()
	text, err := invite.Code{Table: table, Creator: id, Secret: s}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestTournamentCodeUsage: bad --code, --open and --id combinations are
// usage errors (exit 2) with a clear message, before anything is opened
// or written.
func TestTournamentCodeUsage(t *testing.T) {
	dir := t.TempDir()
	tid := strings.Repeat("ab", 32)
	tourCode := tableCode(t, tid)
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"tournament", "join", "--code", "okey1garbage"}, "--code:"},
		{"", []string{"tournament", "join", "--code", "hello"}, "not an okey invite code"},
		{"", []string{"tournament", "join", "--code", "-"}, "standard input holds no code"},
		{"", []string{"tournament", "join", "--code", tableCode(t, "3f9a0c12d4e5b6a7")}, "a table's, not a tournament's"},
		{"", []string{"tournament", "create", "--code", tourCode}, "--code is join's"},
		{"", []string{"tournament", "join", "--open"}, "--open is create's"},
		{"", []string{"tournament", "join", "--code", tourCode, "--id", tid}, "--code excludes --id"},
	} {
		args := append(c.args, "--data", filepath.Join(dir, "data"), "--dir", filepath.Join(dir, "t"), "--bot")
		code, out, errs := runOkey(t, c.stdin, args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errs, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a refused command wrote %v", ents)
	}
}

// TestCreatorAdmission: a new code tournament's secret is kept 0600 before
// anything is announced and read back when the creator starts again (the
// same code); an open tournament keeps none, and a resumed tournament with
// none stays open; a damaged kept secret is an error, not a new code.
func TestCreatorAdmission(t *testing.T) {
	state := t.TempDir()
	_, key, _ := ed25519.GenerateKey(nil)
	n := participant.NewMemBus().Join("creator")
	tid := [32]byte{1, 2, 3}
	adm, iv, err := creatorAdmission(state, tid, false, false, key, n)
	if err != nil || adm == nil || iv == nil || iv.Tournament != tid || iv.Secret.IsZero() {
		t.Fatalf("a new code tournament: %v %v %v", adm, iv, err)
	}
	st, err := os.Stat(tournamentSecretPath(state, tid))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the kept secret: %v %v", st, err)
	}
	if dst, err := os.Stat(filepath.Dir(tournamentSecretPath(state, tid))); err != nil || dst.Mode().Perm() != 0o700 {
		t.Fatalf("the kept secret's directory: %v %v", dst, err)
	}
	for _, open := range []bool{false, true} {
		_, again, err := creatorAdmission(state, tid, true, open, key, n)
		if err != nil || again == nil || again.Secret != iv.Secret {
			t.Fatalf("resumed (--open %v): %v, %v", open, again, err)
		}
	}
	other := [32]byte{4}
	if adm, iv, err := creatorAdmission(state, other, false, true, key, n); adm != nil || iv != nil || err != nil {
		t.Fatalf("an open tournament: %v %v %v", adm, iv, err)
	}
	if adm, _, err := creatorAdmission(state, other, true, false, key, n); adm != nil || err != nil {
		t.Fatalf("a resumed open tournament: %v %v", adm, err)
	}
	if _, err := os.Stat(tournamentSecretPath(state, other)); !os.IsNotExist(err) {
		t.Fatalf("an open tournament keeps a secret: %v", err)
	}
	os.WriteFile(tournamentSecretPath(state, tid), []byte("cut"), 0o600)
	if _, _, err := creatorAdmission(state, tid, true, false, key, n); err == nil {
		t.Fatal("a damaged secret read as none")
	}
}
