package main

import (
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/ui"
)

// localIdentities returns the lasting keys of a match against k bots of
// strategy (netplay.LocalIdentities) as the local match takes them, with
// the bots' names.
func localIdentities(data, strategy string, k int) ([]ui.LocalIdentity, []string, error) {
	keys, names, err := netplay.LocalIdentities(data, strategy, k)
	ids := make([]ui.LocalIdentity, len(keys))
	for i, k := range keys {
		ids[i] = ui.LocalIdentity(k)
	}
	return ids, names, err
}

// loadLocalIdentity returns the key kept at ref under data, creating it
// when create is set.
var loadLocalIdentity = netplay.LocalIdentity

// uniqueBotNames renames a bot whose name is the person's.
var uniqueBotNames = netplay.UniqueBotNames
