package participant

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/tournament"
)

// A creator's code tournament (protocol.md 9.8, "Admission"): the creator
// draws the tournament's admission secret, keeps it in its data directory
// and gives the invite code; its bots join with it, as a joiner with the
// code does.

// KeptSecretPath is where a creator keeps its tournament's admission
// secret: beside its draw openings, DATA/tournaments/<tid>/invite (0600 in
// a 0700 directory), never in the folder.
func KeptSecretPath(state string, tid [32]byte) string {
	return filepath.Join(state, hex.EncodeToString(tid[:]), "invite")
}

// loadKeptSecret reads a creator's kept secret; ok is false when
// there is none (an open tournament, or a new one).
func loadKeptSecret(state string, tid [32]byte) (s invite.Secret, ok bool, err error) {
	b, err := os.ReadFile(KeptSecretPath(state, tid))
	if errors.Is(err, os.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	s, err = invite.SecretFromBytes(b)
	if err != nil {
		return s, false, fmt.Errorf("%s: %w", KeptSecretPath(state, tid), err)
	}
	return s, true, nil
}

// saveKeptSecret keeps a new secret before the tournament is
// announced, so that a creator started again admits the same code.
func saveKeptSecret(state string, tid [32]byte, s invite.Secret) error {
	path := KeptSecretPath(state, tid)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, s.Bytes())
}

// FolderTournament is the id of the tournament whose records a folder
// holds (its announcement), for a creator started again on it.
func FolderTournament(dir string) ([32]byte, bool) {
	b, err := os.ReadFile(filepath.Join(dir, RecordsFile))
	if err != nil {
		return [32]byte{}, false
	}
	raws, err := tournament.DecodeFile(b)
	if err != nil {
		return [32]byte{}, false
	}
	for _, raw := range raws {
		if r, err := tournament.Decode(raw); err == nil && r.Kind == tournament.KindAnnounce && r.Verify() {
			return r.ID(), true
		}
	}
	return [32]byte{}, false
}

// CreatorAdmission sets up a creator's code tournament: the secret kept
// for tid (a new one, kept before anything is announced, unless the
// tournament is resumed), the gate on the creator's network, and the
// invitation its bots join with. open with no secret kept gives nil: an
// open tournament. A resumed tournament keeps what it was: a code
// tournament if a secret is kept, else open.
func CreatorAdmission(state string, tid [32]byte, resumed, open bool, key ed25519.PrivateKey, n Net) (*Admission, *Invitation, error) {
	s, kept, err := loadKeptSecret(state, tid)
	if err != nil {
		return nil, nil, err
	}
	if !kept {
		if open || resumed {
			return nil, nil, nil
		}
		if s, err = invite.NewSecret(); err != nil {
			return nil, nil, err
		}
		if err := saveKeptSecret(state, tid, s); err != nil {
			return nil, nil, err
		}
	}
	pub := key.Public().(ed25519.PublicKey)
	adm, err := NewAdmission(n, pub, s)
	if err != nil {
		return nil, nil, err
	}
	return adm, &Invitation{Tournament: tid, Creator: [32]byte(pub), Secret: s}, nil
}
