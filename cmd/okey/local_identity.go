package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
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
	if l := bot.LevelOf(strategy); l != "" {
		label = l
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
// when create is set (netplay.LocalIdentity), its error for a person.
func loadLocalIdentity(data, ref string, create bool) (ed25519.PrivateKey, error) {
	k, err := netplay.LocalIdentity(data, ref, create)
	var gone *netplay.IdentityGoneError
	if errors.As(err, &gone) {
		return nil, errors.New(i18n.T("the identity in %s is gone: that match cannot go on", gone.Dir))
	}
	return k, err
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
