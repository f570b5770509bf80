package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// A match against bots (okey play --bots) seats the person with the data
// directory's identity, the one the LAN uses, and each bot with a lasting
// identity of its level (or strategy) and seat slot, kept under
// DATA/bots/LEVEL-K (hard-1, hard-2, hard-3: a table never holds one key
// twice). okey stats then adds up the matches of many evenings: one row
// for the person, one per bot identity.

// ownIdentityRef is the Ref of the person's identity: the data directory
// itself.
const ownIdentityRef = "."

// botLabel is the name of a bot's identity of the strategy called
// strategy at its seat slot k (1 to 3): its level's name when the strategy
// is a level's, else the strategy's.
func botLabel(strategy string, k int) string {
	label := strategy
	if label == "" {
		label = bot.DefaultLevel
	}
	for _, l := range bot.Levels {
		if l.Strategy == strategy {
			label = l.Level
		}
	}
	return fmt.Sprintf("%s-%d", label, k)
}

// localIdentities returns the lasting keys of a match against k bots of
// strategy, by seat (the person's, then each bot's), creating the missing
// ones in the data directory, with the bots' names (their identities').
func localIdentities(data, strategy string, k int) ([]ui.LocalIdentity, []string, error) {
	own, err := loadLocalIdentity(data, ownIdentityRef, true)
	if err != nil {
		return nil, nil, err
	}
	ids := []ui.LocalIdentity{{Ref: ownIdentityRef, Key: own}}
	var names []string
	for i := 1; i <= k; i++ {
		label := botLabel(strategy, i)
		ref := filepath.Join("bots", label)
		key, err := loadLocalIdentity(data, ref, true)
		if err != nil {
			return nil, nil, err
		}
		ids = append(ids, ui.LocalIdentity{Ref: ref, Key: key})
		names = append(names, label)
	}
	return ids, names, nil
}

// loadLocalIdentity returns the key kept at ref under data, creating it
// when create is set. A ref must stay inside data. The key is never
// logged.
func loadLocalIdentity(data, ref string, create bool) (ed25519.PrivateKey, error) {
	if !filepath.IsLocal(ref) {
		return nil, fmt.Errorf("identity %q is outside the data directory", ref)
	}
	dir := filepath.Join(data, ref)
	if !create {
		if _, err := os.Stat(filepath.Join(dir, p2p.IdentityFile)); err != nil {
			return nil, errors.New(i18n.T("the identity in %s is gone: that match cannot go on", dir))
		}
	}
	k, err := p2p.LoadOrCreateIdentity(dir)
	if err != nil {
		return nil, err
	}
	return ed25519Key(k)
}

// ed25519Key converts a libp2p Ed25519 identity into the key that signs
// table envelopes.
func ed25519Key(k crypto.PrivKey) (ed25519.PrivateKey, error) {
	if k.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("identity is a %v key, want Ed25519", k.Type())
	}
	raw, err := k.Raw()
	if err != nil || len(raw) != ed25519.PrivateKeySize {
		return nil, errors.New("identity key has the wrong size")
	}
	return ed25519.PrivateKey(raw), nil
}

// uniqueBotNames renames a bot whose name is the person's (name + "'").
func uniqueBotNames(person string, names []string) []string {
	out := make([]string, len(names))
	for i, nm := range names {
		if strings.EqualFold(nm, person) {
			nm += "'"
		}
		if table.CheckName(nm) != nil {
			nm = fmt.Sprintf("bot%d", i+1)
		}
		out[i] = nm
	}
	return out
}
