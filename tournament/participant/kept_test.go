package participant

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"

	"github.com/okey-game/okey/tournament"
)

// TestCreatorAdmission: a new code tournament's secret is kept 0600 before
// anything is announced and read back when the creator starts again (the
// same code); an open tournament keeps none, and a resumed tournament with
// none stays open; a damaged kept secret is an error, not a new code.
func TestCreatorAdmission(t *testing.T) {
	state := t.TempDir()
	_, key, _ := ed25519.GenerateKey(nil)
	n := NewMemBus().Join("creator")
	tid := [32]byte{1, 2, 3}
	adm, iv, err := CreatorAdmission(state, tid, false, false, key, n)
	if err != nil || adm == nil || iv == nil || iv.Tournament != tid || iv.Secret.IsZero() {
		t.Fatalf("a new code tournament: %v %v %v", adm, iv, err)
	}
	st, err := os.Stat(KeptSecretPath(state, tid))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the kept secret: %v %v", st, err)
	}
	if dst, err := os.Stat(filepath.Dir(KeptSecretPath(state, tid))); err != nil || dst.Mode().Perm() != 0o700 {
		t.Fatalf("the kept secret's directory: %v %v", dst, err)
	}
	for _, open := range []bool{false, true} {
		_, again, err := CreatorAdmission(state, tid, true, open, key, n)
		if err != nil || again == nil || again.Secret != iv.Secret {
			t.Fatalf("resumed (--open %v): %v, %v", open, again, err)
		}
	}
	other := [32]byte{4}
	if adm, iv, err := CreatorAdmission(state, other, false, true, key, n); adm != nil || iv != nil || err != nil {
		t.Fatalf("an open tournament: %v %v %v", adm, iv, err)
	}
	if adm, _, err := CreatorAdmission(state, other, true, false, key, n); adm != nil || err != nil {
		t.Fatalf("a resumed open tournament: %v %v", adm, err)
	}
	if _, err := os.Stat(KeptSecretPath(state, other)); !os.IsNotExist(err) {
		t.Fatalf("an open tournament keeps a secret: %v", err)
	}
	os.WriteFile(KeptSecretPath(state, tid), []byte("cut"), 0o600)
	if _, _, err := CreatorAdmission(state, tid, true, false, key, n); err == nil {
		t.Fatal("a damaged secret read as none")
	}
}

// TestFolderTournament: a folder's tournament is its announcement's id
// (the one the check reports); a folder without records has none.
func TestFolderTournament(t *testing.T) {
	tid, ok := FolderTournament(honestFolder)
	if !ok {
		t.Fatal("no tournament in the honest folder")
	}
	recs, matches, err := LoadFolder(honestFolder)
	if err != nil {
		t.Fatal(err)
	}
	if rep := tournament.Check(recs, matches); rep.ID != tid {
		t.Fatalf("FolderTournament %x, the check's id %x", tid[:4], rep.ID[:4])
	}
	if _, ok := FolderTournament(t.TempDir()); ok {
		t.Fatal("a tournament in an empty folder")
	}
}
