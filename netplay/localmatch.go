package netplay

import (
	"crypto/ed25519"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/table"
)

// A match against bots (okey play --bots) seats the person with the data
// directory's identity, the one the LAN uses, and each bot with a lasting
// identity of its level (or strategy) and seat slot, kept under
// DATA/bots/LEVEL-K (hard-1, hard-2, hard-3: a table never holds one key
// twice). okey stats then adds up the matches of many evenings: one row
// for the person, one per bot identity.

// OwnIdentity is the Ref of the person's identity: the data directory
// itself.
const OwnIdentity = "."

// LocalKey is a seat's lasting key in a match against bots and where it
// is kept (Ref, under the data directory). The key is never logged.
type LocalKey struct {
	Ref string
	Key ed25519.PrivateKey
}

// LocalIdentities returns the lasting keys of a match against k bots of
// strategy, by seat (the person's, then each bot's), creating the missing
// ones in the data directory, with the bots' names (their identities').
func LocalIdentities(data, strategy string, k int) ([]LocalKey, []string, error) {
	own, err := LocalIdentity(data, OwnIdentity, true)
	if err != nil {
		return nil, nil, err
	}
	ids := []LocalKey{{Ref: OwnIdentity, Key: own}}
	var names []string
	for i := 1; i <= k; i++ {
		label := botLabel(strategy, i)
		ref := filepath.Join("bots", label)
		key, err := LocalIdentity(data, ref, true)
		if err != nil {
			return nil, nil, err
		}
		ids = append(ids, LocalKey{Ref: ref, Key: key})
		names = append(names, label)
	}
	return ids, names, nil
}

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

// UniqueBotNames renames a bot whose name is the person's (name + "'"),
// and one whose name is no table name (botN).
func UniqueBotNames(person string, names []string) []string {
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

// LocalBots returns the movers of k bots of strategy for a match against
// bots of ruleset (canonical text), each with a seed of its own: at Okey
// 101, k of its one bot (bot.B101); fallback when this version does not
// know the strategy (a saved match's).
func LocalBots(ruleset, strategy, fallback string, k int) []table.Mover {
	var movers []table.Mover
	if bot.RulesetIs101(ruleset) {
		for i := 0; i < k; i++ {
			movers = append(movers, bot.NewB101())
		}
		return movers
	}
	if _, err := bot.New(strategy, 0); err != nil {
		strategy = fallback
	}
	for i := 1; i <= k; i++ {
		s, _ := bot.New(strategy, uint64(time.Now().UnixNano())+uint64(i))
		movers = append(movers, s)
	}
	return movers
}

// HouseMover is the mover of a house bot (HouseBotOptions.Mover): b101 at
// a table of Okey 101, else the strategy called name.
func HouseMover(name string, seed uint64, is101 bool) (table.Mover, error) {
	if is101 {
		return bot.NewB101(), nil
	}
	return bot.ForTable(name, seed, false)
}
