package netplay

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p"
)

// IdentityGoneError is LocalIdentity's when the key asked for is not
// kept any more.
type IdentityGoneError struct{ Dir string }

func (e *IdentityGoneError) Error() string {
	return i18n.T("the identity in %s is gone: that match cannot go on", e.Dir)
}

// LocalIdentity returns the signing key of the identity kept at ref under
// data (a match against bots on this computer: the person's is data
// itself, "."; a bot's under data/bots), creating it when create is set,
// else an *IdentityGoneError when it is not there. A ref must stay inside
// data. The key is never logged.
func LocalIdentity(data, ref string, create bool) (ed25519.PrivateKey, error) {
	if !filepath.IsLocal(ref) {
		return nil, fmt.Errorf("identity %q is outside the data directory", ref)
	}
	dir := filepath.Join(data, ref)
	if !create {
		if _, err := os.Stat(filepath.Join(dir, p2p.IdentityFile)); err != nil {
			return nil, &IdentityGoneError{dir}
		}
	}
	k, err := p2p.LoadOrCreateIdentity(dir)
	if err != nil {
		return nil, err
	}
	return privateKey(k)
}
