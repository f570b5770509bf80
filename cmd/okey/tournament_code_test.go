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
